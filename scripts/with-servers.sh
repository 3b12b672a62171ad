#!/usr/bin/env bash
# Start a throwaway PostgreSQL and etcd, run a command against them, stop
# them on exit. Nothing is installed as a service and nothing outlives the
# command: PostgreSQL is initdb'd into a temporary folder and listens on a
# unix socket only; etcd keeps its data in the same folder and listens on
# loopback ports.
#
#   scripts/with-servers.sh [--no-pg] [--no-etcd] [COMMAND ARGS...]
#
# The command gets PAXOS_PG_URL (a libpq connection string) and
# PAXOS_ETCD_URL in its environment. Without a command, the servers run
# until Ctrl+C and the two URLs are printed.
#
# PostgreSQL refuses to run as root; when this script runs as root (CI does),
# the server runs as Debian's `postgres` account, in a folder it owns.
# Servers missing are installed from Debian (`postgresql`, `etcd-server`),
# as scripts/ensure-tools.sh does for Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."

want_pg=1
want_etcd=1
while [[ $# -gt 0 ]]; do
  case "$1" in
    --no-pg) want_pg=0; shift ;;
    --no-etcd) want_etcd=0; shift ;;
    --) shift; break ;;
    *) break ;;
  esac
done

say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
SUDO=""
if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi

pg_bin() {
  # Debian keeps the server's binaries off PATH.
  local d
  for d in /usr/lib/postgresql/*/bin; do
    [[ -x "$d/initdb" && -x "$d/pg_ctl" ]] && { echo "$d"; return 0; }
  done
  return 1
}

install_missing() {
  local pkgs=()
  if [[ $want_pg == 1 ]] && ! pg_bin >/dev/null; then pkgs+=(postgresql); fi
  if [[ $want_etcd == 1 ]] && ! command -v etcd >/dev/null; then pkgs+=(etcd-server); fi
  [[ ${#pkgs[@]} -eq 0 ]] && return 0
  say "installing Debian's ${pkgs[*]}"
  # Installing a server must not start it as a system service.
  local made_policy=0
  if [[ ! -e /usr/sbin/policy-rc.d ]]; then
    printf '#!/bin/sh\nexit 101\n' | $SUDO tee /usr/sbin/policy-rc.d >/dev/null
    $SUDO chmod +x /usr/sbin/policy-rc.d
    made_policy=1
  fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${pkgs[@]}" >/dev/null
  if [[ $made_policy == 1 ]]; then $SUDO rm -f /usr/sbin/policy-rc.d; fi
}
install_missing

dir=$(mktemp -d "${TMPDIR:-/tmp}/paxos-island-servers.XXXXXX")
pg_pid=""
etcd_pid=""
as_pg=()
cleanup() {
  local rc=$?
  if [[ -n "$pg_pid" ]]; then
    "${as_pg[@]}" "$PGBIN/pg_ctl" -D "$dir/pg" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  if [[ -n "$etcd_pid" ]]; then
    kill "$etcd_pid" 2>/dev/null || true
    wait "$etcd_pid" 2>/dev/null || true
  fi
  rm -rf "$dir"
  exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [[ $want_pg == 1 ]]; then
  PGBIN=$(pg_bin) || { echo "PostgreSQL's initdb was not found; install Debian's postgresql" >&2; exit 2; }
  mkdir -p "$dir/pg" "$dir/sock" "$dir/pglog"
  pg_user=$(id -un)
  if [[ $(id -u) -eq 0 ]]; then
    # initdb and postgres refuse root: run them as Debian's postgres account.
    pg_user=postgres
    chown -R postgres: "$dir/pg" "$dir/sock" "$dir/pglog"
    chmod 755 "$dir"
    as_pg=(runuser -u postgres --)
  fi
  "${as_pg[@]}" "$PGBIN/initdb" -D "$dir/pg" -U "$pg_user" --auth=trust --no-sync -E UTF8 >"$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log" >&2; echo "initdb failed (log above)" >&2; exit 2; }
  port=5439
  "${as_pg[@]}" "$PGBIN/pg_ctl" -D "$dir/pg" -l "$dir/pglog/pg.log" -w -t 30 \
    -o "-c listen_addresses='' -c unix_socket_directories='$dir/sock' -p $port -c fsync=off -c timezone=UTC" start >/dev/null \
    || { cat "$dir/pglog/pg.log" >&2; echo "PostgreSQL did not start (log above)" >&2; exit 2; }
  pg_pid=started
  export PAXOS_PG_URL="host=$dir/sock port=$port user=$pg_user dbname=postgres"
  say "PostgreSQL $("$PGBIN/postgres" --version | awk '{print $3}') on $dir/sock (port $port)"
fi

free_port() {
  # A loopback port nobody answers on (two runs at once must not collide).
  local p
  for _ in $(seq 1 50); do
    p=$((20000 + RANDOM % 20000))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then echo "$p"; return 0; fi
  done
  return 1
}

if [[ $want_etcd == 1 ]]; then
  client=$(free_port)
  peer=$(free_port)
  etcd --name paxos-island --data-dir "$dir/etcd" \
    --listen-client-urls "http://127.0.0.1:$client" --advertise-client-urls "http://127.0.0.1:$client" \
    --listen-peer-urls "http://127.0.0.1:$peer" --initial-advertise-peer-urls "http://127.0.0.1:$peer" \
    --initial-cluster "paxos-island=http://127.0.0.1:$peer" >"$dir/etcd.log" 2>&1 &
  etcd_pid=$!
  export PAXOS_ETCD_URL="http://127.0.0.1:$client"
  ready() {
    if command -v curl >/dev/null; then
      curl -fsS -X POST -d '{}' "$PAXOS_ETCD_URL/v3/maintenance/status" >/dev/null 2>&1
    else
      (exec 3<>"/dev/tcp/127.0.0.1/$client") 2>/dev/null && sleep 1
    fi
  }
  for _ in $(seq 1 100); do
    if ready; then break; fi
    if ! kill -0 "$etcd_pid" 2>/dev/null; then cat "$dir/etcd.log" >&2; echo "etcd did not start (log above)" >&2; exit 2; fi
    sleep 0.1
  done
  say "etcd $(etcd --version | awk 'NR==1{print $3}') on $PAXOS_ETCD_URL"
fi

if [[ $# -eq 0 ]]; then
  [[ -n "${PAXOS_PG_URL:-}" ]] && echo "PAXOS_PG_URL='$PAXOS_PG_URL'"
  [[ -n "${PAXOS_ETCD_URL:-}" ]] && echo "PAXOS_ETCD_URL='$PAXOS_ETCD_URL'"
  say "servers up; Ctrl+C stops them"
  while true; do sleep 3600; done
fi
"$@"

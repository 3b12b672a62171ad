#!/usr/bin/env bash
# The lease lab on real servers, against a throwaway PostgreSQL and etcd
# (scripts/with-servers.sh starts them and stops them on exit):
#  - conformance: every lease scenario at three seeds, each store and storage
#    step run as SQL on PostgreSQL with simulated time as now(), every outcome
#    compared with the model's;
#  - live, once each: PostgreSQL and etcd with real worker threads, the wall
#    clock and a real stall, with the article's fence and without it.
# The live traces go to $LIVE_TRACES_DIR (default tests/e2e/artifacts), where
# the end-to-end tests open them in the page.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=target/release/paxos-island
cargo build --release --quiet --bin paxos-island  # a no-op after `cargo test --release`
out=${LIVE_TRACES_DIR:-tests/e2e/artifacts}
mkdir -p "$out"

scripts/with-servers.sh bash -s "$bin" "$out" <<'EOF'
set -euo pipefail
bin=$1
out=$2
fail=0
scenarios=$($bin scenarios | awk '$2 == "Lease" { print $1 }')
runs=0
for s in $scenarios; do
  for seed in 1 2 3; do
    if ! result=$($bin pg --scenario "$s" --seed "$seed" 2>&1); then
      echo "$result"
      echo "FAIL: pg conformance of $s at seed $seed"
      fail=1
    else
      printf '%-22s seed %s  %s\n' "$s" "$seed" "$(grep '^matches' <<<"$result" | cut -c12-)"
    fi
    runs=$((runs + 1))
  done
done
echo "pg conformance: $runs runs"

# Live: the article's fence refuses the stalled worker's write; without a
# fence it lands. Each check reads the command's own report.
live() {
  local what=$1 expect=$2; shift 2
  local text rc=0
  text=$("$@" 2>&1) || rc=$?
  if [[ $rc != 0 ]]; then echo "$text"; echo "FAIL: $what exited $rc"; fail=1; return; fi
  echo "$text"
  if ! grep -q "$expect" <<<"$text"; then
    echo "FAIL: $what: expected a line matching '$expect'"
    fail=1
  fi
}
live "pg --live (article)" "^refused    W1's write" $bin pg --live --out "$out/pg-live.trace.json"
live "pg --live --fencing off" "^LANDED     W1's write" $bin pg --live --fencing off --out "$out/pg-live-off.trace.json"
live "etcd (article)" "^refused    W1's write" $bin etcd --out "$out/etcd-live.trace.json"
live "etcd --fencing off" "^LANDED     W1's write" $bin etcd --fencing off --out "$out/etcd-live-off.trace.json"
if [[ $fail == 0 ]]; then
  echo "real servers: $runs conformance runs and 4 live runs passed"
fi
exit $fail
EOF

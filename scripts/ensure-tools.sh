#!/usr/bin/env bash
# Install what the build and the tests need, idempotently: the wasm target,
# Debian's Chromium and ChromeDriver, wasm-bindgen-cli (pinned to the crate's
# wasm-bindgen), wasm-split-cli (cuts the app's module into parts), and the
# npm packages of the end-to-end tests (Playwright's core library, without its
# browser download, and binaryen's wasm-opt).
set -euo pipefail
cd "$(dirname "$0")/.."

WASM_BINDGEN_VERSION=0.2.130
say() { printf '\033[1m==> %s\033[0m\n' "$*"; }

if ! rustup target list --installed 2>/dev/null | grep -q '^wasm32-unknown-unknown$'; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

if [[ "${SKIP_BROWSER:-0}" != 1 ]] && { ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; }; then
  say "installing Debian's chromium and chromium-driver"
  SUDO=""
  if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium chromium-driver >/dev/null
fi

# A Japanese font, so that screenshots of the Japanese page show text, not boxes.
if [[ "${SKIP_BROWSER:-0}" != 1 ]] && ! fc-list 2>/dev/null | grep -qi "Noto Sans CJK"; then
  say "installing Debian's fonts-noto-cjk (Japanese text in screenshots)"
  SUDO=""
  if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq fonts-noto-cjk >/dev/null
fi

if [[ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$WASM_BINDGEN_VERSION" ]]; then
  say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (a few minutes, once)"
  # Not --locked: a locked dependency version is not served by the registry.
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
fi

WASM_SPLIT_VERSION=0.2.4
if ! command -v wasm-split-cli >/dev/null || ! cargo install --list | grep -q "^wasm_split_cli_support v$WASM_SPLIT_VERSION:"; then
  say "installing wasm-split-cli $WASM_SPLIT_VERSION (about two minutes, once)"
  cargo install --locked wasm_split_cli_support --version "$WASM_SPLIT_VERSION" --features build-binary \
    || cargo install wasm_split_cli_support --version "$WASM_SPLIT_VERSION" --features build-binary
fi

if [[ ! -x tests/e2e/node_modules/.bin/wasm-opt || tests/e2e/package-lock.json -nt tests/e2e/node_modules/.installed ]]; then
  say "installing the end-to-end test packages (npm ci)"
  (cd tests/e2e && npm ci --no-audit --no-fund --loglevel=error && touch node_modules/.installed)
fi

#!/usr/bin/env bash
# Every test: native (core, CLI, model checking, fuzzing), the lease lab on a
# real PostgreSQL and etcd (started and stopped by scripts/with-servers.sh),
# browser unit tests (wasm-bindgen-test in headless Chromium) and end-to-end
# tests (Playwright driving Debian's Chromium against the built app).
# Installs what it needs.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-tools.sh
export CHROMEDRIVER=${CHROMEDRIVER:-/usr/bin/chromedriver}
export WASM_BINDGEN_TEST_TIMEOUT=${WASM_BINDGEN_TEST_TIMEOUT:-120}

echo "==> native tests"
cargo test --release

echo "==> the lease lab on a real PostgreSQL and etcd (conformance at 3 seeds, live runs)"
export LIVE_TRACES_DIR=${LIVE_TRACES_DIR:-tests/e2e/artifacts/live}
scripts/db-tests.sh

echo "==> browser unit tests (wasm-bindgen-test, headless Chromium)"
cargo test --target wasm32-unknown-unknown --test web

echo "==> release build of the app"
scripts/build-web.sh

echo "==> end-to-end tests (Playwright + Chromium)"
node --test --test-concurrency=1 tests/e2e/

echo "==> benchmarks (figures, not pass/fail)"
cargo run --release --quiet -- bench
node tests/e2e/bench.mjs
echo "all tests passed"

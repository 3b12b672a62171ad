#!/usr/bin/env bash
# Build the app and serve it on 127.0.0.1 (PORT, default 8080).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build-web.sh "$@"
exec node tests/e2e/serve.mjs dist "${PORT:-8080}"

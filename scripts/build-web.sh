#!/usr/bin/env bash
# Build the browser app into dist/: a static folder that works from any
# static host (relative paths only, no server logic).
#   scripts/build-web.sh            size-optimised release build (wasm-opt -Oz)
#   scripts/build-web.sh --debug    fast debug build, no wasm-opt
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-tools.sh

profile=wasm-release
if [[ "${1:-}" == "--debug" ]]; then profile=dev; fi
dir=$([[ $profile == dev ]] && echo debug || echo $profile)

# The app, then the model checker's worker module (without the UI: fetched
# only when a search starts). Both size first.
cargo build --profile "$profile" --target wasm32-unknown-unknown --bin paxos-island --features split
checker_profile=$([[ $profile == dev ]] && echo dev || echo wasm-checker)
checker_dir=$([[ $checker_profile == dev ]] && echo debug || echo wasm-checker)
cargo build --profile "$checker_profile" --target wasm32-unknown-unknown --bin paxos-checker --no-default-features
rm -rf dist target/split
mkdir -p dist target/split
# Cut the app's module at its split points (src/ui/parts.rs): the first load
# (target/split/paxos-island.wasm, for wasm-bindgen) and one chunk per part,
# with the loader `__wasm_split.js` that fetches them, both beside the app's
# JavaScript in dist/.
wasm-split-cli --out-name paxos-island \
  "target/wasm32-unknown-unknown/$dir/paxos-island.wasm" target/split
wasm-bindgen --target web --no-typescript --keep-lld-exports --no-demangle --out-dir dist \
  target/split/paxos-island.wasm
# Leptos's web-streams adapters, exported for server functions the page
# does not have, out of the module and the glue (scripts/drop-exports.mjs).
node scripts/drop-exports.mjs dist/paxos-island_bg.wasm dist/paxos-island.js
for f in target/split/*; do
  [[ $(basename "$f") == paxos-island.wasm ]] || cp "$f" dist/
done
wasm-bindgen --target web --no-typescript --out-dir dist \
  "target/wasm32-unknown-unknown/$checker_dir/paxos-checker.wasm"
# The checker's module is not cut, so nothing took the relocations out of it
# (two thirds of its bytes): 258 → 103 KB gzip.
node scripts/strip-relocs.mjs dist/paxos-checker_bg.wasm
if [[ $profile == wasm-release ]]; then
  # npm's binaryen: Debian's wasm-opt (version 108) breaks the module in Chromium.
  # The producers and target-features sections (about 200 bytes each,
  # which a browser does not read) dropped: 18.8 KB gzip over the 140 files.
  features=(--enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext
    --enable-mutable-globals --enable-reference-types
    --strip-producers --strip-target-features)
  for f in dist/paxos-island_bg.wasm dist/split_*.wasm dist/chunk_*.wasm; do
    [[ -f $f ]] || continue
    tests/e2e/node_modules/.bin/wasm-opt -Oz "${features[@]}" "$f" -o "$f"
  done
  # The checker (compiled at opt-level "z"): -O3 came out 0.3 KB gzip
  # smaller than -Oz, and searches as fast as the opt-level 3 build did.
  tests/e2e/node_modules/.bin/wasm-opt -O3 "${features[@]}" \
    dist/paxos-checker_bg.wasm -o dist/paxos-checker_bg.wasm
fi
# wasm-split's small chunks (97 of ~125 under 3 KB) merged into one file the
# loader fetches once (scripts/merge-chunks.mjs): a part fetches a few files
# instead of 30–78, and the whole is 18 KB gzip smaller.
node scripts/merge-chunks.mjs dist 3000
cp index.html loader.js first-frame.js checker-worker.js dist/
# wasm-bindgen's snippets (the Rust's inline JavaScript) are imports of the
# glue: asked for beside it rather than after it has been read (their folder's
# name changes with the build, so the links are written here).
links=$(cd dist && find snippets -name '*.js' | sort | sed 's|.*|  <link rel="modulepreload" href="./&">\\n|' | tr -d '\n')
sed -i "s|</head>|${links}</head>|" dist/index.html
cp -r style assets dist/
# A picture of the first frame, taken from the app just built, shown while
# the module loads (scripts/prerender.mjs). Without a browser the page shows
# its loading line instead.
if [[ "${SKIP_BROWSER:-0}" != 1 ]] && command -v chromium >/dev/null; then
  node scripts/prerender.mjs dist
fi
if [[ $profile == wasm-release ]]; then
  # The JavaScript and CSS minified (scripts/minify.mjs), then precompressed
  # copies beside the files, for static hosts that serve them (brotli,
  # quality 11: about a fifth smaller than gzip -9 on the module).
  node scripts/minify.mjs dist
  node scripts/precompress.mjs dist
fi
printf 'built dist/ (%s): ' "$profile"
du -sh dist | cut -f1

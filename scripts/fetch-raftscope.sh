#!/usr/bin/env bash
# Fetch RaftScope (ongardie/raftscope, with its two submodules) into the
# ignored folder anchors/raftscope/, where `node tests/e2e/bench.mjs`
# finds it and measures it beside the app as the anchor of its paint figures.
# Its code is never committed. Without network access to GitHub, point
# RAFTSCOPE_GIT at local clones: RAFTSCOPE_GIT=/path/to/mirrors, holding
# raftscope/, bootstrap-slider/ and bootstrap-contextmenu/ git directories.
set -euo pipefail
cd "$(dirname "$0")/.."
dest=anchors/raftscope
src=${RAFTSCOPE_GIT:-https://github.com}
url() { if [[ $src == https://* ]]; then echo "$src/$1/$2"; else echo "$src/$2"; fi; }
rm -rf "$dest"
mkdir -p "$(dirname "$dest")"
git clone -q "$(url ongardie raftscope)" "$dest"
for sub in "seiyria bootstrap-slider" "sydcanem bootstrap-contextmenu"; do
  set -- $sub
  commit=$(git -C "$dest" ls-tree HEAD "$2" | awk '{print $3}')
  rm -rf "$dest/$2"
  git clone -q "$(url "$1" "$2")" "$dest/$2"
  git -C "$dest/$2" checkout -q "$commit"
done
echo "RaftScope is in $dest (ignored by git)"

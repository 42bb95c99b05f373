#!/usr/bin/env bash
# Lists the repository's Go files: the ones git tracks, or, in a copy without git (a
# release archive, the fresh-machine check), every .go file outside the data folder
# (where the scripts keep a Go toolchain and the module cache) and node_modules.
cd "$(dirname "$0")/.."
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  git ls-files '*.go'
else
  find . -name '*.go' -not -path './.data/*' -not -path './web/node_modules/*' | sed 's|^\./||'
fi

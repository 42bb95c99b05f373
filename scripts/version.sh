#!/usr/bin/env bash
# Prints the version of the checked-out tree (instant): the VERSION file at the
# repository root when HEAD carries the tag v<VERSION>; otherwise
# <VERSION>-dev.<N>+g<short hash>, N being the commits since VERSION last changed
# (so it works in a clean clone without tags), with ".dirty" when tracked files
# have uncommitted changes. Outside a git checkout (a release tarball), VERSION as it is.
#   scripts/version.sh           the version, e.g. 0.25.0-dev.3+g1a2b3c4
#   scripts/version.sh ldflags   the -ldflags that set pkg/version's Version and Commit
set -euo pipefail
cd "$(dirname "$0")/.."
base=$(tr -d ' \n' <VERSION)
version=$base commit=
if git rev-parse --git-dir >/dev/null 2>&1; then
  commit=$(git rev-parse HEAD)
  if [ "$(git tag --points-at HEAD --list "v$base")" != "v$base" ]; then
    since=$(git log -1 --format=%H -- VERSION)
    n=$(git rev-list --count "${since:+$since..}HEAD")
    version="$base-dev.$n+g$(git rev-parse --short=7 HEAD)"
    git diff --quiet HEAD -- 2>/dev/null || version+=.dirty
  fi
fi
case "${1:-}" in
  ldflags) echo "-X github.com/chapar/chapar/pkg/version.Version=$version -X github.com/chapar/chapar/pkg/version.Commit=$commit" ;;
  "") echo "$version" ;;
  *) echo "usage: $0 [ldflags]" >&2; exit 2 ;;
esac

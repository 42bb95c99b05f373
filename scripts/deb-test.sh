#!/usr/bin/env bash
# `make deb-test`: the .deb on a clean Debian machine (as root). A Debian bookworm
# root made with debootstrap (cached under .data/deb-test, with the Debian packages
# docs/deployment.md installs downloaded into it, so the machine needs no network)
# is booted with systemd-nspawn on a throw-away overlay, in a network namespace of
# its own. Inside, the `sh deb-test` blocks of docs/deployment.md run in order as
# one script: PostgreSQL and Redis from Debian, `apt-get install ./chapar_*.deb`,
# secrets, settings, the units started, /readyz, a staff user, nginx with TLS,
# Prometheus. The test adds only what the page cannot do on a machine without the
# internet: the carrier simulator instead of the carriers, a self-signed
# certificate instead of Let's Encrypt's. Then it asserts a send to three numbers
# completes through the simulator, every unit is active and Prometheus scrapes the
# three services, and that an online payment's invoice prints: Chromium under
# the hardened API unit. Exits non-zero on any failure; the machine is stopped and the
# overlay and mounts removed in any case.
# Takes 4 to 8 minutes with a warm cache on a 2-core machine at load 5 to 20 (most
# of it apt installing PostgreSQL with PostGIS, Chromium, nginx, certbot and
# Prometheus inside), 2 more with a cold one (debootstrap), plus `make dist` when
# the release of this version is missing (`make deb-test` always makes it).
#   DEB_TEST_KEEP=1         keeps the machine's overlay (its path is printed)
#   DEB_TEST_PACKAGE=FILE   tests that .deb instead of this version's
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$(pwd)
[ "$(id -u)" = 0 ] || { echo "deb-test: run as root (debootstrap, systemd-nspawn, mounts)" >&2; exit 1; }
. scripts/toolchain.sh
. scripts/apt.sh
command -v debootstrap >/dev/null || apt_install debootstrap
command -v systemd-nspawn >/dev/null || apt_install systemd-container

log() { printf '[deb-test %s] %s\n' "$(date -u +%T)" "$*" >&2; }
t0=$SECONDS
# What docs/deployment.md installs with apt (and jq, for the checks); downloaded into the cached root.
PACKAGES="postgresql postgresql-15-postgis-3 redis-server curl nginx certbot jq"
PACKAGES_NO_RECOMMENDS="chromium prometheus"
CACHE=.data/deb-test/bookworm

version=$(bash scripts/version.sh)
deb=${DEB_TEST_PACKAGE:-dist/chapar_${version/-/\~}_amd64.deb}
[ -f "$deb" ] || bash scripts/dist.sh
log "package $deb"

# The first mirror of this machine's apt sources (deb822 or one-line).
mirror() {
  local m
  m=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
    awk '$1 == "deb" && $0 !~ /security/ { for (i = 2; i <= NF; i++) if ($i ~ /^https?:/) { print $i; exit } }')
  [ -n "$m" ] || m=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '/^URIs:/ && $2 !~ /security/ { print $2; exit }')
  echo "${m:-http://deb.debian.org/debian}"
}

# nspawn_run ROOT CMD…: runs a command in ROOT with the host's network, in a mount
# namespace of our own (nspawn's scratch folder on a tmpfs there, not in the host's /run).
nspawn_run() {
  local root=$1; shift
  unshare --mount --propagation private bash -c 'mkdir -p /run/systemd/nspawn && mount -t tmpfs tmpfs /run/systemd/nspawn &&
    exec systemd-nspawn --quiet --register=no --keep-unit --pipe -D "$@"' _ "$root" "$@"
}

# debootstrap_cache: a minimal bookworm root with systemd, made once.
debootstrap_cache() {
  local partial=$CACHE.partial
  rm -rf "$partial"
  mkdir -p "$(dirname "$CACHE")"
  log "debootstrap bookworm into $partial"
  debootstrap --variant=minbase --include=systemd,systemd-sysv,dbus,ca-certificates bookworm "$partial" "$(mirror)" >"$partial.log" 2>&1 ||
    { tail -n 20 "$partial.log" >&2; return 1; }
  rm -f "$partial.log"
  mv "$partial" "$CACHE"
}

# download_packages: the packages the page installs, downloaded into the cached
# root's apt cache (again only when the list changed; apt fetches what is missing).
download_packages() {
  local want="$PACKAGES | $PACKAGES_NO_RECOMMENDS"
  [ "$(cat "$CACHE/.chapar-packages" 2>/dev/null)" != "$want" ] || return 0
  log "downloading $want into the root"
  # shellcheck disable=SC2086 # the package lists are words
  nspawn_run "$CACHE" /bin/sh -ec "apt-get update -qq
    apt-get install -y -qq --download-only $PACKAGES >/dev/null
    apt-get install -y -qq --download-only --no-install-recommends $PACKAGES_NO_RECOMMENDS >/dev/null"
  echo "$want" >"$CACHE/.chapar-packages"
}
if [ -d "$CACHE" ]; then log "cached root $CACHE"; else debootstrap_cache; fi
download_packages
log "root ready after $((SECONDS - t0))s"

# The machine: an overlay on the cached root, so the cache stays clean.
RUN=$(mktemp -d /var/tmp/chapar-deb-test.XXXXXX)
ROOT=$RUN/root NSPAWN_PID= LEADER=
cleanup() {
  local rc=$? i
  if [ -n "$NSPAWN_PID" ] && kill -0 "$NSPAWN_PID" 2>/dev/null; then
    # SIGTERM asks nspawn to shut the machine down cleanly; SIGKILL after a minute.
    kill -TERM "$NSPAWN_PID" 2>/dev/null || true
    for ((i = 0; i < 600; i++)); do kill -0 "$NSPAWN_PID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$NSPAWN_PID" 2>/dev/null || true
    wait "$NSPAWN_PID" 2>/dev/null || true
  fi
  if mountpoint -q "$ROOT"; then umount "$ROOT" || umount -l "$ROOT"; fi
  if [ -n "${DEB_TEST_KEEP:-}" ]; then log "kept $RUN"; else rm -rf "$RUN"; fi
  log "$([ "$rc" = 0 ] && echo passed || echo FAILED) in $((SECONDS - t0))s"
  exit "$rc"
}
trap cleanup EXIT
mkdir -p "$RUN/upper" "$RUN/work" "$ROOT"
mount -t overlay overlay -o "lowerdir=$REPO/$CACHE,upperdir=$RUN/upper,workdir=$RUN/work" "$ROOT"

# What goes in: the package, the simulator (not part of a release), the page's steps.
cp "$deb" "$ROOT/root/"
# dpkg without fsync: a throw-away machine needs no crash safety (the installs are most of the time).
echo force-unsafe-io >"$ROOT/etc/dpkg/dpkg.cfg.d/chapar-test-unsafe-io"
CGO_ENABLED=0 go build -trimpath -o "$ROOT/usr/local/bin/smsc-sim" ./cmd/smsc-sim
{
  echo 'set -euxo pipefail'
  echo 'cd /root'
  cat scripts/deb-test-hooks.sh
  # Each `sh deb-test` block of the page, then the hook of that block's number, if any.
  awk 'BEGIN { n = 0 } /^```sh deb-test$/ { n++; print "# --- docs/deployment.md, block " n; inb = 1; next }
       inb && /^```$/ { inb = 0; print "type hook_" n " >/dev/null 2>&1 && hook_" n; next }
       inb { print }' docs/deployment.md
  echo 'after_all'
} >"$ROOT/root/deployment.sh"
# The hooks are numbered by block: a page with another count needs them renumbered.
[ "$(grep -c '^# --- docs/deployment.md, block' "$ROOT/root/deployment.sh")" = 10 ] ||
  { log "docs/deployment.md has not the 10 sh deb-test blocks scripts/deb-test-hooks.sh is numbered for"; exit 1; }

log "booting the machine"
unshare --mount --propagation private bash -c 'mkdir -p /run/systemd/nspawn && mount -t tmpfs tmpfs /run/systemd/nspawn &&
  exec systemd-nspawn --quiet --register=no --keep-unit --boot --private-network --machine="$1" -D "$2"' \
  _ "chapar-deb-test-$$" "$ROOT" >"$RUN/console.log" 2>&1 </dev/null &
NSPAWN_PID=$!
deadline=$((SECONDS + 120))
until [ -n "$LEADER" ]; do
  ((SECONDS < deadline)) || { log "the machine did not start"; tail -n 20 "$RUN/console.log" >&2; exit 1; }
  kill -0 "$NSPAWN_PID" 2>/dev/null || { log "systemd-nspawn exited"; tail -n 20 "$RUN/console.log" >&2; exit 1; }
  LEADER=$(pgrep -x -P "$NSPAWN_PID" systemd || true) # the machine's init, nspawn's child
  sleep 0.2
done
# inside CMD…: runs a command in the machine (its namespaces, a clean environment).
inside() {
  nsenter -t "$LEADER" -m -u -i -n -p -- env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"
}
deadline=$((SECONDS + 180))
until state=$(inside systemctl is-system-running 2>/dev/null) || [ "$state" = degraded ]; do
  ((SECONDS < deadline)) || { log "systemd did not finish booting ($state)"; tail -n 20 "$RUN/console.log" >&2; exit 1; }
  sleep 0.5
done
log "booted ($state) after $((SECONDS - t0))s; running docs/deployment.md"

# A safety net against a hang, not a speed limit: a passing run takes a few minutes.
rc=0
inside timeout 1200 bash /root/deployment.sh >"$RUN/steps.log" 2>&1 || rc=$?
if [ "$rc" != 0 ]; then
  tail -n 40 "$RUN/steps.log" >&2
  for u in chapar-migrate chapar-api chapar-worker chapar-smpp-gateway chapar-sim nginx prometheus; do
    echo "== $u" >&2
    inside journalctl -u "$u" -n 15 --no-pager 2>/dev/null | cut -c1-300 >&2 || true
  done
  log "docs/deployment.md failed inside the machine (exit $rc)"
  exit 1
fi
grep -E '^(ok|FAIL) ' "$RUN/steps.log" >&2 || true
log "docs/deployment.md ran, the send completed and the services are watched"

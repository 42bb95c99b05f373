#!/usr/bin/env bash
# Checks the README's two commands on a fresh machine: builds a clean Debian
# bookworm root with debootstrap (from the mirror of this machine's apt sources),
# copies the repository in (git archive of FRESH_REF, default HEAD: uncommitted
# changes are not included), and inside it, through chroot, runs `make test`, then
# `make run` until /readyz answers, and stops it. Nothing but Debian's base system,
# make and ca-certificates is installed beforehand: no PostgreSQL, Redis, Chromium,
# Go or Node. Prints each step's time. Heavy (a few GB, many minutes): run it on a
# machine of its own, as root. See docs/fresh-machine.md.
#
#   FRESH_DIR   where the root is built (default /var/tmp/chapar-fresh-<time>)
#   FRESH_REF   what to copy in (default HEAD)
#   FRESH_KEEP  1 keeps the root afterwards (default: removed)
#   FRESH_STEPS which steps to run (default "test run")
#   FRESH_READY_TIMEOUT seconds `make run` has to answer /readyz (default 900)
# shellcheck disable=SC2317 # the steps are called through timed and the trap
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$(pwd)
[ "$(id -u)" = 0 ] || { echo "run as root (debootstrap and chroot)" >&2; exit 1; }

ROOTFS=${FRESH_DIR:-/var/tmp/chapar-fresh-$(date -u +%Y%m%dT%H%M%SZ)}
REF=${FRESH_REF:-HEAD}
STEPS=${FRESH_STEPS:-test run}
READY_TIMEOUT=${FRESH_READY_TIMEOUT:-900}
# Ports nothing on this machine uses, so that the chroot (which shares the network)
# never finds this machine's PostgreSQL, Redis or API and has to start its own.
FRESH_PGPORT=${FRESH_PGPORT:-55439}
FRESH_REDIS_PORT=${FRESH_REDIS_PORT:-56389}
FRESH_HTTP_ADDR=${FRESH_HTTP_ADDR:-127.0.0.1:18089}

log() { printf '[fresh %s] %s\n' "$(date -u +%T)" "$*" >&2; }
TIMES=()
timed() { # name, then the command; records the step's time and outcome
  local name=$1 t0 rc=0
  shift
  t0=$(date +%s)
  log "step: $name"
  "$@" || rc=$?
  TIMES+=("$(printf '%-22s %6ss  %s' "$name" $(($(date +%s) - t0)) "$([ "$rc" = 0 ] && echo ok || echo "FAILED ($rc)")")")
  return "$rc"
}

# mirror prints the first Debian mirror of this machine's apt sources.
mirror() {
  local m
  m=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
    awk '$1 == "deb" && $0 !~ /security/ { for (i = 2; i <= NF; i++) if ($i ~ /^https?:/) { print $i; exit } }')
  [ -n "$m" ] || m=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null |
    awk '/^URIs:/ && $2 !~ /security/ { print $2; exit }')
  echo "${m:-http://deb.debian.org/debian}"
}

MOUNTS=()
mount_into() { # source, target inside the root, mount options…
  local src=$1 dst=$ROOTFS$2
  shift 2
  mkdir -p "$dst"
  mount "$@" "$src" "$dst"
  MOUNTS=("$dst" "${MOUNTS[@]}")
}

RUN_PID=
# chroot_kill SIGNAL: signals every process whose root is the new root (the private
# PostgreSQL and Redis that make started in it, and anything left behind).
chroot_kill() {
  local p
  for p in /proc/[0-9]*; do
    [ "$(readlink "$p/root" 2>/dev/null)" = "$ROOTFS" ] && kill "-$1" "${p#/proc/}" 2>/dev/null
  done
  return 0
}

cleanup() {
  local m
  if [ -n "$RUN_PID" ]; then kill -TERM -- "-$RUN_PID" 2>/dev/null || true; fi
  chroot_kill TERM; sleep 3; chroot_kill KILL
  for m in "${MOUNTS[@]}"; do umount -R "$m" 2>/dev/null || umount -R -l "$m" 2>/dev/null || true; done
  # Never remove a root that still has anything mounted in it: with a mount of the
  # host's (a /dev, a /proc) rm would reach through it.
  if findmnt -rn -o TARGET | grep -q "^$ROOTFS/"; then
    log "mounts remain under $ROOTFS: not removing it (umount -R them first)"
  elif [ "${FRESH_KEEP:-}" = 1 ]; then log "root kept in $ROOTFS"
  else rm -rf --one-file-system "$ROOTFS"; fi
}

bootstrap() {
  . scripts/apt.sh
  command -v debootstrap >/dev/null || apt_install debootstrap
  debootstrap --include=make,ca-certificates bookworm "$ROOTFS" "$(mirror)" >"$ROOTFS.debootstrap.log" 2>&1 ||
    { tail -20 "$ROOTFS.debootstrap.log" >&2; return 1; }
  # The same apt sources as this machine (updates and security included).
  if ls /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list >/dev/null 2>&1 || [ -s /etc/apt/sources.list ]; then
    rm -f "$ROOTFS/etc/apt/sources.list"
    cp /etc/apt/sources.list "$ROOTFS/etc/apt/" 2>/dev/null || true
    cp /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list "$ROOTFS/etc/apt/sources.list.d/" 2>/dev/null || true
  fi
  cp /etc/resolv.conf "$ROOTFS/etc/resolv.conf"
}

# This machine's extra CA files (an intercepting proxy) go in at the same paths.
CA_VARS=(SSL_CERT_FILE NODE_EXTRA_CA_CERTS CURL_CA_BUNDLE GIT_SSL_CAINFO)
copy_cas() {
  local v f
  for v in "${CA_VARS[@]}"; do
    f=${!v:-}
    if [ -z "$f" ] || [ ! -f "$f" ]; then continue; fi
    mkdir -p "$ROOTFS$(dirname "$f")"
    cp "$f" "$ROOTFS$f"
  done
}

copy_repo() {
  mkdir -p "$ROOTFS/src/chapar"
  git -C "$REPO" archive "$REF" | tar -x -C "$ROOTFS/src/chapar"
}

# mount_all gives the root its own /proc and /sys and a private /dev: a tmpfs with
# the few device nodes a build needs and a new devpts instance. The host's /dev is
# never mounted in, so nothing done inside the root (or to it) reaches the host's.
mount_all() {
  mount_into proc /proc -t proc
  mount_into sysfs /sys -t sysfs -o ro
  mount_into tmpfs /dev -t tmpfs -o mode=755,nosuid
  local n
  for n in "null 1 3" "zero 1 5" "full 1 7" "random 1 8" "urandom 1 9" "tty 5 0"; do
    set -- $n
    mknod -m 666 "$ROOTFS/dev/$1" c "$2" "$3"
  done
  ln -s /proc/self/fd "$ROOTFS/dev/fd"
  ln -s /proc/self/fd/0 "$ROOTFS/dev/stdin"
  ln -s /proc/self/fd/1 "$ROOTFS/dev/stdout"
  ln -s /proc/self/fd/2 "$ROOTFS/dev/stderr"
  mount_into devpts /dev/pts -t devpts -o newinstance,ptmxmode=0666,mode=620
  ln -s pts/ptmx "$ROOTFS/dev/ptmx"
  mount_into tmpfs /dev/shm -t tmpfs -o mode=1777,nosuid,nodev
}

# chroot_run COMMAND: a login-like shell in the repository inside the root.
chroot_run() {
  local env=(HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
    LANG=C.UTF-8 TERM=dumb PGPORT="$FRESH_PGPORT" REDIS_PORT="$FRESH_REDIS_PORT" HTTP_ADDR="$FRESH_HTTP_ADDR")
  local v
  for v in "${CA_VARS[@]}" http_proxy https_proxy no_proxy HTTP_PROXY HTTPS_PROXY NO_PROXY; do
    [ -n "${!v:-}" ] && env+=("$v=${!v}")
  done
  chroot "$ROOTFS" /usr/bin/env -i "${env[@]}" /bin/bash -c "cd /src/chapar && $1"
}

make_test() { chroot_run 'make test' 2>&1 | tee "$ROOTFS.make-test.log" | tail -40; }

make_run() {
  setsid bash -c "$(declare -f chroot_run); $(declare -p CA_VARS ROOTFS FRESH_PGPORT FRESH_REDIS_PORT FRESH_HTTP_ADDR); chroot_run 'make run'" \
    >"$ROOTFS.make-run.log" 2>&1 &
  RUN_PID=$!
  local deadline=$(($(date +%s) + READY_TIMEOUT))
  until curl -fsS --max-time 5 "http://$FRESH_HTTP_ADDR/readyz" >/dev/null 2>&1; do
    if ! kill -0 "$RUN_PID" 2>/dev/null || [ "$(date +%s)" -ge "$deadline" ]; then
      tail -40 "$ROOTFS.make-run.log" >&2
      return 1
    fi
    sleep 2
  done
  log "make run answers on http://$FRESH_HTTP_ADDR/readyz"
}

stop_run() {
  kill -INT -- "-$RUN_PID" 2>/dev/null || true
  for _ in $(seq 30); do kill -0 "$RUN_PID" 2>/dev/null || break; sleep 1; done
  kill -KILL -- "-$RUN_PID" 2>/dev/null || true
  wait "$RUN_PID" 2>/dev/null || true
  RUN_PID=
}

trap cleanup EXIT
log "building $ROOTFS from $(mirror)"
fail=0
timed "debootstrap" bootstrap
timed "copy repository" copy_repo
copy_cas
mount_all
case " $STEPS " in *" test "*) timed "make test" make_test || fail=1 ;; esac
case " $STEPS " in *" run "*)
  if timed "make run → /readyz" make_run; then timed "stop make run" stop_run; else fail=1; fi ;;
esac

printf '\nfresh machine (%s, %s)\n' "$(git -C "$REPO" rev-parse --short "$REF")" "$(mirror)"
printf '  %s\n' "${TIMES[@]}"
printf '  logs: %s.{debootstrap,make-test,make-run}.log\n' "$ROOTFS"
exit "$fail"

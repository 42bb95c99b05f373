#!/usr/bin/env bash
# `make replica-test`: reports read from a real streaming replica. Makes a private
# PostgreSQL primary (initdb, free ports, under /tmp), a streaming replica of it
# (pg_basebackup -R) and runs internal/testing/enginetest's
# TestReportsReadFromReplica against them (TEST_DATABASE_URL: the private primary,
# TEST_REPLICA_URL: the replica, TEST_REPLICA_STOP: the command that stops it):
# a report read right after a send completes comes from the replica with the
# primary's figures; with replay paused it comes from the primary; with the
# replica stopped, reports still answer, from the primary. Stops both servers and
# removes their files at the end. Takes about a minute. Needs root (or the
# postgres user) and installs PostgreSQL and PostGIS with apt when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/toolchain.sh
set -a; . ./.data/env; set +a
. scripts/apt.sh

pg_bin() {
  local d
  for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do [ -x "$d/$1" ] && { echo "$d/$1"; return; }; done
  return 1
}
[ -n "$(pg_bin initdb 2>/dev/null)" ] || apt_install postgresql
PGBIN=$(dirname "$(pg_bin initdb)")
major=$(basename "$(dirname "$PGBIN")")
[ -e "/usr/share/postgresql/$major/extension/postgis.control" ] || apt_install "postgresql-$major-postgis-3"

# as_pg CMD…: run as the postgres user when root (PostgreSQL refuses root).
as_pg() { if [ "$(id -u)" = 0 ]; then setpriv --reuid=postgres --regid=postgres --init-groups "$@"; else "$@"; fi; }

DIR=$(mktemp -d /tmp/chapar-replica.XXXXXX)
chmod 755 "$DIR"
[ "$(id -u)" != 0 ] || chown postgres "$DIR"
read -r P1 P2 < <(python3 -c 'import socket
ss = [socket.socket() for _ in range(2)]
for s in ss: s.bind(("127.0.0.1", 0))
print(*(s.getsockname()[1] for s in ss))')
cleanup() {
  local d
  for d in "$DIR/replica" "$DIR/primary"; do
    [ ! -f "$d/postmaster.pid" ] || as_pg "$PGBIN/pg_ctl" -D "$d" -m immediate -w stop >/dev/null 2>&1 || true
  done
  rm -rf "$DIR"
}
trap cleanup EXIT

# serve DATADIR PORT: start a server of this test, listening on 127.0.0.1 only.
serve() {
  as_pg "$PGBIN/pg_ctl" -D "$1" -l "$1/server.log" -w -t 120 \
    -o "-c listen_addresses=127.0.0.1 -c port=$2 -c unix_socket_directories=$DIR -c fsync=off -c max_connections=200" start >/dev/null
}

echo "[replica] primary on 127.0.0.1:$P1, streaming replica on 127.0.0.1:$P2 ($major)"
as_pg "$PGBIN/initdb" -D "$DIR/primary" -A trust -U postgres >/dev/null
serve "$DIR/primary" "$P1"
as_pg "$PGBIN/pg_basebackup" -h 127.0.0.1 -p "$P1" -U postgres -D "$DIR/replica" -R -X stream
serve "$DIR/replica" "$P2"
psql "postgres://postgres@127.0.0.1:$P2/postgres?sslmode=disable" -XAtqc 'SELECT pg_is_in_recovery()' | grep -qx t ||
  { echo "the replica is not in recovery" >&2; exit 1; }

rc=0
TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$P1/postgres?sslmode=disable" \
  TEST_REPLICA_URL="postgres://postgres@127.0.0.1:$P2/postgres?sslmode=disable" \
  TEST_REPLICA_STOP="$( [ "$(id -u)" = 0 ] && echo setpriv --reuid=postgres --regid=postgres --init-groups ) $PGBIN/pg_ctl -D $DIR/replica -m fast -w stop" \
  go test -count=1 -timeout 10m -run 'TestReportsReadFromReplica' -v ./internal/testing/enginetest >"$DIR/go-test.log" 2>&1 || rc=$?
grep -E '^(--- |PASS|FAIL|ok|panic)|_test\.go:[0-9]+:' "$DIR/go-test.log" || true
[ "$rc" = 0 ] || { tail -n 40 "$DIR/go-test.log"; echo "[replica] FAILED" >&2; exit 1; }
echo "[replica] passed"

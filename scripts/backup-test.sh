#!/usr/bin/env bash
# Backups and restore, end to end (docs/backups.md; `make backup-test`, and a step
# of `make test` with BACKUP_N=5000). Takes about 5 minutes at 5,000 recipients on a
# quiet machine, about 26 at 100,000 (the default) on a loaded one.
#
# 1. Point-in-time restore. A private PostgreSQL cluster (Debian's initdb, on a free
#    port) archives its WAL with the archive_command of docs/backups.md; the whole
#    stack (scripts/stack.sh) runs on it. deploy/backup/chapar-base-backup takes
#    "last night's" base backup, then a send of BACKUP_N recipients goes through the
#    API, held back at the carrier (a throttled simulator) so that it is still going
#    while chapar-base-backup takes the next one (removing the first and pruning the
#    archive) and, later, while a named restore point is made between two snapshots
#    of the recipients and the ledger. The send then finishes. The base backup is
#    restored into a fresh data directory and recovered from the archive to the
#    restore point; there every row of the first snapshot is present, every
#    recipient's status lies between its two snapshots', the ledger holds every row
#    of the first and none outside the second, every balance equals its ledger,
#    every send's counters equal its recipients, and pg_amcheck finds no damaged
#    page or index. systemd-analyze checks the nightly timer's units.
# 2. Redis holds nothing PostgreSQL does not rebuild. A second send of BACKUP_N
#    recipients; a twentieth of the way in, with the worker paused so that receipts
#    wait unread, FLUSHALL on the stack's Redis (queued batch tasks, the receipts
#    stream, the bind leases go). The send must still finish with every recipient
#    final, each number submitted exactly once at the simulator (its per-number
#    messages and its duplicate detector) and the ledger exact. The sweeper runs
#    with short thresholds (as `make chaos` does), so that the lost receipts end
#    as "no receipt" in a minute rather than 48 hours.
#
# KEEP_STACK_LOGS=1 keeps the processes' logs and the clusters' logs.
set -Eeuo pipefail
trap 'echo "FAILED: line $LINENO: $BASH_COMMAND" >&2' ERR
cd "$(dirname "$0")/.."
. scripts/toolchain.sh
set -a; . ./.data/env; set +a
. scripts/apt.sh
BACKUP_N=${BACKUP_N:-100000}
BACKUP_TIMEOUT=${BACKUP_TIMEOUT:-$((900 + BACKUP_N / 50))} # a safety net per wait, not a measure

. scripts/backup-lib.sh
. scripts/stack.sh

BK=$(mktemp -d /tmp/chapar-backup-pg.XXXXXX)
cleanup() {
  local rc=$?
  [ -z "${STACK_PID[worker]:-}" ] || kill -CONT "${STACK_PID[worker]}" 2>/dev/null || true # paused by redis_flush
  stack_cleanup || true
  pg_stop "$BK/restored" || true
  pg_stop "$BK/pg" || true
  if [ -n "${KEEP_STACK_LOGS:-}" ] || [ "$rc" != 0 ]; then
    cp "$BK"/pg/log/* "$BK"/restored/log/* "${STACK_RUN:-$BK}/" 2>/dev/null || true
  fi
  rm -rf "$BK"
  exit "$rc"
}
trap cleanup EXIT

need_pg_tools
pg_primary "$BK/pg" "$BK/archive"
export TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$PG_PORT/postgres?sslmode=disable"

stack_init backup
STACK_BIN=$STACK_RUN/bin
step "build"
go build -o "$STACK_BIN/" ./cmd/...
stack_start_redis
# The simulator keeps every message of both sends for the per-number counts; the
# gateway works on two batches at a time, so that most of a send's batch tasks
# wait in Redis when it is flushed; the sweeper takes over what a flushed Redis
# lost within seconds, not minutes.
export SIM_RECEIPT_DELAY_MS=100-800 BANK_SIZE=2000 SIM_MAX_STORED=$((2 * BACKUP_N + 10000))
export GATEWAY_CONCURRENCY=2 SWEEP_ABANDONED=5s SWEEP_STALLED=10s SWEEP_NO_RECEIPT=60s
step "database and stack"
LOG_LEVEL=warn stack_prepare_db
stack_start_all
"$STACK_BIN/api" admin credit demo $((BACKUP_N * 2 * 1000)) >/dev/null
TOKEN=$(api_token)

units_valid
point_in_time_restore
redis_flush
echo "backup test: all passed"

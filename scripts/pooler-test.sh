#!/usr/bin/env bash
# `make pooler-test`: the whole stack through PgBouncer in transaction mode.
# Starts Debian's pgbouncer (installed when missing) as a foreground process with
# a private ini on a free port, pool_mode=transaction, in front of the server of
# TEST_DATABASE_URL (.data/env); runs the simulator, gateway, worker and API
# (scripts/stack.sh, a fresh database dropped afterwards) with DATABASE_URL through
# PgBouncer, DATABASE_POOLER=pgbouncer and DATABASE_DIRECT_URL to the server for
# migrations and the jobs' session locks; sends POOLER_N (5,000) recipients in
# sends of 1,000 and passes only when every recipient is final, the simulator
# accepted each exactly once, the ledger took exactly the submitted recipients'
# cost and the wallet equals its ledger. Then runs Go integration tests with
# their databases reached through PgBouncer (TEST_POOLER_URL): POOLER_GO_TESTS
# (./pkg/history ./internal/testing/enginetest; empty skips them), the tests
# named by POOLER_GO_RUN (a -run pattern: the pipeline, pause and stop, the
# rollups, the money; empty runs them all, about 15 minutes on a loaded machine).
#
# CPU per recipient with and without PgBouncer is measured on the test bed
# (TESTBED_POOLER=pgbouncer, docs/scaling.md "A pooler").
#
# Takes about 2 minutes, the Go tests 2–4 more. Needs root for apt when
# pgbouncer is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/toolchain.sh
set -a; . ./.data/env; set +a

N=${POOLER_N:-5000}
GO_TESTS=${POOLER_GO_TESTS-./pkg/history ./internal/testing/enginetest}
GO_RUN=${POOLER_GO_RUN-TestQuickSendEndToEnd|TestStopRefundsUnsent|TestPauseResumeDone|TestRollupsEqualBruteForce|TestWalletPropertyRandomMix|TestScheduledQuickSendCannotOutgrowItsHold|TestArchiveAcrossPartitions}

. scripts/stack.sh
. scripts/pgbouncer.sh
log() { printf '[pooler %s] %s\n' "$(date +%T)" "$*" >&2; }

stack_init pooler
trap pooler_cleanup EXIT
pooler_cleanup() {
  stack_cleanup
  if [ -n "${PGB_PID:-}" ]; then kill -TERM "$PGB_PID" 2>/dev/null || true; wait "$PGB_PID" 2>/dev/null || true; fi
  [ -z "${PGB_DIR:-}" ] || rm -rf "$PGB_DIR"
}

log "building the binaries"
mkdir -p "$STACK_RUN/bin"
go build -o "$STACK_RUN/bin/" ./cmd/...
STACK_BIN=$STACK_RUN/bin

# pgbouncer_start: PgBouncer in front of TEST_DATABASE_URL's server
# (scripts/pgbouncer.sh), any database name passed through.
pgbouncer_start() {
  local host port
  read -r host port PGB_USER < <(python3 -c 'import sys, urllib.parse as u
p = u.urlparse(sys.argv[1]); print(p.hostname or "127.0.0.1", p.port or 5432, p.username or "postgres")' "$STACK_ADMIN_URL")
  PGB_DIR=$(mktemp -d /tmp/chapar-pgbouncer.XXXXXX)
  PGB_PORT=$(stack_free_ports 1)
  pgbouncer_ini "$PGB_DIR" 127.0.0.1 "$PGB_PORT" "$host" "$port" "$PGB_USER" "${POOLER_POOL_SIZE:-20}"
  # shellcheck disable=SC2046 # the command's words
  $(pgbouncer_cmd "$PGB_DIR") >"$STACK_RUN/pgbouncer.log" 2>&1 &
  PGB_PID=$!
  pgbouncer_wait "postgres://$PGB_USER@127.0.0.1:$PGB_PORT/postgres?sslmode=disable" ||
    { cat "$STACK_RUN/pgbouncer.log" >&2; return 1; }
  log "PgBouncer $("$PGBOUNCER" --version | head -n1 | awk '{print $2}') on 127.0.0.1:$PGB_PORT, transaction pooling, ${POOLER_POOL_SIZE:-20} server connections per database"
}

# through_pgbouncer: the processes reach the database through PgBouncer, and
# straight for migrations and the worker's session locks.
through_pgbouncer() {
  export DATABASE_URL="postgres://$PGB_USER@127.0.0.1:$PGB_PORT/$STACK_DB?sslmode=disable"
  export DATABASE_POOLER=pgbouncer DATABASE_DIRECT_URL=$DIRECT_URL
}

psql_db() { psql "$DIRECT_URL" -XAtqc "$1"; }

# send_n N: N recipients in sends of 1,000 as the demo account; prints the send ids.
send_n() {
  local n=$1 sent=0 chunk token api="http://$HTTP_ADDR/v1/api"
  token=$(curl -fsS --max-time 30 -H 'Content-Type: application/json' \
    -d '{"username":"demo","password":"Demo@12345"}' "$api/acl/auth/login" | jq -r .data.token)
  [ -n "$token" ] && [ "$token" != null ] || { echo "demo login failed" >&2; return 1; }
  while [ "$sent" -lt "$n" ]; do
    chunk=$(( n - sent < 1000 ? n - sent : 1000 ))
    jq -cn --argjson from "$sent" --argjson k "$chunk" --arg text "آزمون از پشت PgBouncer" \
      '{text: $text, numbers: [range($from; $from + $k) | "0912" + ("0000000" + tostring)[-7:]]}' |
      curl -fsS --max-time 120 -H "Authorization: Bearer $token" -H 'Content-Type: application/json' -d @- "$api/send" |
      jq -r .data.id
    sent=$(( sent + chunk ))
  done
}

# wait_final IDS N: until the sends' N recipients are all final (a receipt, or refused).
wait_final() {
  local ids=$1 n=$2 final=0 deadline=$((SECONDS + 900))
  while ((SECONDS < deadline)); do
    final=$(psql_db "SELECT count(*) FROM recipients WHERE send_id = ANY('{$ids}') AND status IN (2, 3, 4, 6)")
    [ "$final" -ge "$n" ] && return 0
    sleep 0.5
  done
  echo "only $final of $n recipients final" >&2
  return 1
}

# check IDS N ACCEPTED_BEFORE: exactly once at the carrier, the ledger exact.
check() {
  local ids=$1 n=$2 before=$3 stats accepted dups ledger wallet
  stats=$(curl -fsS "http://$SIM_HTTP_ADDR/stats")
  accepted=$(( $(jq .total.accepted <<<"$stats") - before ))
  dups=$(jq .duplicates <<<"$stats")
  ledger=$(psql_db "SELECT coalesce(sum((SELECT -coalesce(sum(amount), 0) FROM ledger WHERE send_id = s.id)
      - (SELECT coalesce(sum(cost), 0) FROM recipients WHERE send_id = s.id AND status IN (0, 1, 2, 3))), 0)
    FROM sends s WHERE s.id = ANY('{$ids}')")
  wallet=$(psql_db "SELECT w.balance - (SELECT sum(amount) FROM ledger l WHERE l.account_id = w.account_id)
    FROM wallets w JOIN users u ON u.account_id = w.account_id WHERE u.username = 'demo'")
  log "$n recipients final; the simulator accepted $accepted submit_sm, $dups duplicates; ledger minus cost $ledger; wallet minus ledger $wallet"
  [ "$accepted" -eq "$n" ] && [ "$dups" -eq 0 ] && [ "$ledger" -eq 0 ] && [ "$wallet" -eq 0 ] ||
    { echo "pooler: FAILED" >&2; return 1; }
}

# run_send N: one checked send of N recipients; its wall seconds go to $STACK_RUN/secs.
run_send() {
  local n=$1 before ids t0
  before=$(curl -fsS "http://$SIM_HTTP_ADDR/stats" | jq .total.accepted)
  t0=$EPOCHREALTIME
  ids=$(send_n "$n" | paste -sd, -)
  wait_final "$ids" "$n"
  awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f\n", b - a }' >"$STACK_RUN/secs"
  check "$ids" "$n" "$before"
}

export BANK_SIZE=${BANK_SIZE:-1000} # the number bank is not what this test is about
stack_start_redis
pgbouncer_start
DIRECT_URL=$DATABASE_URL
through_pgbouncer
stack_prepare_db
# Behind PgBouncer the processes cannot send jit=off at connection (docs/scaling.md).
psql "$STACK_ADMIN_URL" -Xqc "ALTER DATABASE $STACK_DB SET jit = off" >/dev/null
"$STACK_BIN/api" admin credit demo $(( N * 2000 )) >/dev/null
stack_start_all
log "sending $N recipients through PgBouncer"
run_send "$N"
log "pooler: $N recipients in $(cat "$STACK_RUN/secs") s, every one final, each submitted once, the ledger exact"
servers=$(psql_db "SELECT count(*) FROM pg_stat_activity WHERE datname = '$STACK_DB' AND client_addr IS NOT NULL")
log "server connections to the database now: $servers (PgBouncer's and the direct pools')"

if [ -n "$GO_TESTS" ]; then
  log "Go integration tests through PgBouncer: $GO_TESTS"
  # shellcheck disable=SC2086 # a package list
  TEST_POOLER_URL="postgres://$PGB_USER@127.0.0.1:$PGB_PORT/postgres?sslmode=disable" \
    go test -count=1 -timeout 30m -run "${GO_RUN:-.}" $GO_TESTS
fi
log "pooler: passed"

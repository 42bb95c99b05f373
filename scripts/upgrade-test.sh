#!/usr/bin/env bash
# The rolling-upgrade test (`make upgrade-test`, docs/upgrades.md; `make test` runs it
# with UPGRADE_N=5000: 3 to 5 minutes, most of it the two builds; the first run on a
# machine builds the previous release from scratch, several minutes more).
# It builds the previous release's binaries (deploy/previous-release) and this tree's,
# starts the previous release's stack on its own schema, starts a send of UPGRADE_N
# recipients through its API, and meanwhile applies this tree's migrations (the schema
# expands under the serving release), then rolls each process to the new binary, one
# at a time (gateway, worker, API: TERM, then start the new one), sends UPGRADE_N/10
# more through the new API, and waits for every recipient. It fails unless every
# recipient is final, the carrier simulator accepted each number exactly once (no
# duplicate submit_sm, one per recipient), and the ledger took exactly the cost of what
# was submitted. UPGRADE_N defaults to 100,000 (about 12 minutes on a busy 2-core machine).
# KEEP_STACK_LOGS=1 keeps the processes' logs.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/toolchain.sh
set -a; . ./.data/env; set +a
. scripts/stack.sh

UPGRADE_N=${UPGRADE_N:-100000}
UPGRADE_M=$((UPGRADE_N / 10)) # the second send, through the new API
# The gateway's submit rate per bind: three operators' binds take at least 90 s over
# the send on any machine, so the processes are rolled while it is in flight.
UPGRADE_TPS=${UPGRADE_TPS:-$(((UPGRADE_N + 215) / 216))}
# A safety net against a hang, not a speed bound: generous for a machine at load 10.
UPGRADE_TIMEOUT=${UPGRADE_TIMEOUT:-$((1800 + UPGRADE_N / 20))}
PREV_COMMIT=$(sed -n 's/^commit=//p' deploy/previous-release)
PREV_MIGRATION=$(sed -n 's/^migration=//p' deploy/previous-release)

log() { printf '%s upgrade: %s\n' "$(date +%T)" "$*"; }
fail() { log "FAILED: $*" >&2; for p in smpp-gateway worker api; do tail -n 15 "$STACK_RUN/$p.log" >&2 2>/dev/null || true; done; exit 1; }
sql() { psql "$DATABASE_URL" -Atc "$1"; }
sim() { curl -fsS --max-time 10 "http://$SIM_HTTP_ADDR$1"; }

stack_init upgrade
trap stack_cleanup EXIT
OLD=$STACK_RUN/old NEW=$STACK_RUN/new

# build_both: the previous release from `git archive` (its web/dist holds only .keep,
# which is all cmd/api's embed needs: the panel is not this test's) and this tree.
build_both() {
  git cat-file -e "$PREV_COMMIT^{commit}" || fail "the previous release $PREV_COMMIT is not in this clone (git fetch)"
  mkdir -p "$OLD/src"
  git archive "$PREV_COMMIT" | tar -x -C "$OLD/src"
  local have; have=$(find "$OLD/src/migrations" -name '*.up.sql' -printf '%f\n' | sort | tail -n 1)
  [ "${have%%_*}" -eq "$PREV_MIGRATION" ] ||
    fail "deploy/previous-release says migration $PREV_MIGRATION, its commit's newest is $have"
  log "building the previous release ${PREV_COMMIT:0:12} and this tree"
  # -trimpath: the build cache keys the previous release's packages by content, not by
  # this run's temporary directory, so later runs find them built.
  (cd "$OLD/src" && go build -trimpath -o "$OLD/" ./cmd/api ./cmd/worker ./cmd/smpp-gateway ./cmd/smsc-sim)
  go build -o "$NEW/" ./cmd/api ./cmd/worker ./cmd/smpp-gateway
}

# wait_for WHAT CMD…: until CMD succeeds, within the safety net.
wait_for() {
  local what=$1 deadline=$((SECONDS + UPGRADE_TIMEOUT)); shift
  until "$@" >/dev/null 2>&1; do
    ((SECONDS < deadline)) || fail "no $what after ${UPGRADE_TIMEOUT}s"
    sleep 0.5
  done
}

gateway_bound() { # the gateway serves its status and holds a bind of each carrier
  curl -fsS --max-time 5 "http://$GATEWAY_HTTP_ADDR/status" |
    jq -e '[.binds[] | select(.bound and .operator != "sandbox") | .operator] | unique | length == 3'
}
worker_up() { curl -fsS --max-time 5 "http://${STACK_METRICS[worker]}/metrics"; }

# login: a bearer token of the demo owner at the running API.
login() {
  curl -fsS --max-time 30 -H 'Content-Type: application/json' -d '{"username":"demo","password":"Demo@12345"}' \
    "http://$HTTP_ADDR/v1/api/acl/auth/login" | jq -r .data.token
}

# send N OFFSET TEXT: a quick send of N distinct numbers (from the OFFSETth on, over
# the three carriers) through the running API; prints its id.
send() {
  python3 - "$1" "$2" "$3" >"$STACK_RUN/send.json" <<'PY'
import json, sys
n, off, text = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
pre = ["0912", "0935", "0921"]
print(json.dumps({"type": "quick", "sender": "500012345", "cancel11": False, "text": text,
                  "numbers": [f"{pre[i % 3]}{(i * 7919) % 10_000_000:07d}" for i in range(off, off + n)]}, ensure_ascii=False))
PY
  curl -fsS --max-time 300 -H "Authorization: Bearer $(login)" -H 'Content-Type: application/json' \
    --data-binary @"$STACK_RUN/send.json" "http://$HTTP_ADDR/v1/api/send" | jq -r .data.id
}

# final SEND: how many of the send's recipients have their final state.
final() { sql "SELECT count(*) FROM recipients WHERE send_id = $1 AND status IN (2, 3, 4, 6) AND error <> 'no-receipt'"; }
progress() { log "$1: send $S1 has $(final "$S1") of $UPGRADE_N recipients final"; }
at_least() { [ "$(final "$1")" -ge "$2" ]; }
# send_done SEND: the send is finalised (read at each try of wait_for: a status read
# once, when wait_for was called, waited out the whole time-out for a send the
# finaliser closed a moment later).
send_done() { [ "$(sql "SELECT status FROM sends WHERE id = $1")" = done ]; }

# roll NAME CMD…: stop the previous release's process (TERM, it drains; its log is
# kept as NAME.old.log) and start the new one.
roll() {
  local name=$1; shift
  progress "rolling the $name"
  stack_stop "$name"
  mv "$STACK_RUN/$name.log" "$STACK_RUN/$name.old.log"
  stack_start "$name" "$@"
}

# mixed: the versions side by side move the first send on (more recipients final
# than when the last process was rolled), unless it is already complete.
mixed() {
  local now; now=$(final "$S1")
  wait_for "progress of send $S1 with $1" at_least "$S1" $((now + UPGRADE_N / 50 < UPGRADE_N ? now + UPGRADE_N / 50 : UPGRADE_N))
}

# check SEND N: every recipient final, the ledger exact (what it took for the send is
# the cost of the recipients submitted), the send done.
check() {
  local id=$1 n=$2 got fin ledger status
  got=$(sql "SELECT count(*) FROM recipients WHERE send_id = $id")
  fin=$(final "$id")
  ledger=$(sql "SELECT (SELECT -coalesce(sum(amount), 0) FROM ledger WHERE send_id = $id)
    - (SELECT coalesce(sum(cost), 0) FROM recipients WHERE send_id = $id AND status IN (0, 1, 2, 3))")
  status=$(sql "SELECT status FROM sends WHERE id = $id")
  log "send $id: $got recipients, $fin final, ledger difference $ledger, status $status"
  [ "$got" -eq "$n" ] && [ "$fin" -eq "$n" ] && [ "$ledger" -eq 0 ] && [ "$status" = done ] ||
    fail "send $id: want $n recipients all final, ledger difference 0, status done"
}

build_both
stack_start_redis
export SIM_RECEIPT_DELAY_MS=100-800 BANK_SIZE=2000 GATEWAY_TPS=$UPGRADE_TPS
STACK_BIN=$OLD LOG_LEVEL=warn stack_prepare_db
[ "$(sql 'SELECT max(version) FROM schema_migrations')" -eq "$PREV_MIGRATION" ] || fail "the previous release's schema is not at $PREV_MIGRATION"
"$OLD/api" admin credit demo $(((UPGRADE_N + UPGRADE_M) * 2000)) >/dev/null
# The carrier simulator (the previous release's) runs throughout: its counters span the upgrade.
stack_start smsc-sim "$OLD/smsc-sim"
stack_start smpp-gateway "$OLD/smpp-gateway"
stack_start worker "$OLD/worker"
stack_start api "$OLD/api" serve
stack_wait_ready 300
accepted0=$(sim /stats | jq .total.accepted) dups0=$(sim /stats | jq .duplicates)

log "the previous release serves; a send of $UPGRADE_N recipients (gateway at $UPGRADE_TPS submit_sm/s per bind)"
S1=$(send "$UPGRADE_N" 0 "چاپار: آزمون ارتقا، نسخهٔ پیشین")
[ -n "$S1" ] && [ "$S1" != null ] || fail "the previous release's API did not accept the send"
wait_for "progress of send $S1" at_least "$S1" $((UPGRADE_N / 20))
progress "the schema expands under the previous release"
LOG_LEVEL=warn "$NEW/api" migrate up
[ "$(sql 'SELECT max(version) FROM schema_migrations')" -gt "$PREV_MIGRATION" ] || fail "the new migrations did not apply"
# A database that sends already claims as the previous release does until every
# process is the new release's (migrations/0198).
[ "$(LOG_LEVEL=warn "$NEW/api" admin claim-mode)" = "claim mode: rows" ] || fail "the upgraded database is not in the rows claim mode"
# Likewise the message ids go to message_ids too, which the previous release's
# workers read (migrations/0199).
[ "$(LOG_LEVEL=warn "$NEW/api" admin id-store)" = "id store: table" ] || fail "the upgraded database is not in the table id store"
# And the gateways write the inbound stream one field a value, as the previous
# release's workers read it (migrations/0201).
[ "$(LOG_LEVEL=warn "$NEW/api" admin inbound-format)" = "inbound format: fields" ] || fail "the upgraded database does not write inbound fields"

mixed "the new schema"
roll smpp-gateway "$NEW/smpp-gateway"
wait_for "bound new gateway" gateway_bound
mixed "the new gateway"
roll worker "$NEW/worker"
wait_for "new worker" worker_up
mixed "the new gateway and worker"
roll api "$NEW/api" serve
stack_wait_ready 300
progress "every process is the new release's"
# The operator's last steps (docs/upgrades.md): claims in ranges, message ids in
# Redis and packed inbound entries, while the send runs.
LOG_LEVEL=warn "$NEW/api" admin claim-mode ranges >/dev/null || fail "admin claim-mode ranges"
mixed "range claims"
LOG_LEVEL=warn "$NEW/api" admin id-store redis >/dev/null || fail "admin id-store redis"
mixed "message ids in Redis"
LOG_LEVEL=warn "$NEW/api" admin inbound-format packed >/dev/null || fail "admin inbound-format packed"
mixed "packed inbound entries"

S2=$(send "$UPGRADE_M" "$UPGRADE_N" "چاپار: آزمون ارتقا، نسخهٔ نو")
[ -n "$S2" ] && [ "$S2" != null ] || fail "the new API did not accept the send"
log "a send of $UPGRADE_M more through the new API: $S2"
wait_for "final recipients of send $S1" at_least "$S1" "$UPGRADE_N"
wait_for "final recipients of send $S2" at_least "$S2" "$UPGRADE_M"
# The sends are done once finalised (the refund of what was not submitted).
wait_for "send $S1 done" send_done "$S1"
wait_for "send $S2 done" send_done "$S2"
check "$S1" "$UPGRADE_N"
check "$S2" "$UPGRADE_M"

accepted=$(($(sim /stats | jq .total.accepted) - accepted0)) dups=$(($(sim /stats | jq .duplicates) - dups0))
submitted=$(sql "SELECT count(*) FROM recipients WHERE send_id IN ($S1, $S2) AND status IN (0, 1, 2, 3)")
log "the carrier accepted $accepted submit_sm for $submitted submitted recipients, $dups duplicates"
[ "$dups" -eq 0 ] && [ "$accepted" -eq "$submitted" ] && [ "$submitted" -eq $((UPGRADE_N + UPGRADE_M)) ] ||
  fail "want each of the $((UPGRADE_N + UPGRADE_M)) numbers submitted exactly once"
log "passed: 0 lost, 0 duplicates, the ledger exact"

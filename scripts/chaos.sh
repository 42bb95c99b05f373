# The chaos suite (`make chaos`, docs/chaos.md), sourced by scripts/testbed.sh for
# its `chaos` command: on a bed of 2 api/worker/gateway pairs, one send of N
# recipients per fault (CHAOS_N, 100,000), the fault injected once a third of it
# is delivered, then every recipient awaited. Each fault prints a row: recipients,
# lost (never final), duplicate submit_sm at the carrier, unknown outcomes (sent,
# no receipt: the sweeper's "no-receipt"), the ledger's difference from the cost
# of what was submitted (must be 0) and the seconds from the fault to the last
# recipient final. The suite fails when any row loses a recipient, submits one
# twice or misses a rial. The bed runs with the sweeper's thresholds shortened
# (TESTBED_EXTRA_ENV, set by `make chaos`), so that what a fault leaves unknown is
# settled in a minute rather than the production 48 hours.
# With PostgreSQL under Patroni (TESTBED_PG=patroni) the faults of the database
# are the primary's host killed and a switchover (in place of a restart), and
# their rows are followed by the seconds to the first write accepted again.

CHAOS_FAULTS=${CHAOS_FAULTS:-"none kill-worker kill-gateway restart-redis $([ "${TESTBED_REDIS:-}" = sentinel ] && echo failover-redis) binds-down throttle slow-carrier $(patroni_on && echo kill-postgres-primary switchover || echo restart-postgres) duplicate-tasks clock-jump"}
CHAOS_TIMEOUT=${CHAOS_TIMEOUT:-600}
CHAOS_SETTLE=${CHAOS_SETTLE:-30}

# mono: seconds since boot (the clock-jump fault moves the wall clock, not this).
mono() { cut -d' ' -f1 /proc/uptime; }
secs() { local m; m=$(mono); echo "${m%.*}"; }

sim_url() { echo "http://$(host_ip sim):2780"; }
sim_post() { curl -fsS --max-time 10 -H 'Content-Type: application/json' -d "$2" "$(sim_url)$1" >/dev/null; }
sim_dups() { curl -fsS --max-time 10 "$(sim_url)/stats" | jq .duplicates; }

# chaos_token: the demo owner's token at app1's API.
chaos_token() {
  curl -fsS --max-time 10 -H 'Content-Type: application/json' -d '{"username":"demo","password":"Demo@12345"}' \
    "http://$(host_ip app1):8080/v1/api/acl/auth/login" | jq -r .data.token
}

# chaos_send N TOKEN: one quick send of N numbers through app1's API; prints its id.
chaos_send() {
  python3 - "$1" "$RANDOM" >"$TESTBED_DIR/chaos.json" <<'PY'
import json, sys
n, salt = int(sys.argv[1]), int(sys.argv[2])
pre = ["0912", "0935", "0921"]
print(json.dumps({"type": "quick", "sender": "500012345", "cancel11": False, "text": "چاپار: آزمون آشوب %d" % salt,
                  "numbers": [f"{pre[i % 3]}{(i * 7919 + salt) % 10_000_000:07d}" for i in range(n)]}, ensure_ascii=False))
PY
  curl -fsS --max-time 120 -H "Authorization: Bearer $2" -H 'Content-Type: application/json' \
    --data-binary @"$TESTBED_DIR/chaos.json" "http://$(host_ip app1):8080/v1/api/send" | jq -r .data.id
}

# chaos_counts SEND: "final settled unknown total" of the send's recipients: final
# with a receipt (or blacklisted, or never submitted and refunded), settled = no
# longer queued or at a gateway, unknown = submitted without a final receipt
# (status 0 or 1) or given up by the sweeper ("no-receipt").
chaos_counts() {
  psql_db "SELECT count(*) FILTER (WHERE status IN (2, 3, 4, 6) AND error <> 'no-receipt'),
    count(*) FILTER (WHERE status NOT IN (5, 7)),
    count(*) FILTER (WHERE status IN (0, 1) OR error = 'no-receipt'), count(*)
    FROM recipients WHERE send_id = $1" | tr '|' ' '
}

# chaos_ledger SEND: what the ledger took for the send minus the cost of the
# recipients that were submitted (0 when exact).
chaos_ledger() {
  psql_db "SELECT (SELECT -coalesce(sum(amount), 0) FROM ledger WHERE send_id = $1)
    - (SELECT coalesce(sum(cost), 0) FROM recipients WHERE send_id = $1 AND status IN (0, 1, 2, 3))"
}

# restart_proc NAME HOST BIN [ARGS]: SIGKILL a bed process, start it again after a pause.
restart_proc() {
  local name=$1 h=$2 pause=$3; shift 3
  kill -9 "$(cat "$TESTBED_DIR/$name.pid")" 2>/dev/null || true
  sleep "$pause"
  # shellcheck disable=SC2046
  start "$name" "$h" env $(app_env "${h#app}") "$@"
}

# inject FAULT: the fault, done once the send is a third delivered.
inject() {
  case $1 in
  none) ;;
  kill-worker) restart_proc worker1 app1 3 "$ROOT/bin/worker" ;;
  kill-gateway) # restarted 2 s later, as a supervisor would: it reads its predecessor's
    # start journal (GATEWAY_JOURNAL_DIR of app1) before the sweeper takes the claims over
    restart_proc gateway1 app1 2 "$ROOT/bin/smpp-gateway" ;;
  restart-redis) restart_redis_master ;;
  failover-redis) redis-cli -h "$(host_ip db)" -p 26379 sentinel failover chapar >/dev/null ;;
  clock-jump) # every host's wall clock 45 s ahead (past asynq's task leases and
    # the bed's sweeper thresholds); heal puts it back. The scheduler is probed too.
    scheduler_probe
    date -s '+45 seconds' >/dev/null ;;
  duplicate-tasks) # every unfinished batch enqueued twice more, under new task ids
    # shellcheck disable=SC2046
    on app1 env $(app_env 1) "$ROOT/bin/api" admin requeue "$CHAOS_SEND" >&2
    # shellcheck disable=SC2046
    on app2 env $(app_env 2) "$ROOT/bin/api" admin requeue "$CHAOS_SEND" >&2 ;;
  binds-down) sim_post /control/disconnect '{"operator":"*","down_ms":10000}' ;;
  throttle) sim_post /control/carrier '{"operator":"*","rate":400}' ;;
  slow-carrier) sim_post /control/carrier '{"operator":"*","delay_ms":5000}' ;;
  kill-postgres-primary) # the primary's host loses power: Patroni and PostgreSQL SIGKILLed
    kill_host "$PG_OLD" ;;
  switchover) patronictl_bed switchover --leader "$PG_OLD" --candidate "$PG_SYNC" --force >/dev/null ;;
  restart-postgres)
    on db runuser -u postgres -- "$(pg_bin pg_ctl)" -D "$TESTBED_DIR/pg" -l "$TESTBED_DIR/pg/postgres.log" -w -m fast restart >/dev/null ;;
  *) echo "unknown fault $1" >&2; return 1 ;;
  esac
}

# heal FAULT: undo a fault that lasts (the carrier's conditions) after 15 s.
heal() {
  case $1 in
  throttle | slow-carrier) sleep 15; sim_post /control/carrier '{"operator":"*"}' ;;
  clock-jump) sleep 15; date -s '-45 seconds' >/dev/null ;;
  kill-postgres-primary) # the host back once another member leads, as after a reboot:
    # its Patroni rewinds it when it must and it rejoins as a standby
    wait_leader_not "$PG_OLD" >/dev/null && start_patroni "$PG_OLD" ;;
  esac
}

# chaos_fault FAULT N: one row of the table.
chaos_fault() {
  local fault=$1 n=$2 token id dups0 t0 t1 c deadline healer probe=""
  token=$(chaos_token)
  dups0=$(sim_dups)
  id=$(chaos_send "$n" "$token")
  [ -n "$id" ] && [ "$id" != null ] || { echo "chaos: send not accepted" >&2; return 1; }
  CHAOS_SEND=$id CHAOS_FAULT=$fault
  deadline=$(( $(secs) + CHAOS_TIMEOUT ))
  while read -r fin _ _ _ <<<"$(chaos_counts "$id")"; [ "$fin" -lt $(( n / 3 )) ]; do
    [ "$(secs)" -lt "$deadline" ] || break
    sleep 0.5
  done
  case $fault in kill-postgres-primary | switchover)
    PG_OLD=$(patroni_leader) PG_SYNC=$(patroni_sync_standby) ;;
  esac
  t0=$(mono)
  case $fault in kill-postgres-primary | switchover) write_probe "$t0" & probe=$! ;; esac
  inject "$fault"
  heal "$fault" &
  healer=$!
  # Until every recipient has its final receipt, or all are settled and no
  # receipt has come for CHAOS_SETTLE seconds (what is left is unknown). The
  # recovery ends at the last change seen, not when that wait ran out.
  local prev=-1 still=0
  t1=$t0
  while c=$(chaos_counts "$id" 2>/dev/null) || c="0 0 0 0"; read -r fin set _ tot <<<"$c"; [ "$tot" -lt "$n" ] || [ "$fin" -lt "$tot" ]; do
    [ "$(secs)" -lt "$deadline" ] || break
    if [ "$set" -eq "$tot" ] && [ "$fin $set" = "$prev" ]; then
      still=$(( still + 1 )); [ "$still" -lt "$CHAOS_SETTLE" ] || break
    else
      still=0 t1=$(mono)
    fi
    prev="$fin $set"
    sleep 1
  done
  [ "$fin" -lt "$tot" ] || t1=$(mono)
  wait "$healer" # not the processes a fault restarted
  read -r fin set unk tot <<<"$(chaos_counts "$id")"
  local lost=$(( n - set )) dups=$(( $(sim_dups) - dups0 )) ledger
  ledger=$(chaos_ledger "$id")
  printf '| %s | %d | %d | %d | %d (%s%%) | %s | %.1f |\n' "$fault" "$n" "$lost" "$dups" "$unk" \
    "$(awk -v u="$unk" -v n="$n" 'BEGIN { printf "%.2f", 100 * u / n }')" "$ledger" \
    "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" | tee -a "$TESTBED_DIR/chaos.md"
  local ok=0
  [ -z "$probe" ] || pg_fault_report "$fault" "$t0" "$t1" "$probe" || ok=1
  [ "$lost" -eq 0 ] && [ "$dups" -eq 0 ] && [ "$ledger" -eq 0 ] && [ "$ok" = 0 ] || return 1
  [ "$fault" != clock-jump ] || scheduler_check
}

# write_probe T0: from the fault on, a one-row INSERT through the apps' URL from
# app1 every 0.2 s, each attempt a line "seconds-since-T0 ok|fail [host]" in
# $TESTBED_DIR/write-probe-FAULT.txt, until one is accepted after one was refused (or
# none was refused for 120 s, or CHAOS_TIMEOUT).
write_probe() {
  local t0=$1 out failed=0 f=$TESTBED_DIR/write-probe-$CHAOS_FAULT.txt deadline=$(( $(secs) + CHAOS_TIMEOUT )) calm=$(( $(secs) + 120 ))
  : >"$f"
  while [ "$(secs)" -lt "$deadline" ] && { [ "$failed" = 1 ] || [ "$(secs)" -lt "$calm" ]; }; do
    if out=$(PGOPTIONS='-c statement_timeout=5s' on app1 timeout -k 1 10 psql "$(pg_conninfo)" -Atqc "INSERT INTO chaos_write_probe DEFAULT VALUES RETURNING inet_server_addr()" 2>/dev/null); then
      echo "$(awk -v a="$t0" -v b="$(mono)" 'BEGIN { printf "%.1f", b - a }') ok $out" >>"$f"
      [ "$failed" = 0 ] || return 0
    else
      echo "$(awk -v a="$t0" -v b="$(mono)" 'BEGIN { printf "%.1f", b - a }') fail" >>"$f"
      failed=1
    fi
    sleep 0.2
  done
}

# pg_fault_report FAULT T0 T1 PROBE: after a fault of the primary, a line: the
# old and the new primary, the seconds from the fault to the first write
# accepted again (and how long writes were refused) and to the send's last
# recipient settled, whether every app process lived through it and whether the
# cluster has a synchronous standby again. Fails when a write was never accepted
# again or an app process died.
pg_fault_report() {
  local fault=$1 t0=$2 t1=$3 probe=$4 first gap alive=0 all=0 f _ sync=no
  wait "$probe" || true
  # The first write accepted after one was refused, and how long writes were
  # refused (from the last accepted before the first refusal).
  read -r first gap <<<"$(awk '$2 == "ok" && !failed { last = $1 } $2 == "fail" { failed = 1 }
    failed && $2 == "ok" { print $1, $1 - last; done = 1; exit }
    END { if (!failed) print "0 0"; else if (!done) print "" }' "$TESTBED_DIR/write-probe-$fault.txt")"
  for f in "$TESTBED_DIR"/api*.pid "$TESTBED_DIR"/worker*.pid "$TESTBED_DIR"/gateway*.pid; do
    all=$(( all + 1 ))
    ! kill -0 "$(cat "$f")" 2>/dev/null || alive=$(( alive + 1 ))
  done
  for _ in $(seq 240); do patroni_ready && { sync=yes; break; }; sleep 0.5; done
  echo "  $fault: primary $PG_OLD → $(patroni_leader); first write accepted ${first:-never} s after the fault (writes refused for ${gap:-ever} s)," \
    "the send complete $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s after; app processes alive $alive of $all;" \
    "synchronous standby again: $sync" | tee -a "$TESTBED_DIR/chaos.md"
  [ -n "$first" ] && [ "$alive" -eq "$all" ]
}

# scheduler_probe: before the clock jumps, a scheduled send of 10 numbers due in
# 30 s (made for 6 minutes ahead, the API's least, then brought forward in the
# database) and a campaign that runs every minute, both as the demo owner.
scheduler_probe() {
  local token at
  token=$(chaos_token)
  at=$(date -u -d '+6 minutes' +%Y-%m-%dT%H:%M:%SZ)
  PROBE_SEND=$(jq -cn --arg at "$at" '{type: "quick", sender: "500012345", text: "چاپار: آزمون زمان‌بندی", send_at: $at,
      numbers: [range(0; 10) | "0912555" + ("0000" + tostring)[-4:]]}' |
    curl -fsS --max-time 30 -H "Authorization: Bearer $token" -H 'Content-Type: application/json' -d @- \
      "http://$(host_ip app1):8080/v1/api/send" | jq -r .data.id)
  psql_db "UPDATE sends SET send_at = now() + interval '30 seconds' WHERE id = $PROBE_SEND" >/dev/null
  PROBE_CAMPAIGN=$(jq -cn '{title: "آزمون ساعت", type: "quick", sender: "500012345", text: "چاپار: هر دقیقه",
      numbers: ["09125559999"], schedule: {kind: "cron", cron: "* * * * *"}}' |
    curl -fsS --max-time 30 -H "Authorization: Bearer $token" -H 'Content-Type: application/json' -d @- \
      "http://$(host_ip app1):8080/v1/api/send/campaigns" | jq -r .data.id)
  PROBE_T0=$(mono)
}

# scheduler_check: after the jumps, the scheduled send went out exactly once (its
# 10 recipients, each submitted once: the simulator's duplicate count is checked
# by the row) and the campaign ran no more often than minutes passed, counted on
# the monotonic clock, plus the one the jump brought forward. Prints a line; fails
# when either is wrong.
scheduler_check() {
  local rec st runs minutes
  read -r st rec <<<"$(psql_db "SELECT status, (SELECT count(*) FROM recipients WHERE send_id = $PROBE_SEND) FROM sends WHERE id = $PROBE_SEND" | tr '|' ' ')"
  runs=$(psql_db "SELECT count(*) FROM campaign_runs WHERE campaign_id = $PROBE_CAMPAIGN")
  psql_db "UPDATE campaigns SET enabled = false WHERE id = $PROBE_CAMPAIGN" >/dev/null
  minutes=$(awk -v a="$PROBE_T0" -v b="$(mono)" 'BEGIN { print int((b - a) / 60) + 2 }')
  echo "  clock-jump scheduler: scheduled send $PROBE_SEND $st with $rec recipients (want 10); campaign runs $runs (at most $minutes)" |
    tee -a "$TESTBED_DIR/chaos.md"
  [ "$rec" -eq 10 ] && [ "$st" != scheduled ] && [ "$runs" -ge 1 ] && [ "$runs" -le "$minutes" ]
}

# chaos N: every fault of CHAOS_FAULTS in turn; fails when a row does.
chaos() {
  local n=${1:-${CHAOS_N:-100000}} f ok=0
  : >"$TESTBED_DIR/chaos.md"
  # Credit for every send of the suite (about 300 rials a recipient, with room).
  # shellcheck disable=SC2046
  on app1 env $(app_env 1) "$ROOT/bin/api" admin credit demo $(( n * 8 * 1000 )) >/dev/null
  # The gateways' claim mode, id store and inbound format (docs/upgrades.md): a new
  # database's are ranges, redis and packed.
  # shellcheck disable=SC2046
  on app1 env $(app_env 1) "$ROOT/bin/api" admin claim-mode | tee -a "$TESTBED_DIR/chaos.md" >&2
  # shellcheck disable=SC2046
  on app1 env $(app_env 1) "$ROOT/bin/api" admin id-store | tee -a "$TESTBED_DIR/chaos.md" >&2
  # shellcheck disable=SC2046
  on app1 env $(app_env 1) "$ROOT/bin/api" admin inbound-format | tee -a "$TESTBED_DIR/chaos.md" >&2
  ! patroni_on || psql_db "SET client_min_messages = warning; CREATE TABLE IF NOT EXISTS chaos_write_probe (id bigserial PRIMARY KEY, at timestamptz NOT NULL DEFAULT now())" >/dev/null
  echo "| Fault | Recipients | Lost | Duplicate submit_sm | Unknown outcome | Ledger difference (rials) | Recovered in (s) |"
  echo "|---|---:|---:|---:|---:|---:|---:|"
  for f in $CHAOS_FAULTS; do
    chaos_fault "$f" "$n" || ok=1
  done
  return $ok
}

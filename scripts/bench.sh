#!/usr/bin/env bash
# `make bench`: benchmarks of the whole stack in the bench profile (simulator and
# binds unthrottled, immediate receipts). Starts the simulator, gateway, worker and
# API on private ports of 127.0.0.1 with a fresh database and a private Redis
# (scripts/stack.sh; the demo database is never touched), then measures, in order:
#
#   1. raw ceiling   pkg/smpp pipelining submit_sm to the simulator (internal/testing/loadgen
#                    BenchmarkSimulatorSubmit), before the gateway binds;
#   2. end to end    one quick send of BENCH_E2E_RECIPIENTS (100,000) numbers, from
#                    the POST until every receipt is applied (bulk_stats polled),
#                    with CPU seconds and peak RSS per process, and how busy the
#                    machine was before and after the send was expanded;
#   3. accept        POST /v1/api/send of 1,000 numbers per request under wrk
#                    (BENCH_CONNS=8 connections): requests/s, p50/p99/p99.9,
#                    a) BENCH_DURATION=20 s while the stack expands and sends what
#                       it accepts, b) BENCH_ALONE_DURATION=10 s with the worker,
#                       gateway and simulator paused (the accept path alone),
#                    c) run first: BENCH_INFLIGHT_SECS=8 s on BENCH_INFLIGHT_CONNS=4
#                       connections, each pausing BENCH_INFLIGHT_PAUSE_MS=250 ms
#                       between requests, while a send like part 2's is in flight
#                       (the posted sends scheduled an hour ahead), and that send's
#                       rate against the same send alone just before and after;
#   4. bulk          (run between 2 and 3) a BENCH_BULK_ROWS (1,000,000)-row xlsx
#                    campaign through the API: upload → parse → pre-flight → accept
#                    → every receipt applied, phase times and peak RSS; then the
#                    same rows as csv, parsed only (scripts/bench-bulk.sh);
#   5. one-time codes (scripts/bench-otp.sh) BENCH_OTP_N (1,000) codes through the
#                    API at 20/s, API answer → submit_sm, password-reset codes and
#                    OTP-pattern sends by API key (BENCH_OTP_KINDS): a) before part
#                    2 on the idle stack, b) during part 4's campaign.
#   6. webhooks      webhook delivery of 100,000 receipts and the API with the
#                    API-call log on vs off (scripts/bench-webhooks.sh, which runs
#                    alone too: bash scripts/bench-webhooks.sh [webhooks] [calllog]);
#   7. short links   the tracked-link redirect at about 1,000 requests/s under wrk,
#                    p50/p99 and API CPU per redirect (scripts/bench-links.sh, which
#                    runs alone too, on its own private stack);
#
#   8. number bank   a 10,000,000-number bank of targeted sends: seed time, then the
#                    counts of a province, a county, a city-sized polygon, a 5 km
#                    circle and 20 towers, p50/p99 and server CPU per count
#                    (scripts/bench-targeted.sh, which runs alone too);
#
#   9. inbox         a TV contest: BENCH_INBOX_N (10,000) MO in one burst, until
#                    every reply is submitted, worker CPU per MO and peak RSS
#                    (scripts/bench-inbox.sh; BENCH_ONLY=inbox only).
#
# BENCH_ENGINE_ONLY=1 stops after parts 1–5 (the engine's figures; parts 6–8 run
# on stacks of their own and take longest).
#
# BENCH_PPROF=1 saves CPU profiles of the gateway, worker and API during part 2
# (BENCH_PPROF_SECONDS, 8) to .data/bench/cpu-*.pprof (go tool pprof -top).
#
# BENCH_ONLY=otp runs part 5 alone (with part 4's campaign for 5b; BENCH_BULK_ROWS
# sizes it); BENCH_ONLY=inbox runs part 9 alone; BENCH_ONLY=e2e runs parts 1 and 2.
#
# prints the figures (also saved to .data/bench/), stops everything and cleans up.
# Every loop and wait is bounded; traffic goes to 127.0.0.1 only.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/toolchain.sh
set -a; . ./.data/env; set +a

E2E_N=${BENCH_E2E_RECIPIENTS:-100000}
E2E_TIMEOUT=${BENCH_E2E_TIMEOUT:-300}
E2E_STALL=${BENCH_E2E_STALL:-20}
CONNS=${BENCH_CONNS:-8}
INFLIGHT_CONNS=${BENCH_INFLIGHT_CONNS:-4}
INFLIGHT_PAUSE_MS=${BENCH_INFLIGHT_PAUSE_MS:-250}
INFLIGHT_SECS=${BENCH_INFLIGHT_SECS:-8}
THREADS=${BENCH_THREADS:-2}
DURATION=${BENCH_DURATION:-20}
ALONE=${BENCH_ALONE_DURATION:-10}
RAW_N=${BENCH_RAW_SUBMITS:-100000}
CREDIT=${BENCH_CREDIT:-20000000000} # rials: every send the accept run can make is paid for

log() { printf '[bench %s] %s\n' "$(date +%T)" "$*" >&2; }
now() { echo "$EPOCHREALTIME"; }
sub() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a - b }'; }

for b in api worker smpp-gateway smsc-sim; do
  [ -x "bin/$b" ] || { echo "bin/$b is missing: run 'make build'" >&2; exit 1; }
done
for t in curl jq python3 psql redis-server; do
  command -v "$t" >/dev/null || { echo "$t is missing (make services installs PostgreSQL and Redis)" >&2; exit 1; }
done
. scripts/apt.sh
command -v wrk >/dev/null || apt_install wrk

. scripts/stack.sh
STACK_STOP_TIMEOUT=15
stack_init bench
trap stack_cleanup EXIT
T_START=$(now)

# Private copies of the binaries (bin/ may be rebuilt while we run) and the loader.
mkdir -p "$STACK_RUN/bin"
cp bin/api bin/worker bin/smpp-gateway bin/smsc-sim "$STACK_RUN/bin/"
BIN=$STACK_RUN/bin STACK_BIN=$STACK_RUN/bin
log "compiling internal/testing/loadgen"
go test -c -o "$BIN/loadgen.test" ./internal/testing/loadgen

export CHAPAR_PROFILE=bench
export RATE_SEND_PER_MIN=${RATE_SEND_PER_MIN:-1000000} # the per-account limit (600/min) would answer 429
export GATEWAY_SHUTDOWN_TIMEOUT=5s
# Part 5: the simulator stores the system line's codes above its count-only cap,
# and the API's per-IP, per-number and per-key (20/s of pattern sends) limits do not answer 429.
export SIM_KEEP_FROM=${SIM_KEEP_FROM:-2000,500012345} RATE_LOGIN_IP_PER_MIN=${RATE_LOGIN_IP_PER_MIN:-1000000}
export RATE_API_KEY_PER_MIN=${RATE_API_KEY_PER_MIN:-1000000}
export RATE_OTP_SEND_PER_MIN=${RATE_OTP_SEND_PER_MIN:-1000000} RATE_OTP_NUMBER_PER_DAY=${RATE_OTP_NUMBER_PER_DAY:-1000000}
export RATE_REGISTER_IP_PER_HOUR=${RATE_REGISTER_IP_PER_HOUR:-1000000} RATE_OTP_CONFIRM_PER_MIN=${RATE_OTP_CONFIRM_PER_MIN:-1000000}
stack_start_redis
stack_prepare_db
"$BIN/api" admin credit demo "$CREDIT" >/dev/null

# ---- figures helpers -------------------------------------------------------
CLK=$(getconf CLK_TCK)
ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo 0; }
hwm() { awk '/^VmHWM/ { print $2 }' "/proc/$1/status" 2>/dev/null || echo 0; }
machine_busy() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat; }
# phase_busy NAME "TICKS TIME" "TICKS TIME": how busy the machine's cores were
# between two machine_busy readings (all processes, ours or not), and for how long.
phase_busy() {
  [ -n "$2" ] && [ -n "$3" ] || { echo "$1 ?"; return; }
  awk -v name="$1" -v a="$2" -v b="$3" -v clk="$CLK" -v ncpu="$(nproc)" 'BEGIN {
    split(a, x, " "); split(b, y, " "); w = y[2] - x[2]
    pct = (w > 0) ? 100 * (y[1] - x[1]) / clk / ncpu / w : 0
    printf "%s %.0f%% (%.2f s)", name, pct, w }'
}
PROCS=(api worker smpp-gateway smsc-sim redis)
# HOT_TABLES: the pg_stat_user_tables rows of the tables a recipient's path writes
# (recipients' partitions, message_ids, claims, pending receipts).
HOT_TABLES="relname IN ('message_ids', 'recipient_claims', 'pending_receipts') OR relname ~ '^recipients_(legacy|p[0-9]{6})$'"
# hot_writes: the rows inserted, updated and deleted so far in those tables.
hot_writes() {
  psql "$DATABASE_URL" -Atc "SELECT coalesce(sum(n_tup_ins + n_tup_upd + n_tup_del), 0) FROM pg_stat_user_tables WHERE $HOT_TABLES"
}
# hot_seq_reads FILE: the rows sequential scans have read so far in each table
# of the recipient's path ("table rows" lines, recipients' partitions as one). Their
# statements read by key: a large figure is a plan gone wrong (a plan cached while
# the table was nearly empty, see send.analyzeLoaded). recipient_claims holds only
# the live claims and is read whole by each claim.
hot_seq_reads() {
  psql "$DATABASE_URL" -AtF' ' -c "SELECT CASE WHEN relname ~ '^recipients_' THEN 'recipients' ELSE relname END, sum(seq_tup_read)
    FROM pg_stat_user_tables WHERE $HOT_TABLES GROUP BY 1 ORDER BY 1" >"$1"
}
# seq_reads_line BEFORE_FILE N: the rows those scans read since BEFORE_FILE, per recipient of N.
seq_reads_line() {
  hot_seq_reads "$1.after"
  awk -v n="$2" 'NR == FNR { b[$1] = $2; next }
    { printf "%s%s %.1f", sep, $1, ($2 - b[$1]) / n; sep = ", " }
    BEGIN { printf "rows read by sequential scans, per recipient: " }' "$1" "$1.after"
}
# snapshot FILE [reset]: "name pid ticks hwm_kb" lines; reset clears each VmHWM first.
snapshot() {
  local f=$1 reset=${2:-} n p
  : >"$f"
  for n in "${PROCS[@]}"; do
    p=${STACK_PID[$n]:-}
    [ -n "$p" ] && [ -d "/proc/$p" ] || continue
    if [ -n "$reset" ]; then { echo 5 >"/proc/$p/clear_refs"; } 2>/dev/null || true; fi
    echo "$n $p $(ticks "$p") $(hwm "$p")" >>"$f"
  done
  echo "machine 0 $(machine_busy) 0 $EPOCHREALTIME" >>"$f"
}
# PostgreSQL backends come and go (pgx closes a connection whose query is
# cancelled), so a sampler follows every backend of our database (found by its
# process title) every 0.25 s and sums what each used while it was seen; it
# keeps "postgres 0 ticks max_hwm_kb backends" up to date in its file.
cat >"$STACK_RUN/pgsample.py" <<'PY'
import os, signal, sys, time
db, out, limit = sys.argv[1].encode(), sys.argv[2], float(sys.argv[3])
base, last, hwm, stop, first = {}, {}, 0, False, True
def term(*_):
    global stop
    stop = True
signal.signal(signal.SIGTERM, term)
end = time.time() + limit
while True:
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmd = f.read()
            if not cmd.startswith(b"postgres: ") or b" " + db + b" " not in cmd:
                continue
            with open(f"/proc/{pid}/stat") as f:
                st = f.read()
            fl = st[st.rindex(")") + 2:].split()
            t = int(fl[11]) + int(fl[12])
            with open(f"/proc/{pid}/status") as f:
                h = next((int(l.split()[1]) for l in f if l.startswith("VmHWM")), 0)
        except (OSError, ValueError):
            continue
        if pid not in base:
            base[pid] = t if first else 0
        last[pid], hwm = t, max(hwm, h)
    first = False
    with open(out + ".tmp", "w") as f:
        f.write(f"postgres 0 {sum(last[p] - base[p] for p in last)} {hwm} {len(last)}\n")
    os.replace(out + ".tmp", out)
    if stop or time.time() > end:
        break
    time.sleep(0.25)
PY
pg_sampler_start() { python3 "$STACK_RUN/pgsample.py" "$STACK_DB" "$1" 900 & PG_SAMPLER=$!; sleep 0.3; }
pg_sampler_stop() { kill -TERM "$PG_SAMPLER" 2>/dev/null || true; wait "$PG_SAMPLER" 2>/dev/null || true; }
# usage BEFORE AFTER PGFILE: a table of CPU seconds and peak RSS per process.
usage() {
  awk -v clk="$CLK" -v ncpu="$(nproc)" '
    FILENAME == ARGV[1] { before[$1 " " $2] = $3; if ($1 == "machine") t0 = $5; next }
    FILENAME == ARGV[3] { cpu["postgres"] = $3; rss["postgres"] = $4; nb = $5; ours += $3; next }
    {
      d = $3 - (($1 " " $2) in before ? before[$1 " " $2] : 0)
      cpu[$1] += d; if ($4 > rss[$1]) rss[$1] = $4
      if ($1 != "machine") ours += d; else wall = $5 - t0
    }
    END {
      printf "    %-26s %9s %9s\n", "process", "CPU s", "peak RSS"
      n = split("api worker smpp-gateway smsc-sim redis postgres", order, " ")
      for (i = 1; i <= n; i++) {
        p = order[i]; if (!(p in cpu)) continue
        label = p == "postgres" ? sprintf("postgres (%d backends)", nb) : p
        rs = sprintf("%.0f MB%s", rss[p] / 1024, p == "postgres" ? "*" : "")
        printf "    %-26s %9.2f %9s\n", label, cpu[p] / clk, rs
      }
      printf "    %-26s %9.2f\n", "all of the above", ours / clk
      printf "    %-26s %9.2f   (%.0f%% of %d cores over %.1f s; the rest is other work on the machine)\n",
        "machine busy (all procs)", cpu["machine"] / clk, 100 * cpu["machine"] / clk / ncpu / wall, ncpu, wall
      printf "ours_ticks %d\n", ours > "/dev/stderr"
    }' "$1" "$2" "$3" 2>"$3.ours"
}
sim_total() { curl -fsS --max-time 10 "http://$SIM_HTTP_ADDR/stats" | jq -r ".total.$1"; }

OUT_DIR=.data/bench
mkdir -p "$OUT_DIR"
OUT=$OUT_DIR/bench-$(date -u +%Y%m%dT%H%M%SZ).txt
REPORT=$STACK_RUN/report.txt
say() { printf '%s\n' "$*" >>"$REPORT"; }
say "Chapar make bench — $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
say "  commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')$(git diff --quiet HEAD -- cmd pkg migrations 2>/dev/null || echo ' + uncommitted changes in cmd/pkg')"
say "  machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)"
say "  $(go version | cut -d' ' -f3), PostgreSQL $(psql "$DATABASE_URL" -Atc 'SHOW server_version' | cut -d' ' -f1) (shared server, own database), Redis $(redis-server --version | sed 's/.*v=\([^ ]*\).*/\1/') (private)"
say "  load before: $(cut -d' ' -f1-3 /proc/loadavg)"

# redis_line N: the private Redis' time in commands per recipient (INFO
# commandstats since the CONFIG RESETSTAT before part 2's send), the largest first.
redis_line() {
  redis-cli -p "$STACK_REDIS_PORT" INFO commandstats | tr -d '\r' | awk -F'[:,=]' -v n="$1" '
    /^cmdstat_/ { sub("cmdstat_", "", $1); us[$1] = $5; calls[$1] = $3; t += $5 }
    END { printf "Redis commands per recipient: %.1f µs", t / n
          k = 0; while (k < 6) { m = ""; for (c in us) if (m == "" || us[c] > us[m]) m = c; if (m == "") break
            printf "; %s %.2f µs (%.1f calls a 1,000)", m, us[m] / n, 1000 * calls[m] / n; delete us[m]; k++ } }'
}

# ---- 1. raw ceiling ---------------------------------------------------------
stack_start smsc-sim "$BIN/smsc-sim"
for _ in $(seq 50); do curl -fsS --max-time 10 "http://$SIM_HTTP_ADDR/healthz" >/dev/null 2>&1 && break; sleep 0.1; done
curl -fsS --max-time 10 "http://$SIM_HTTP_ADDR/healthz" >/dev/null || { echo "simulator did not start" >&2; tail "$STACK_RUN/smsc-sim.log" >&2; exit 1; }
if [ -z "${BENCH_ONLY:-}" ] || [ "${BENCH_ONLY:-}" = e2e ]; then
log "1 raw ceiling: $RAW_N pipelined submit_sm with receipts, window 100, 1 bind and 3 binds"
RAW_CMD="LOADGEN_SMSC=mci=…,irancell=…,rightel=… go test -run '^\$' -bench BenchmarkSimulatorSubmit -benchtime ${RAW_N}x ./internal/testing/loadgen"
LOADGEN_SMSC="mci=$STACK_SMPP_MCI,irancell=$STACK_SMPP_IRANCELL,rightel=$STACK_SMPP_RIGHTEL" \
  timeout 300 "$BIN/loadgen.test" -test.run '^$' -test.bench BenchmarkSimulatorSubmit \
  -test.benchtime "${RAW_N}x" -test.timeout 5m >"$STACK_RUN/raw.txt" 2>&1 || { cat "$STACK_RUN/raw.txt" >&2; exit 1; }
raw_metric() { awk -v b="$1" -v m="$2" '$1 ~ b { for (i = 2; i < NF; i++) if ($(i + 1) == m) print $i }' "$STACK_RUN/raw.txt"; }
RAW1=$(raw_metric 'binds=1' 'receipts/s'); RAW1S=$(raw_metric 'binds=1' 'submits/s')
RAW3=$(raw_metric 'binds=3' 'receipts/s'); RAW3S=$(raw_metric 'binds=3' 'submits/s')
say ""
say "1. Raw ceiling: pkg/smpp → simulator (bench profile), $RAW_N submit_sm each asking a receipt, window 100/bind"
say "   command: $RAW_CMD"
say "   1 bind (mci):  submit_sm_resp $(printf %.0f "$RAW1S")/s, with every receipt parsed and acked $(printf %.0f "$RAW1")/s"
say "   3 binds:       submit_sm_resp $(printf %.0f "$RAW3S")/s, with every receipt parsed and acked $(printf %.0f "$RAW3")/s"
say "   load: $(cut -d' ' -f1-3 /proc/loadavg)"
fi

# ---- the rest of the stack ----------------------------------------------------
# BENCH_PPROF=1: each process serves its profiles (PPROF_ADDR) and part 2 saves a
# CPU profile of each, taken while the send runs, to .data/bench/.
pprof_port() { case $1 in smpp-gateway) echo 6061 ;; worker) echo 6062 ;; api) echo 6063 ;; esac; }
pprof_env() { [ -n "${BENCH_PPROF:-}" ] && echo "PPROF_ADDR=127.0.0.1:$(pprof_port "$1")"; }
# shellcheck disable=SC2046
stack_start smpp-gateway env $(pprof_env smpp-gateway) "$BIN/smpp-gateway"
# shellcheck disable=SC2046
stack_start worker env $(pprof_env worker) "$BIN/worker"
# shellcheck disable=SC2046
stack_start api env $(pprof_env api) "$BIN/api" serve
stack_wait_ready 30
API=http://$HTTP_ADDR/v1/api
TOKEN=$(curl -fsS --max-time 10 -H 'Content-Type: application/json' -d '{"username":"demo","password":"Demo@12345"}' "$API/acl/auth/login" | jq -r .data.token)
[ -n "$TOKEN" ] && [ "$TOKEN" != null ] || { echo "demo login failed" >&2; exit 1; }
sleep 1 # let the binds settle

# ---- 7. inbox: a TV contest (BENCH_ONLY=inbox) ------------------------------------
if [ "${BENCH_ONLY:-}" = inbox ]; then
  . scripts/bench-inbox.sh
  inbox_bench
  cp "$REPORT" "$OUT"; cat "$REPORT"; echo "(saved to $OUT)"
  exit 0
fi

# ---- 5a. one-time codes on the idle stack (5b runs during part 4) ---------------
. scripts/bench-otp.sh
[ "${BENCH_ONLY:-}" = e2e ] || otp_idle
if [ "${BENCH_ONLY:-}" = otp ]; then
  . scripts/bench-bulk.sh
  say ""
  say "Summary: $OTP_SUMMARY_IDLE; $OTP_SUMMARY_CAMP"
  cp "$REPORT" "$OUT"; cat "$REPORT"; echo "(saved to $OUT)"
  exit 0
fi

# ---- 2. end to end ---------------------------------------------------------------
log "2 end to end: one quick send of $E2E_N numbers"
python3 - "$E2E_N" >"$STACK_RUN/e2e.json" <<'PY'
import json, sys
n = int(sys.argv[1])
prefixes = ["0912", "0935", "0921"]  # MCI, Irancell, Rightel
nums = [f"{prefixes[i % 3]}{(i * 7919) % 10_000_000:07d}" for i in range(n)]
print(json.dumps({"type": "quick", "sender": "500012345", "cancel11": False,
                  "text": "چاپار: آزمون کارایی سرتاسری", "numbers": nums}, ensure_ascii=False))
PY
SIM0=$(sim_total accepted)
snapshot "$STACK_RUN/e2e.before" reset
pg_sampler_start "$STACK_RUN/e2e.pg"
sleep 1 # PostgreSQL publishes a backend's table counters at most once a second
hot_seq_reads "$STACK_RUN/e2e.seq"; WRITES0=$(hot_writes) WAL0=$(psql "$DATABASE_URL" -Atc "SELECT pg_current_wal_lsn()")
redis-cli -p "$STACK_REDIS_PORT" CONFIG RESETSTAT >/dev/null
T0=$(now) M0="$(machine_busy) $EPOCHREALTIME"
RESP=$(curl -fsS --max-time 120 -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
  --data-binary @"$STACK_RUN/e2e.json" -w '\n%{time_total}' "$API/send")
ACCEPT_S=$(tail -n1 <<<"$RESP")
SEND_ID=$(head -n1 <<<"$RESP" | jq -r .data.id)
[ -n "$SEND_ID" ] && [ "$SEND_ID" != null ] || { echo "send not accepted: $RESP" >&2; exit 1; }
if [ -n "${BENCH_PPROF:-}" ]; then
  mkdir -p .data/bench
  for p in smpp-gateway worker api; do
    curl -fsS --max-time 30 -o ".data/bench/cpu-$p-$(date -u +%Y%m%dT%H%M%SZ).pprof" \
      "http://127.0.0.1:$(pprof_port $p)/debug/pprof/profile?seconds=${BENCH_PPROF_SECONDS:-8}" &
  done
fi
# Done when every recipient has its final receipt; given up after E2E_TIMEOUT, or
# when nothing moved for E2E_STALL seconds (then reported as incomplete). The
# "after" figures are taken when progress is seen (at most every 0.5 s), so that a
# stall wait is not counted. scripts/bench-poll.py polls (one process, one
# connection: a shell loop of curl and jq took a fifth of the machine).
STATS=; E2E_DONE=; T_LAST=$T0 T_EXP= T_SENT=
# M_*: the machine's busy ticks and the time as each phase ended (phase_busy).
M_EXP=; M_DONE=
snap_after() { snapshot "$STACK_RUN/e2e.after"; cp "$STACK_RUN/e2e.pg" "$STACK_RUN/e2e.pg.at"; }
while read -r ev a b; do
  case $ev in
    snap) snap_after ;;
    log) log "   $a $b" ;;
    exp) T_EXP=$a M_EXP="$(machine_busy) $EPOCHREALTIME" ;;
    sent) T_SENT=$a ;;
    done) E2E_DONE=1 T_LAST=$a STATS=$b M_DONE="$(machine_busy) $EPOCHREALTIME" ;;
    stall) T_LAST=$a STATS=$b; log "   end to end NOT complete: $STATS" ;;
  esac
done < <(python3 scripts/bench-poll.py "$API/report/bulk_stats?id=$SEND_ID" "$TOKEN" 0.1 "$E2E_TIMEOUT" "$E2E_STALL" 3 0.5)
T1=$T_LAST # the last progress seen (when incomplete: not the stall time-out)
[ -f "$STACK_RUN/e2e.after" ] || snap_after
pg_sampler_stop
WALL=$(sub "$T1" "$T0") WALL_E2E=$(sub "$T1" "$T0")
RECIP=$(jq .recipients <<<"$STATS")
E2E_RATE=$(awk -v n="$RECIP" -v w="$WALL" 'BEGIN { printf "%.0f", n / w }')
SERVER_WALL=$(jq -r '.created_at, .finished_at // empty' <<<"$STATS" | python3 -c '
import sys, datetime
t = [datetime.datetime.fromisoformat(l.strip().replace("Z", "+00:00")) for l in sys.stdin if l.strip()]
print(f"{(t[1] - t[0]).total_seconds():.2f}" if len(t) == 2 else "?")')
say ""
say "2. End to end: one quick send of $E2E_N numbers (MCI/Irancell/Rightel, 1 UCS-2 part), POST → every receipt applied"
say "   command: make bench (POST /v1/api/send, then GET /v1/api/report/bulk_stats?id= every 0.1 s)"
say "   recipients $RECIP: $(jq -r '"delivered \(.delivered), undelivered \(.undelivered), rejected \(.rejected), status \(.status)"' <<<"$STATS")"
if [ -z "$E2E_DONE" ]; then
  say "   INCOMPLETE: $(jq -r '.recipients - .delivered - .undelivered - .rejected' <<<"$STATS") recipients never got a final state (nothing moved for ${E2E_STALL} s);"
  say "   the figures below run to the last progress seen. Diagnostics: $(psql "$DATABASE_URL" -Atc "SELECT 'recipients by status ' || string_agg(status || '=' || n, ' ') FROM (SELECT status, count(*) n FROM recipients WHERE send_id = $SEND_ID GROUP BY 1 ORDER BY 1) x"); $(psql "$DATABASE_URL" -Atc "SELECT 'message_ids without stat ' || count(*) FROM message_ids WHERE send_id = $SEND_ID AND stat IS NULL"); $(psql "$DATABASE_URL" -Atc "SELECT 'pending_receipts ' || count(*) FROM pending_receipts")"
  say "   simulator: $(curl -fsS --max-time 10 "http://$SIM_HTTP_ADDR/stats" | jq -c '.total | {accepted, receipts_generated, receipts_acked, receipts_nacked, receipts_resent, receipts_pending}')"
fi
say "   wall $WALL s: POST answered in $(printf %.3f "$ACCEPT_S") s, expanded at $(sub "${T_EXP:-$T1}" "$T0") s, all submitted at $(sub "${T_SENT:-$T1}" "$T0") s (server created_at → finished_at ${SERVER_WALL} s)"
say "   rate $E2E_RATE recipients/s  (target ≥ 10000)"
say "   vs raw ceiling: $(awk -v a="$E2E_RATE" -v b="$RAW3" -v c="$RAW1" 'BEGIN { printf "%.0f%% of the 3-bind ceiling, %.0f%% of the 1-bind ceiling", 100 * a / b, 100 * a / c }')"
say "   simulator accepted $(( $(sim_total accepted) - SIM0 )) submit_sm"
say "   machine busy by phase: $(phase_busy "POST to expanded" "$M0" "$M_EXP"), $(phase_busy "expanded to the last receipt" "$M_EXP" "$M_DONE")"
say "   CPU and peak RSS during the run (peak RSS reset at the start; * postgres: largest backend, shared buffers included):"
usage "$STACK_RUN/e2e.before" "$STACK_RUN/e2e.after" "$STACK_RUN/e2e.pg.at" >>"$REPORT"
say "   CPU per recipient (all of the above): $(awk -v clk="$CLK" -v n="$RECIP" '{ printf "%.0f µs", $2 / clk / n * 1e6 }' "$STACK_RUN/e2e.pg.at.ours")"
sleep 1 # PostgreSQL publishes a backend's table counters at most once a second
say "   row writes (pg_stat_user_tables): $(psql "$DATABASE_URL" -Atc "SELECT string_agg(format('%s %s updated (%s%% HOT), %s inserted', relname, n_tup_upd,
  CASE WHEN n_tup_upd > 0 THEN round(100.0 * n_tup_hot_upd / n_tup_upd) ELSE 0 END, n_tup_ins), '; ' ORDER BY relname)
  FROM (SELECT CASE WHEN relname ~ '^recipients_' THEN 'recipients' ELSE relname END AS relname,
               sum(n_tup_upd) AS n_tup_upd, sum(n_tup_hot_upd) AS n_tup_hot_upd, sum(n_tup_ins) AS n_tup_ins
        FROM pg_stat_user_tables
        WHERE $HOT_TABLES GROUP BY 1) t")"
say "   per recipient: $(awk -v a="$(hot_writes)" -v b="$WRITES0" -v n="$RECIP" 'BEGIN { printf "%.2f row writes", (a - b) / n }') (inserts, updates and deletes of recipients, message_ids, recipient_claims, pending_receipts), $(psql "$DATABASE_URL" -Atc "SELECT round(pg_wal_lsn_diff(pg_current_wal_lsn(), '$WAL0') / $RECIP)") B of WAL (the whole server's)"
say "   $(seq_reads_line "$STACK_RUN/e2e.seq" "$RECIP")"
say "   $(redis_line "$RECIP")"
say "   gateway recorder: $(curl -fsS --max-time 10 "http://$GATEWAY_HTTP_ADDR/status" | jq -c '.recorder // "n/a"')"
say "   load: $(cut -d' ' -f1-3 /proc/loadavg)"

if [ "${BENCH_ONLY:-}" = e2e ]; then
  cp "$REPORT" "$OUT"; cat "$REPORT"; echo "(saved to $OUT)"
  exit 0
fi

# ---- 4. bulk campaign (runs here, before the accept runs fill the database) ---------
. scripts/bench-bulk.sh

# ---- 3. accept latency -------------------------------------------------------------
log "3a accept latency: wrk -t$THREADS -c$CONNS -d${DURATION}s, 1,000 numbers per POST /send"
cat >"$STACK_RUN/send.lua" <<'LUA'
-- POST /v1/api/send of 1,000 numbers (MCI, Irancell, Rightel) per request; the
-- text carries a per-thread counter so every send is distinct.
local token = os.getenv("BENCH_TOKEN")
local send_at = os.getenv("BENCH_SEND_AT") or "" -- set: every send is scheduled for then (part 3c)
local pause = tonumber(os.getenv("BENCH_PAUSE_MS") or "") -- set: each connection waits this long between requests
if pause then
  function delay() return pause end
end
local prefixes = { "0912", "0935", "0921" }
local nlists, lists, counter, headers = 16, {}, 0, nil
local threads = 0
function setup(thread)
  thread:set("tid", threads)
  threads = threads + 1
end
function init(args)
  for l = 1, nlists do
    local t = {}
    for i = 0, 999 do
      t[#t + 1] = string.format('"%s%07d"', prefixes[i % 3 + 1], ((tid * nlists + l) * 1000 + i) * 7 % 10000000)
    end
    lists[l] = table.concat(t, ",")
  end
  headers = { ["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. token }
end
function request()
  counter = counter + 1
  local body = '{"type":"quick","sender":"500012345","cancel11":false,"text":"چاپار: آزمون پذیرش ' ..
    tid .. '-' .. counter .. '",' .. (send_at ~= "" and ('"send_at":"' .. send_at .. '",') or "") ..
    '"numbers":[' .. lists[counter % nlists + 1] .. ']}'
  return wrk.format("POST", "/v1/api/send", headers, body)
end
function done(summary, latency, requests)
  local s = summary.duration / 1e6
  io.write(string.format("BENCH rps=%.1f requests=%d non2xx=%d sockerr=%d p50=%.2f p90=%.2f p99=%.2f p999=%.2f max=%.2f mean=%.2f\n",
    summary.requests / s, summary.requests, summary.errors.status,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000,
    latency:percentile(99.9) / 1000, latency.max / 1000, latency.mean / 1000))
end
LUA
# accept_run TAG SECONDS: wrk against POST /send; sets the W_* figures and files TAG.*.
accept_run() {
  local tag=$1 secs=$2
  A_SIM0=$(sim_total accepted)
  A_SENDS0=$(psql "$DATABASE_URL" -Atc "SELECT count(*) FROM sends")
  snapshot "$STACK_RUN/$tag.before" reset
  pg_sampler_start "$STACK_RUN/$tag.pg"
  local t0 t1
  t0=$(now)
  BENCH_TOKEN=$TOKEN timeout $((secs + 30)) wrk -t"$THREADS" -c"$CONNS" -d"${secs}s" --timeout 10s --latency \
    -s "$STACK_RUN/send.lua" "http://$HTTP_ADDR/v1/api/send" >"$STACK_RUN/$tag.wrk" 2>&1 || { cat "$STACK_RUN/$tag.wrk" >&2; exit 1; }
  t1=$(now)
  pg_sampler_stop
  snapshot "$STACK_RUN/$tag.after"
  A_WALL=$(sub "$t1" "$t0")
  A_SIM=$(( $(sim_total accepted) - A_SIM0 ))
  A_ACCEPTED=$(( $(psql "$DATABASE_URL" -Atc "SELECT count(*) FROM sends") - A_SENDS0 ))
  W=$(grep '^BENCH ' "$STACK_RUN/$tag.wrk")
}
wv() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$W"; }
accept_report() { # TAG
  say "   command: wrk -t$THREADS -c$CONNS -d${2}s --timeout 10s --latency -s send.lua http://127.0.0.1:<api>/v1/api/send (send.lua: in scripts/bench.sh)"
  say "   $(wv rps) requests/s ($(wv requests) requests, $(wv non2xx) non-2xx, $(wv sockerr) socket errors; $A_ACCEPTED sends stored = $((A_ACCEPTED * 1000)) recipients accepted)"
  say "   latency ms: p50 $(wv p50), p90 $(wv p90), p99 $(wv p99), p99.9 $(wv p999), max $(wv max)  (target p99 ≤ 50)"
}
accept_usage() { # TAG
  usage "$STACK_RUN/$1.before" "$STACK_RUN/$1.after" "$STACK_RUN/$1.pg" >>"$REPORT"
  local pg=""
  [ "$1" = alone ] && pg=", PostgreSQL $(awk -v clk="$CLK" -v n="$(wv requests)" '{ printf "%.2f ms", $3 / clk / n * 1000 }' "$STACK_RUN/$1.pg")"
  say "   CPU per accepted request: API $(awk -v clk="$CLK" -v n="$(wv requests)" -v a="$(awk '$1 == "api" { print $3 }' "$STACK_RUN/$1.before")" '$1 == "api" { printf "%.2f ms", ($3 - a) / clk / n * 1000 }' "$STACK_RUN/$1.after")$pg"
  say "   load: $(cut -d' ' -f1-3 /proc/loadavg)"
}

# 3c. Accept while a send of E2E_N recipients is in flight (issue 16, goal 5). Three
# sends like part 2's, one after the other: a control with nothing else; one while
# clients (INFLIGHT_CONNS connections, each pausing INFLIGHT_PAUSE_MS between
# requests: 16 sends of 1,000 numbers a second, a busy API customer) post for
# INFLIGHT_SECS; and a second control, so that a drift between consecutive sends
# (a growing database, autovacuum) is seen apart from the accepting. The posted
# sends are scheduled an hour ahead: the accept path (checks, price, charge,
# store) is measured beside the pipeline without feeding it.
# flight TAG TRAFFIC: one such send, with wrk beside it when TRAFFIC is 1; sets
# F_RATE (recipients/s, empty when not complete) and, with traffic, W.
flight() {
  local tag=$1 traffic=$2 resp id t0 wrk_pid= s
  resp=$(curl -fsS --max-time 120 -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
    --data-binary @"$STACK_RUN/e2e.json" "$API/send")
  t0=$(now)
  id=$(jq -r .data.id <<<"$resp")
  [ -n "$id" ] && [ "$id" != null ] || { echo "send not accepted: $resp" >&2; exit 1; }
  if [ "$traffic" = 1 ]; then
    BENCH_SEND_AT=$(date -u -d '+1 hour' +%Y-%m-%dT%H:%M:%SZ) BENCH_PAUSE_MS=$INFLIGHT_PAUSE_MS BENCH_TOKEN=$TOKEN \
      timeout $((INFLIGHT_SECS + 30)) wrk -t1 -c"$INFLIGHT_CONNS" -d"${INFLIGHT_SECS}s" --timeout 10s --latency \
      -s "$STACK_RUN/send.lua" "http://$HTTP_ADDR/v1/api/send" >"$STACK_RUN/$tag.wrk" 2>&1 &
    wrk_pid=$!
  fi
  F_RATE=
  for _ in $(seq $((E2E_TIMEOUT * 5))); do
    s=$(curl -fsS --max-time 10 -H "Authorization: Bearer $TOKEN" "$API/report/bulk_stats?id=$id" | jq -c .data) || s=
    if [ -n "$s" ] && jq -e '.recipients > 0 and .delivered + .undelivered + .rejected >= .recipients' <<<"$s" >/dev/null; then
      F_RATE=$(awk -v n="$E2E_N" -v w="$(sub "$(now)" "$t0")" 'BEGIN { printf "%.0f", n / w }'); break
    fi
    sleep 0.2
  done
  if [ -n "$wrk_pid" ]; then
    wait "$wrk_pid" || { cat "$STACK_RUN/$tag.wrk" >&2; exit 1; }
    W=$(grep '^BENCH ' "$STACK_RUN/$tag.wrk")
  fi
}
flight_report() { # LABEL
  say "   $1: $(wv rps) requests/s ($(wv requests) requests, $(wv non2xx) non-2xx); latency ms: p50 $(wv p50), p90 $(wv p90), p99 $(wv p99), max $(wv max)  (target p99 ≤ 150);"
  say "      the send in flight ${F_RATE:-NOT complete}/s ($(awk -v a="${F_RATE:-0}" -v b="$CTL_RATE" 'BEGIN { printf "%+.1f%%", 100 * (a - b) / b }') against the controls' mean; target ≥ −5%)"
}
log "3c accept while $E2E_N recipients are in flight: control, then wrk -c$INFLIGHT_CONNS -d${INFLIGHT_SECS}s beside it"
flight ctl 0
CTL1=${F_RATE:-0}
flight flight 1
FLIGHT_RATE=$F_RATE FLIGHT_W=$W
flight ctl2 0
CTL2=${F_RATE:-0} W=$FLIGHT_W F_RATE=$FLIGHT_RATE
CTL_RATE=$(( (CTL1 + CTL2) / 2 ))
say ""
say "3c. Accept while a send of $E2E_N recipients is in flight: POST /v1/api/send, 1,000 numbers per request (scheduled an hour ahead), $INFLIGHT_CONNS connections each pausing $INFLIGHT_PAUSE_MS ms between requests, ${INFLIGHT_SECS} s"
say "   command: make bench (sends as part 2's; wrk -t1 -c$INFLIGHT_CONNS -d${INFLIGHT_SECS}s --latency -s send.lua with BENCH_SEND_AT and BENCH_PAUSE_MS)"
say "   controls (the same send with nothing beside it, before and after): ${CTL1}/s, ${CTL2}/s"
flight_report "beside the accepting"
P99_FLIGHT=$(wv p99)
say "   load: $(cut -d' ' -f1-3 /proc/loadavg)"

# 3a. With the whole stack running: the worker expands and the gateway sends what
# is accepted, on the same cores (as in production on one small machine).
accept_run acc "$DURATION"
sends_state() { psql "$DATABASE_URL" -Atc "SELECT count(*) - $A_SENDS0, count(*) FILTER (WHERE expanded_at IS NOT NULL AND id > $SEND_ID) FROM sends" | tr '|' ' '; }
read -r _ EXPANDED <<<"$(sends_state)"
sleep 5
read -r _ EXPANDED5 <<<"$(sends_state)"
SIM5=$(( $(sim_total accepted) - A_SIM0 ))
STUCK=$(psql "$DATABASE_URL" -Atc "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND state = 'idle in transaction'")
say ""
say "3a. Accept latency, whole stack running: POST /v1/api/send, type quick, 1,000 numbers per request, $CONNS connections, ${DURATION} s"
accept_report acc "$DURATION"
P99_ACC=$(wv p99)
say "   meanwhile: $EXPANDED of the $A_ACCEPTED sends expanded and $A_SIM submit_sm reached the simulator during the run;"
say "   5 s later: $EXPANDED5 expanded, $SIM5 submit_sm; database sessions idle in transaction: $STUCK"
say "   CPU and peak RSS during the run:"
accept_usage acc

# 3b. The accept path alone: the worker and the gateway are stopped (gracefully,
# so that they hold no locks), leaving the cores to the API, PostgreSQL and Redis.
log "3b accept latency, API alone (worker and gateway stopped): ${ALONE}s"
stack_stop worker smpp-gateway
sleep 1
accept_run alone "$ALONE"
say ""
say "3b. Accept latency, API alone (worker and gateway stopped first), same request, ${ALONE} s"
accept_report alone "$ALONE"
P99_ALONE=$(wv p99)
say "   CPU and peak RSS during the run:"
accept_usage alone
met() { awk -v v="$1" -v t="$2" -v dir="$3" 'BEGIN { ok = dir == "ge" ? v >= t : v <= t; print ok ? "met" : "MISSED" }'; }
say ""
say "Summary"
say "  end to end, $E2E_N recipients: $E2E_RATE recipients/s, $(printf %.1f "$WALL_E2E") s (target ≥ 10000: $(met "$E2E_RATE" 10000 ge))$([ -n "$E2E_DONE" ] || echo "; INCOMPLETE: receipts never applied")"
say "  accept p99 (1,000 numbers): $P99_ACC ms with the whole stack running, $P99_ALONE ms API alone (target ≤ 50: $(met "$P99_ACC" 50 le) / $(met "$P99_ALONE" 50 le)); $P99_FLIGHT ms beside a send of $E2E_N in flight, which ran at ${FLIGHT_RATE:-?}/s against ${CTL1}/s and ${CTL2}/s alone (issue 16 goal 5, ≤ 150: $(met "$P99_FLIGHT" 150 le))"
say "  $BULK_SUMMARY"
say "  $OTP_SUMMARY_IDLE; $OTP_SUMMARY_CAMP"
say "  raw ceiling: $(printf %.0f "$RAW3")/s over 3 binds, $(printf %.0f "$RAW1")/s over 1; end to end is $(awk -v a="$E2E_RATE" -v b="$RAW3" 'BEGIN { printf "%.0f%%", 100 * a / b }') of the 3-bind ceiling"
say ""
say "make bench: the measured part took $(sub "$(now)" "$T_START") s (plus build and clean-up)"

if [ -z "${BENCH_ENGINE_ONLY:-}" ]; then
say ""
bash scripts/bench-webhooks.sh >>"$REPORT"
say ""
say "7. Short-link redirect (scripts/bench-links.sh)"
bash scripts/bench-links.sh >>"$REPORT"
say ""
say "8. Number bank counts (scripts/bench-targeted.sh)"
bash scripts/bench-targeted.sh >>"$REPORT"
fi

cp "$REPORT" "$OUT"
echo
cat "$REPORT"
echo "(saved to $OUT)"

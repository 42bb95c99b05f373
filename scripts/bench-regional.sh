#!/usr/bin/env bash
# A regional send of the number bank at scale (docs/benchmarks.md, "Number bank
# counts"): on a private stack (scripts/stack.sh, bench profile: simulator
# unthrottled, immediate receipts, the demo bank of BANK_SIZE numbers), one
# city_province send drawing BENCH_REGIONAL_N (100,000) numbers at random from the
# largest provinces, then one quick send of as many numbers, each from the POST until
# every receipt is applied: recipients/s and CPU per recipient (our processes and
# the PostgreSQL backends of the stack's database, sampled before and after).
# Part of scripts/bench-targeted.sh (BENCH_REGIONAL=0 skips it); runs alone too.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/toolchain.sh
set -a; . ./.data/env; set +a
N=${BENCH_REGIONAL_N:-100000} TIMEOUT=${BENCH_REGIONAL_TIMEOUT:-600}
go build -o bin/ ./cmd/...
. scripts/stack.sh
stack_init bench_regional
trap stack_cleanup EXIT
export CHAPAR_PROFILE=bench RATE_SEND_PER_MIN=1000000
stack_start_redis
stack_prepare_db
./bin/api admin credit demo 20000000000 >/dev/null
stack_start smsc-sim ./bin/smsc-sim
stack_start smpp-gateway ./bin/smpp-gateway
stack_start worker ./bin/worker
stack_start api ./bin/api serve
stack_wait_ready 30
API=http://$HTTP_ADDR/v1/api
call() { # METHOD PATH [JSON FILE]
  curl -fsS --max-time 120 -X "$1" -H 'Content-Type: application/json' ${TOKEN:+-H "Authorization: Bearer $TOKEN"} \
    ${3:+--data-binary "@$3"} "$API$2"
}
echo '{"username":"demo","password":"Demo@12345"}' >"$STACK_RUN/login.json"
TOKEN=$(call POST /acl/auth/login "$STACK_RUN/login.json" | jq -r .data.token)
SENDER=500012345 # the demo account's service line, as make bench's end-to-end send
sleep 1 # let the binds settle

# cpu: CPU ticks of our processes and of the stack database's PostgreSQL backends.
cpu() {
  python3 - "$STACK_DB" "${STACK_PID[api]} ${STACK_PID[worker]} ${STACK_PID[smpp-gateway]} ${STACK_PID[smsc-sim]} ${STACK_PID[redis]:-}" <<'PY'
import os, sys
db, ours, total = sys.argv[1].encode(), set(sys.argv[2].split()), 0
for pid in filter(str.isdigit, os.listdir("/proc")):
    try:
        cmd = open(f"/proc/{pid}/cmdline", "rb").read()
        if pid in ours or (cmd.startswith(b"postgres: ") and b" " + db + b" " in cmd):
            st = open(f"/proc/{pid}/stat").read()
            f = st[st.rindex(")") + 2:].split()
            total += int(f[11]) + int(f[12])
    except OSError:
        pass
print(total)
PY
}

# run NAME BODY: POST the send, poll its stats until every recipient has a final
# state; prints the figures.
run() {
  local name=$1 body=$2 c0 t0 id s wall
  c0=$(cpu) t0=$EPOCHREALTIME
  local resp
  resp=$(curl -sS --max-time 120 -H 'Content-Type: application/json' -H "Authorization: Bearer $TOKEN" --data-binary "@$body" "$API/send")
  id=$(jq -r .data.id <<<"$resp")
  [ -n "$id" ] && [ "$id" != null ] || { echo "$name: send not accepted: $resp" >&2; return 1; }
  local deadline=$((SECONDS + TIMEOUT))
  while :; do
    s=$(call GET "/report/bulk_stats?id=$id" | jq -c .data)
    jq -e '.recipients > 0 and .delivered + .undelivered + .rejected >= .recipients' <<<"$s" >/dev/null && break
    [ $SECONDS -lt $deadline ] || { echo "$name: not complete after $TIMEOUT s: $s" >&2; return 1; }
    sleep 0.2
  done
  wall=$(awk -v a="$EPOCHREALTIME" -v b="$t0" 'BEGIN { printf "%.2f", a - b }')
  awk -v n="$(jq .recipients <<<"$s")" -v w="$wall" -v c="$(( $(cpu) - c0 ))" -v hz="$(getconf CLK_TCK)" -v name="$name" \
    -v d="$(jq -r '"delivered \(.delivered), undelivered \(.undelivered), rejected \(.rejected)"' <<<"$s")" \
    'BEGIN { printf "[regional] %-36s %d recipients (%s) in %s s: %.0f recipients/s, CPU %.1f s, %.0f µs per recipient\n",
      name, n, d, w, n / w, c / hz, c / hz / n * 1e6 }'
}

PROVINCES=$(call GET /send/banks/provinces | jq -c --argjson n "$N" '
  [.data | sort_by(-.count) | foreach .[] as $p ({s: 0}; .s += $p.count | .id = $p.id; select(.s - $p.count < $n) | .id)]')
TEXT="چاپار: آزمون کارایی ارسال منطقه‌ای"
jq -n --arg s "$SENDER" --arg t "$TEXT" --argjson p "$PROVINCES" --argjson n "$N" \
  '{type: "city_province", sender: $s, text: $t, cancel11: false, target: {provinces: $p, count: $n}}' >"$STACK_RUN/regional.json"
python3 - "$N" "$SENDER" "$TEXT" >"$STACK_RUN/quick.json" <<'PY'
import json, sys
n, sender, text = int(sys.argv[1]), sys.argv[2], sys.argv[3]
prefixes = ["0912", "0935", "0921"]  # MCI, Irancell, Rightel, as make bench's end-to-end send
nums = [f"{prefixes[i % 3]}{(i * 7919) % 10_000_000:07d}" for i in range(n)]
print(json.dumps({"type": "quick", "sender": sender, "cancel11": False, "text": text, "numbers": nums}, ensure_ascii=False))
PY
echo "[regional] bank $(psql "$DATABASE_URL" -Atc 'SELECT size FROM bank_meta') numbers; provinces $PROVINCES; load $(cut -d' ' -f1-3 /proc/loadavg)"
run "city_province, random $N" "$STACK_RUN/regional.json"
run "quick send, $N numbers" "$STACK_RUN/quick.json"
echo "[regional] load after: $(cut -d' ' -f1-3 /proc/loadavg)"

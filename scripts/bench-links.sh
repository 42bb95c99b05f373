#!/usr/bin/env bash
# The short-link redirect (docs/link-tracking.md) under wrk: a private stack (scripts/
# stack.sh) sends the demo account's tracked link to BENCH_LINK_RECIPIENTS (5,000)
# numbers, then wrk (Debian's, installed when missing) opens their short links in turn,
# paced to about BENCH_LINK_RATE (1,000) requests/s by its Lua delay() over
# BENCH_LINK_CONNS (10) connections for BENCH_LINK_DURATION (20) s. Prints wrk's
# p50/p90/p99, the API's CPU per redirect (from /proc), and checks that the clicks
# written equal the requests answered (the recorder writes in batches; wrk may stop
# counting up to one request per connection early).
# The redirect's per-address limits are off (wrk is one address) and texts with links
# are not held for review (the moderation rule is switched off in the stack's own
# database): this measures the redirect itself.
# Runs alone (bash scripts/bench-links.sh) or as the last part of `make bench`.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/toolchain.sh
set -a; . ./.data/env; set +a
. scripts/apt.sh
command -v wrk >/dev/null || apt_install wrk

N=${BENCH_LINK_RECIPIENTS:-5000} RATE=${BENCH_LINK_RATE:-1000} CONNS=${BENCH_LINK_CONNS:-10} DUR=${BENCH_LINK_DURATION:-20}
go build -o bin/ ./cmd/...
. scripts/stack.sh
stack_init bench_links
trap stack_cleanup EXIT
export RATE_LINK_IP_PER_MIN=0 RATE_LINK_MISSES_IP_PER_HOUR=0
stack_start_redis
stack_prepare_db
stack_start smsc-sim ./bin/smsc-sim
stack_start smpp-gateway ./bin/smpp-gateway
stack_start worker ./bin/worker
stack_start api ./bin/api serve
stack_wait_ready 30
API=http://$HTTP_ADDR/v1/api

call() { # METHOD PATH [JSON]
  curl -fsS --max-time 60 -X "$1" -H 'Content-Type: application/json' ${TOKEN:+-H "Authorization: Bearer $TOKEN"} \
    ${3:+--data-binary "$3"} "$API$2"
}
psql "$DATABASE_URL" -qc "UPDATE settings SET value = '{\"links\": false}' WHERE key = 'moderation'"
TOKEN=$(call POST /acl/auth/login '{"username":"demo","password":"Demo@12345"}' | jq -r .data.token)
LINK=$(call GET /panel/link_tracker | jq -r '.data[0].placeholder')
SENDER=$(call GET /number/numbers | jq -r '.data[0].number')
NUMBERS=$(python3 -c "import json,sys; print(json.dumps(['0912%07d' % (4000000 + i) for i in range(int(sys.argv[1]))]))" "$N")
SEND=$(call POST /send "{\"type\":\"quick\",\"sender\":\"$SENDER\",\"text\":\"حراج $LINK\",\"numbers\":$NUMBERS}" | jq -r .data.id)
go run ./scripts/linkcodes "$SEND" >"$STACK_RUN/codes.txt"
echo "send $SEND: $(wc -l <"$STACK_RUN/codes.txt") short codes"

DELAY=$(( CONNS * 1000 / RATE ))
{
  echo 'local codes = {}'
  echo 'for line in io.lines("'"$STACK_RUN"'/codes.txt") do codes[#codes + 1] = line end'
  echo 'local i = 0'
  echo 'request = function() i = i + 1; return wrk.format("GET", "/l/" .. codes[(i % #codes) + 1]) end'
  echo "delay = function() return $DELAY end"
} >"$STACK_RUN/links.lua"

PID=${STACK_PID[api]}
ticks() { awk '{print $14 + $15}' "/proc/$PID/stat"; }
HZ=$(getconf CLK_TCK)
before=$(ticks)
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "command: wrk -t2 -c$CONNS -d${DUR}s --latency -s links.lua http://$HTTP_ADDR (delay ${DELAY} ms per connection)"
wrk -t2 -c"$CONNS" -d"${DUR}s" --latency -s "$STACK_RUN/links.lua" "http://$HTTP_ADDR" | tee "$STACK_RUN/wrk.txt"
after=$(ticks)
REQS=$(awk '/requests in/ {print $1}' "$STACK_RUN/wrk.txt")
python3 -c "import sys; t=(int(sys.argv[2])-int(sys.argv[1]))/int(sys.argv[3]); n=int(sys.argv[4]); print(f'API CPU: {t:.2f} s for {n} redirects = {t/n*1e6:.0f} µs per redirect')" "$before" "$after" "$HZ" "$REQS"
sleep 2 # the recorder's last batch
CLICKS=$(psql "$DATABASE_URL" -tAc "SELECT count(*) FROM link_clicks WHERE send_id = $SEND")
UNIQUE=$(psql "$DATABASE_URL" -tAc "SELECT count(*) FROM link_visitors WHERE send_id = $SEND")
echo "clicks written: $CLICKS (requests answered: $REQS), unique: $UNIQUE"
# wrk stops counting at its deadline: up to one request per connection may be answered
# (and its click written) after it.
[ "$CLICKS" -ge "$REQS" ] && [ "$CLICKS" -le $(( REQS + CONNS )) ] ||
  { echo "clicks written ($CLICKS) differ from requests answered ($REQS)" >&2; exit 1; }

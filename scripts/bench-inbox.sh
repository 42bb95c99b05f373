# Phase "inbox" of `make bench` (BENCH_ONLY=inbox), sourced by scripts/bench.sh once
# the stack is up (it defines $API, $TOKEN, $STACK_RUN, $STACK_DB and the helpers
# log/say/now/sub/snapshot/usage/pg_sampler_*): a TV contest. The demo owner creates
# a contest on the line 500012345 (activated in the database: the staff review is
# not what is measured), then BENCH_INBOX_N (10,000) MO messages from as many
# handsets are injected at the simulator as fast as its HTTP API takes them
# (8 threads), half with the correct answer. Measured: from the first injection
# until every reply is submitted to the carrier (recipients of the «matches» sends
# past queued/submitting), the worker's CPU seconds and peak RSS, CPU per MO.

INBOX_N=${BENCH_INBOX_N:-10000}

inbox_bench() {
  local line=500012345 id t0 t1 before after pg
  id=$(curl -fsS --max-time 10 -H 'Content-Type: application/json' -H "Authorization: Bearer $TOKEN" \
    -d "{\"kind\":\"contest\",\"title\":\"مسابقه تلویزیونی\",\"line\":\"$line\",\"keywords\":[\"مسابقه\"],\"answer\":\"2\",
      \"reply\":\"پاسخ درست بود\",\"reply_wrong\":\"پاسخ نادرست بود\",\"reply_repeat\":\"قبلا شرکت کرده‌اید\"}" \
    "$API/phonebooks/advanced-services/advanced-reader" | jq -r .data.id)
  [ -n "$id" ] && [ "$id" != null ] || { echo "contest not created" >&2; return 1; }
  psql "$DATABASE_URL" -qAtc "UPDATE readers SET status = 'active' WHERE id = $id" >/dev/null
  log "inbox: $INBOX_N MO to contest $id"
  before=$STACK_RUN/inbox-before.txt after=$STACK_RUN/inbox-after.txt pg=$STACK_RUN/inbox-pg.txt
  snapshot "$before" reset
  pg_sampler_start "$pg"
  t0=$(now)
  python3 - "$SIM_HTTP_ADDR" "$line" "$INBOX_N" <<'PY'
import http.client, json, sys, threading, time
addr, line, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
def run(k):
    c = http.client.HTTPConnection(addr, timeout=30)
    for i in range(k, n, 8):
        body = json.dumps({"operator": ["mci", "irancell", "rightel"][i % 3], "from": f"98912{i:07d}", "to": line,
                           "text": "مسابقه ۲" if i % 2 == 0 else "مسابقه 3"})
        for _ in range(200):
            c.request("POST", "/mo", body, {"Content-Type": "application/json"})
            r = c.getresponse(); r.read()
            if r.status == 202:
                break
            time.sleep(0.05)  # 503: the simulator's queue is full
        else:
            raise SystemExit(f"MO {i} refused")
ts = [threading.Thread(target=run, args=(k,)) for k in range(8)]
[t.start() for t in ts]; [t.join() for t in ts]
PY
  local injected submitted=0 deadline=$((SECONDS + 600))
  injected=$(now)
  while [ "$SECONDS" -lt "$deadline" ]; do
    submitted=$(psql "$DATABASE_URL" -qAtc "SELECT count(*) FROM recipients r JOIN sends s ON s.id = r.send_id
      WHERE s.type = 'matches' AND r.status NOT IN (5, 7)")
    [ "$submitted" -ge "$INBOX_N" ] && break
    sleep 0.2
  done
  t1=$(now)
  snapshot "$after"
  pg_sampler_stop
  local entries senders sends
  read -r entries senders sends < <(psql "$DATABASE_URL" -qAtF' ' -c "SELECT count(*), count(DISTINCT sender),
    count(DISTINCT reply_send_id) FROM reader_entries WHERE reader_id = $id")
  say ""
  say "7. Inbox: a TV contest, $INBOX_N MO in one burst through the simulator's /mo (8 threads)"
  say "   command: BENCH_ONLY=inbox make bench   (BENCH_INBOX_N=$INBOX_N)"
  say "   injection took $(sub "$injected" "$t0") s; every reply submitted $(sub "$t1" "$t0") s after the first MO"
  say "   entries $entries from $senders senders, replies submitted $submitted (want $INBOX_N, each once) in $sends sends"
  say "   CPU and peak RSS during the run (peak RSS reset at the start):"
  usage "$before" "$after" "$pg" 2>"$STACK_RUN/inbox-ticks.txt" | while IFS= read -r l; do say "$l"; done
  local wticks
  wticks=$(awk '$1 == "worker" { print $3 }' "$after"); wticks=$((wticks - $(awk '$1 == "worker" { print $3 }' "$before")))
  say "   worker CPU per MO: $(awk -v t="$wticks" -v c="$CLK" -v n="$INBOX_N" 'BEGIN { printf "%.0f µs", t / c / n * 1e6 }')"
}

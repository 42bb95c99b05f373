# Phase "bulk" of `make bench`, sourced by scripts/bench.sh (which defines the stack,
# $API, $TOKEN, $BIN and the helpers log/say/now/sub/snapshot/usage/pg_sampler_*):
# a BENCH_BULK_ROWS-row (1,000,000) spreadsheet campaign through the API in the
# bench profile — upload (multipart) → parse in the worker → pre-flight report →
# calculate-price → accept → every receipt applied — with the time of each phase,
# recipients/s and peak RSS per process; then the same rows as CSV, parsed only.

BULK_ROWS=${BENCH_BULK_ROWS:-1000000}
# The campaign's sender: a second service line of the demo account, so that the
# simulator, which keeps the code lines' messages (SIM_KEEP_FROM, part 5b), does not
# keep the campaign's million too (its ring would push the codes out before the
# loader reads them).
BULK_LINE=${BENCH_BULK_LINE:-500012399}
BULK_TIMEOUT=${BENCH_BULK_TIMEOUT:-600}
BULK_STALL=${BENCH_BULK_STALL:-30}

bulk_file() { # PATH: write the benchmark spreadsheet (.xlsx or .csv)
  LOADGEN_BULK_OUT=$1 LOADGEN_BULK_ROWS=$BULK_ROWS timeout 300 "$BIN/loadgen.test" -test.run '^TestWriteBulkFile$' \
    -test.timeout 5m >"$STACK_RUN/bulkfile.log" 2>&1 || { cat "$STACK_RUN/bulkfile.log" >&2; exit 1; }
}
bulk_get() { curl -fsS --max-time 10 -H "Authorization: Bearer $TOKEN" "$API/$1" | jq -c .data; }
# bulk_upload PATH: upload and wait for the pre-flight report; sets B_FILE B_REPORT B_T_UP B_T_PARSED.
bulk_upload() {
  local resp deadline
  resp=$(curl -fsS --max-time 300 -H "Authorization: Bearer $TOKEN" -F "purpose=send" -F "file=@$1" "$API/user/files") ||
    { echo "upload of $1 failed" >&2; exit 1; }
  B_T_UP=$(now)
  B_FILE=$(jq -r .data.id <<<"$resp")
  deadline=$(( $(date +%s) + BULK_TIMEOUT ))
  while :; do
    B_REPORT=$(bulk_get "user/files/$B_FILE" || true)
    case $(jq -r .status <<<"$B_REPORT" 2>/dev/null) in
      ready) B_T_PARSED=$(now); return ;;
      failed) echo "file $1 failed: $B_REPORT" >&2; exit 1 ;;
    esac
    [ "$(date +%s)" -lt "$deadline" ] || { echo "file $1 still parsing after ${BULK_TIMEOUT}s" >&2; exit 1; }
    sleep 0.2
  done
}

log "bulk: writing a $BULK_ROWS-row xlsx and csv"
bulk_file "$STACK_RUN/bulk.xlsx"
bulk_file "$STACK_RUN/bulk.csv"
BULK_XLSX_MB=$(awk -v b="$(stat -c %s "$STACK_RUN/bulk.xlsx")" 'BEGIN { printf "%.1f", b / 1048576 }')
BULK_CSV_MB=$(awk -v b="$(stat -c %s "$STACK_RUN/bulk.csv")" 'BEGIN { printf "%.1f", b / 1048576 }')

psql "$DATABASE_URL" -qAtc "INSERT INTO lines (account_id, number, kind)
  SELECT account_id, '$BULK_LINE', 'service' FROM users WHERE username = 'demo' ON CONFLICT (number) DO NOTHING" >/dev/null
log "bulk: campaign of $BULK_ROWS rows from xlsx, line $BULK_LINE"
snapshot "$STACK_RUN/bulk.before" reset
hot_seq_reads "$STACK_RUN/bulk.seq"
pg_sampler_start "$STACK_RUN/bulk.pg"
B_T0=$(now)
bulk_upload "$STACK_RUN/bulk.xlsx"
BODY=$(jq -cn --argjson f "$B_FILE" --arg line "$BULK_LINE" '{type: "file", file_id: $f, sender: $line, cancel11: false, text: "چاپار: آزمون کارزار یک‌میلیونی"}')
QUOTE=$(curl -fsS --max-time 120 -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' -d "$BODY" "$API/send/calculate-price" | jq -c .data)
B_T_QUOTE=$(now)
RESP=$(curl -fsS --max-time 120 -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' -d "$BODY" "$API/send")
B_T_ACC=$(now)
B_SEND=$(jq -r .data.id <<<"$RESP")
[ -n "$B_SEND" ] && [ "$B_SEND" != null ] || { echo "bulk send not accepted: $RESP" >&2; exit 1; }
[ "$(type -t otp_during_start)" = function ] && otp_during_start # part 5b (scripts/bench-otp.sh)
# The expansion of the million shows no progress until it commits (tens of seconds
# on a busy machine): only BULK_TIMEOUT bounds it (expanding-moves).
B_DONE=; B_T_EXP=
while read -r ev a b; do
  case $ev in
    exp) B_T_EXP=$a ;;
    log) log "   $a $b" ;;
    done) B_DONE=1 B_STATS=$b ;;
    stall) B_STATS=$b; log "   bulk campaign NOT complete: $B_STATS" ;;
  esac
done < <(python3 scripts/bench-poll.py "$API/report/bulk_stats?id=$B_SEND" "$TOKEN" 0.2 "$BULK_TIMEOUT" "$BULK_STALL" 5 0 expanding-moves)
B_T1=$(now)
snapshot "$STACK_RUN/bulk.after"
pg_sampler_stop
B_RECIP=$(jq .recipients <<<"$B_STATS")
B_TOTAL=$(sub "$B_T1" "$B_T0")
B_RECORDS=$(jq .records <<<"$B_REPORT")
B_PARSE=$(sub "$B_T_PARSED" "$B_T_UP")
say ""
say "4. Bulk campaign: a $BULK_ROWS-row xlsx ($BULK_XLSX_MB MB, numeric phone cells, 6 operators' prefixes) through the API, bench profile"
say "   command: make bench (curl -F file=@bulk.xlsx POST /v1/api/user/files → poll GET /user/files/{id} → POST /send/calculate-price → POST /send type file → poll bulk_stats)"
say "   pre-flight: $(jq -r '"records \(.records), valid \(.valid), invalid \(.invalid), duplicates \(.duplicates), blacklisted \(.blacklisted)"' <<<"$B_REPORT"); quote $(jq -r '"\(.recipients) recipients, \(.price) rials"' <<<"$QUOTE")"
say "   upload $(sub "$B_T_UP" "$B_T0") s; parse $B_PARSE s = $(awk -v n="$B_RECORDS" -v w="$B_PARSE" 'BEGIN { printf "%.0f", n / w }') rows/s (target ≥ 80000); calculate-price $(sub "$B_T_QUOTE" "$B_T_PARSED") s; accept $(sub "$B_T_ACC" "$B_T_QUOTE") s"
say "   expanded at $(sub "${B_T_EXP:-$B_T1}" "$B_T_ACC") s after accept; every receipt applied $(sub "$B_T1" "$B_T_ACC") s after accept = $(awk -v n="$B_RECIP" -v w="$(sub "$B_T1" "$B_T_ACC")" 'BEGIN { printf "%.0f", n / w }') recipients/s"
say "   $(jq -r '"delivered \(.delivered), undelivered \(.undelivered), rejected \(.rejected), status \(.status)"' <<<"$B_STATS")$([ -n "$B_DONE" ] || echo "  INCOMPLETE")"
say "   whole campaign $B_TOTAL s (target ≤ 150)"
say "   CPU and peak RSS during the campaign (peak RSS reset at the start; worker target ≤ 300 MB):"
usage "$STACK_RUN/bulk.before" "$STACK_RUN/bulk.after" "$STACK_RUN/bulk.pg" >>"$REPORT"
sleep 1 # PostgreSQL publishes a backend's table counters at most once a second
say "   $(seq_reads_line "$STACK_RUN/bulk.seq" "$B_RECIP")"
say "   load: $(cut -d' ' -f1-3 /proc/loadavg)"
[ -n "${OTP_BG:-}" ] && otp_during_report

log "bulk: the same rows as csv (upload and parse only)"
C_T0=$(now)
bulk_upload "$STACK_RUN/bulk.csv"
C_PARSE=$(sub "$B_T_PARSED" "$B_T_UP")
say "   csv ($BULK_CSV_MB MB): upload $(sub "$B_T_UP" "$C_T0") s, parse $C_PARSE s = $(awk -v n="$(jq .records <<<"$B_REPORT")" -v w="$C_PARSE" 'BEGIN { printf "%.0f", n / w }') rows/s"
BULK_SUMMARY="bulk campaign, $BULK_ROWS rows: $B_TOTAL s (target ≤ 150), parse $(awk -v n="$B_RECORDS" -v w="$B_PARSE" 'BEGIN { printf "%.0f", n / w }') rows/s xlsx (target ≥ 80000), $(awk -v n="$(jq .records <<<"$B_REPORT")" -v w="$C_PARSE" 'BEGIN { printf "%.0f", n / w }') rows/s csv"

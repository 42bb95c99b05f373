# Phase "otp" of `make bench`, sourced by scripts/bench.sh once the stack is up
# (which defines $API, $BIN, $STACK_RUN and the helpers log/say/now/sub/snapshot/
# usage/pg_sampler_*/sim_total): one-time code latency, API accept → submit_sm at
# the simulator, p50/p99 over BENCH_OTP_N (1,000) password-reset codes asked for
# through POST /v1/api/acl/auth/forgot_password at BENCH_OTP_RATE (20) a second,
# round-robin over BENCH_OTP_USERS (50) users signed up through the API first
# (pkg/loadgen TestOTPLatency). It defines
#
#   otp_idle           5a: on the idle stack (signs the users up first);
#   otp_during_start   5b: in the background, once the bulk campaign of
#                      scripts/bench-bulk.sh is submitting (called there);
#   otp_during_report  5b: waits for it and reports, with how much of the
#                      campaign was submitted before, during and after the run.
#
# The simulator keeps the system line's messages (SIM_KEEP_FROM=2000) even once
# its bench-profile store only counts; the API's code limits are raised for the
# run (bench.sh exports them before the API starts).

OTP_N=${BENCH_OTP_N:-1000}
OTP_RATE=${BENCH_OTP_RATE:-20}
OTP_USERS=${BENCH_OTP_USERS:-50}
OTP_CMD="LOADGEN_OTP_API=http://…/v1/api LOADGEN_OTP_SIM=… LOADGEN_OTP_N=$OTP_N LOADGEN_OTP_RATE=$OTP_RATE go test -run '^TestOTPLatency\$' ./pkg/loadgen"

# otp_load TAG [setup]: runs the loader; its "otp …" line goes to $STACK_RUN/otp.TAG.
otp_load() {
  LOADGEN_OTP_API=$API LOADGEN_OTP_SIM=$SIM_HTTP_ADDR LOADGEN_OTP_N=$OTP_N LOADGEN_OTP_RATE=$OTP_RATE \
    LOADGEN_OTP_USERS=$OTP_USERS LOADGEN_OTP_SETUP=${2:-} \
    timeout 600 "$BIN/loadgen.test" -test.run '^TestOTPLatency$' -test.timeout 10m >"$STACK_RUN/otp.$1.log" 2>&1 ||
    { log "   otp loader failed: $(tail -n3 "$STACK_RUN/otp.$1.log")"; }
  grep '^otp ' "$STACK_RUN/otp.$1.log" >"$STACK_RUN/otp.$1" || echo "otp failed" >"$STACK_RUN/otp.$1"
}
# otp_field TAG NAME: a value of the loader's line (p50_ms, p99_ms, max_ms, lost).
otp_field() { tr ' ' '\n' <"$STACK_RUN/otp.$1" | awk -F= -v k="$2" '$1 == k { print $2 }'; }
otp_line() { echo "p50 $(otp_field "$1" p50_ms) ms, p99 $(otp_field "$1" p99_ms) ms, max $(otp_field "$1" max_ms) ms, lost $(otp_field "$1" lost)"; }
otp_met() { awk -v v="$(otp_field "$1" p99_ms)" -v t="$2" 'BEGIN { print (v != "" && v <= t) ? "met" : "MISSED" }'; }

otp_idle() {
  log "5a otp: signing up $OTP_USERS users"
  LOADGEN_OTP_N=1 OTP_N=1 otp_load setup 1
  grep -q '^otp ' "$STACK_RUN/otp.setup" || { echo "otp: signing the users up failed: $(tail -n5 "$STACK_RUN/otp.setup.log")" >&2; exit 1; }
  log "5a otp: $OTP_N codes at $OTP_RATE/s on the idle stack"
  snapshot "$STACK_RUN/otp.before" reset
  pg_sampler_start "$STACK_RUN/otp.pg"
  otp_load idle
  snapshot "$STACK_RUN/otp.after"
  pg_sampler_stop
  say ""
  say "5a. One-time codes, idle stack: $OTP_N password-reset codes at $OTP_RATE/s over $OTP_USERS users, API answer → submit_sm at the simulator"
  say "   command: $OTP_CMD (make bench, after the sign-ups)"
  say "   $(otp_line idle)   (target p99 ≤ 300 ms: $(otp_met idle 300))"
  say "   CPU during the run:"
  usage "$STACK_RUN/otp.before" "$STACK_RUN/otp.after" "$STACK_RUN/otp.pg" >>"$REPORT"
  say "   CPU per code (all of the above): $(awk -v clk="$CLK" -v n="$OTP_N" '{ printf "%.1f ms", $2 / clk / n * 1e3 }' "$STACK_RUN/otp.pg.ours")"
  OTP_SUMMARY_IDLE="one-time codes p99 $(otp_field idle p99_ms) ms idle (target ≤ 300: $(otp_met idle 300))"
}

# otp_during_start SEND_ID: in the background, waits until the campaign has
# 5,000 submit_sm at the simulator, then runs the loader.
otp_during_start() {
  OTP_SIM0=$(sim_total accepted)
  (
    for _ in $(seq 1200); do
      [ "$(( $(sim_total accepted) - OTP_SIM0 ))" -ge 5000 ] && break
      sleep 0.25
    done
    sim_total accepted >"$STACK_RUN/otp.camp.sim1"
    echo "$(now)" >"$STACK_RUN/otp.camp.t1"
    otp_load camp
    sim_total accepted >"$STACK_RUN/otp.camp.sim2"
    echo "$(now)" >"$STACK_RUN/otp.camp.t2"
  ) &
  OTP_BG=$!
}

otp_during_report() {
  wait "$OTP_BG" 2>/dev/null || true
  local s1 s2 t1 t2 total
  s1=$(cat "$STACK_RUN/otp.camp.sim1" 2>/dev/null || echo 0); s2=$(cat "$STACK_RUN/otp.camp.sim2" 2>/dev/null || echo 0)
  t1=$(cat "$STACK_RUN/otp.camp.t1" 2>/dev/null || now); t2=$(cat "$STACK_RUN/otp.camp.t2" 2>/dev/null || now)
  total=$(( $(sim_total accepted) - OTP_SIM0 ))
  say ""
  say "5b. One-time codes during the $BULK_ROWS-row campaign of part 4: the same load, started once the campaign had 5,000 submit_sm at the simulator"
  say "   $(otp_line camp)   (target p99 ≤ 1000 ms: $(otp_met camp 1000))"
  say "   campaign submit_sm at the simulator: $(( s1 - OTP_SIM0 )) before the codes, $(( s2 - s1 )) during their $(sub "$t2" "$t1") s (matching included), $(( total - (s2 - OTP_SIM0) )) after, of $total"
  say "   (CPU per code is not separable from the campaign's here; see 5a)"
  OTP_SUMMARY_CAMP="one-time codes p99 $(otp_field camp p99_ms) ms during the campaign (target ≤ 1000: $(otp_met camp 1000))"
}

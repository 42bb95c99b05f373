# Phase "otp" of `make bench`, sourced by scripts/bench.sh once the stack is up
# (which defines $API, $BIN, $STACK_RUN and the helpers log/say/now/sub/snapshot/
# usage/pg_sampler_*/sim_total): one-time code latency, API accept → submit_sm at
# the simulator, p50/p99 over BENCH_OTP_N (1,000) codes at BENCH_OTP_RATE (20) a
# second (internal/testing/loadgen TestOTPLatency), in two variants (BENCH_OTP_KINDS, both by
# default):
#
#   reset    password-reset codes, POST /v1/api/acl/auth/forgot_password, from the
#            system line 2000, round-robin over BENCH_OTP_USERS (50) users signed
#            up through the API first;
#   pattern  a customer's OTP: an approved pattern of kind otp sent by API key,
#            POST /v1/api/patterns/send, from the demo service line 500012345, round-robin
#            over 50 recipients; the setup creates the pattern as the demo user,
#            approves it as the seeded staff user and creates the key (its step-up
#            code read at the simulator).
#
# It defines
#
#   otp_idle           5a: each variant on the idle stack (setup first);
#   otp_during_start   5b: in the background, once the bulk campaign of
#                      scripts/bench-bulk.sh is submitting (called there), each
#                      variant in turn;
#   otp_during_report  5b: waits for them and reports, with how much of the
#                      campaign was submitted before, during and after each run.
#
# The simulator keeps the two lines' messages (SIM_KEEP_FROM=2000,500012345) even
# once its bench-profile store only counts (the campaign sends from another line,
# BULK_LINE); the API's code limits are raised for the run (bench.sh exports them
# before the API starts). A run whose codes were lost reports MISSED, whatever its p99.

OTP_N=${BENCH_OTP_N:-1000}
OTP_RATE=${BENCH_OTP_RATE:-20}
OTP_USERS=${BENCH_OTP_USERS:-50}
OTP_KINDS=${BENCH_OTP_KINDS:-reset pattern}
OTP_CMD="LOADGEN_OTP_KIND=reset|pattern LOADGEN_OTP_API=http://…/v1/api LOADGEN_OTP_SIM=… LOADGEN_OTP_N=$OTP_N LOADGEN_OTP_RATE=$OTP_RATE go test -run '^TestOTPLatency\$' ./internal/testing/loadgen"

# otp_load KIND TAG [setup]: runs the loader; its "otp …" line goes to $STACK_RUN/otp.TAG.
otp_load() {
  LOADGEN_OTP_KIND=$1 LOADGEN_OTP_STATE=$STACK_RUN/otp.pattern.state \
    LOADGEN_OTP_API=$API LOADGEN_OTP_SIM=$SIM_HTTP_ADDR LOADGEN_OTP_N=$OTP_N LOADGEN_OTP_RATE=$OTP_RATE \
    LOADGEN_OTP_USERS=$OTP_USERS LOADGEN_OTP_SETUP=${3:-} \
    timeout 600 "$BIN/loadgen.test" -test.run '^TestOTPLatency$' -test.timeout 10m >"$STACK_RUN/otp.$2.log" 2>&1 ||
    { log "   otp loader failed: $(tail -n3 "$STACK_RUN/otp.$2.log")"; }
  grep '^otp ' "$STACK_RUN/otp.$2.log" >"$STACK_RUN/otp.$2" || echo "otp failed" >"$STACK_RUN/otp.$2"
}
# otp_field TAG NAME: a value of the loader's line (p50_ms, p99_ms, max_ms, lost).
otp_field() { tr ' ' '\n' <"$STACK_RUN/otp.$1" | awk -F= -v k="$2" '$1 == k { print $2 }'; }
otp_line() { echo "p50 $(otp_field "$1" p50_ms) ms, p99 $(otp_field "$1" p99_ms) ms, max $(otp_field "$1" max_ms) ms, lost $(otp_field "$1" lost)"; }
otp_met() {
  awk -v v="$(otp_field "$1" p99_ms)" -v lost="$(otp_field "$1" lost)" -v t="$2" \
    'BEGIN { print (v != "" && v <= t && lost == 0) ? "met" : (lost > 0 ? "MISSED (" lost " lost)" : "MISSED") }'
}
otp_title() {
  case $1 in
    reset) echo "password-reset codes (forgot_password) over $OTP_USERS users, system line 2000" ;;
    pattern) echo "OTP-pattern sends by API key (patterns/send) to $OTP_USERS recipients, line 500012345" ;;
  esac
}

otp_idle() {
  local k
  OTP_SUMMARY_IDLE=
  for k in $OTP_KINDS; do
    log "5a otp ($k): setup"
    LOADGEN_OTP_N=1 OTP_N=1 otp_load "$k" "setup.$k" 1
    grep -q '^otp ' "$STACK_RUN/otp.setup.$k" || { echo "otp ($k): setup failed: $(tail -n5 "$STACK_RUN/otp.setup.$k.log")" >&2; exit 1; }
    log "5a otp ($k): $OTP_N at $OTP_RATE/s on the idle stack"
    snapshot "$STACK_RUN/otp.before" reset
    pg_sampler_start "$STACK_RUN/otp.pg"
    otp_load "$k" "idle.$k"
    snapshot "$STACK_RUN/otp.after"
    pg_sampler_stop
    say ""
    say "5a ($k). One-time codes, idle stack: $OTP_N $(otp_title "$k") at $OTP_RATE/s, API answer → submit_sm at the simulator"
    say "   command: $OTP_CMD (make bench, after the setup)"
    say "   $(otp_line "idle.$k")   (target p99 ≤ 300 ms: $(otp_met "idle.$k" 300)); load $(cut -d' ' -f1-3 /proc/loadavg)"
    say "   CPU during the run:"
    usage "$STACK_RUN/otp.before" "$STACK_RUN/otp.after" "$STACK_RUN/otp.pg" >>"$REPORT"
    say "   CPU per code (all of the above): $(awk -v clk="$CLK" -v n="$OTP_N" '{ printf "%.1f ms", $2 / clk / n * 1e3 }' "$STACK_RUN/otp.pg.ours")"
    OTP_SUMMARY_IDLE="$OTP_SUMMARY_IDLE${OTP_SUMMARY_IDLE:+; }$k codes p99 $(otp_field "idle.$k" p99_ms) ms idle (target ≤ 300: $(otp_met "idle.$k" 300))"
  done
}

# otp_during_start: in the background, waits until the campaign has 5,000
# submit_sm at the simulator, then runs each variant in turn.
otp_during_start() {
  OTP_SIM0=$(sim_total accepted)
  (
    for _ in $(seq 1200); do
      [ "$(( $(sim_total accepted) - OTP_SIM0 ))" -ge 5000 ] && break
      sleep 0.25
    done
    for k in $OTP_KINDS; do
      sim_total accepted >"$STACK_RUN/otp.camp.$k.sim1"; now >"$STACK_RUN/otp.camp.$k.t1"
      otp_load "$k" "camp.$k"
      sim_total accepted >"$STACK_RUN/otp.camp.$k.sim2"; now >"$STACK_RUN/otp.camp.$k.t2"
    done
  ) &
  OTP_BG=$!
}

otp_during_report() {
  wait "$OTP_BG" 2>/dev/null || true
  local k s1 s2 t1 t2 total
  total=$(( $(sim_total accepted) - OTP_SIM0 ))
  OTP_SUMMARY_CAMP=
  for k in $OTP_KINDS; do
    s1=$(cat "$STACK_RUN/otp.camp.$k.sim1" 2>/dev/null || echo 0); s2=$(cat "$STACK_RUN/otp.camp.$k.sim2" 2>/dev/null || echo 0)
    t1=$(cat "$STACK_RUN/otp.camp.$k.t1" 2>/dev/null || now); t2=$(cat "$STACK_RUN/otp.camp.$k.t2" 2>/dev/null || now)
    say ""
    say "5b ($k). One-time codes during the $BULK_ROWS-row campaign of part 4: $OTP_N $(otp_title "$k") at $OTP_RATE/s, started once the campaign had 5,000 submit_sm at the simulator"
    say "   $(otp_line "camp.$k")   (target p99 ≤ 1000 ms: $(otp_met "camp.$k" 1000))"
    say "   campaign submit_sm at the simulator: $(( s1 - OTP_SIM0 )) before these codes, $(( s2 - s1 )) during their $(sub "$t2" "$t1") s (matching included), $(( total - (s2 - OTP_SIM0) )) after, of $total"
    OTP_SUMMARY_CAMP="$OTP_SUMMARY_CAMP${OTP_SUMMARY_CAMP:+; }$k codes p99 $(otp_field "camp.$k" p99_ms) ms during the campaign (target ≤ 1000: $(otp_met "camp.$k" 1000))"
  done
  say "   (CPU per code is not separable from the campaign's here; see 5a)"
}

#!/usr/bin/env bash
# Benchmarks of webhooks and the API-call log (docs/webhooks.md); part 6 of
# `make bench`, or run alone: `bash scripts/bench-webhooks.sh [webhooks] [calllog]`
# (no argument runs both). Each part is a Go test that makes its own database:
#
#   webhooks  100,000 delivery.receipt events written as receipt batches would write
#             them (10,000/s, then all at once for the drain rate) and posted by the
#             worker's deliverer to a local receiver: events/s, latency from the
#             event's write to its POST (p50/p99), CPU per event (the Go process and
#             PostgreSQL) — pkg/webhook TestDeliveryBench;
#   calllog   the API with the API-call log on vs off, GET /payment/credit/mine with
#             an API key from 8 clients, alternating 5 s rounds: requests/s and CPU
#             per request — pkg/httpapi TestCallLogOverheadBench.
#
# Prints the BENCH lines with the command that made them and the load before.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/toolchain.sh
set -a; . ./.data/env; set +a

parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(webhooks calllog)
run() { # NAME ENV... -- PACKAGE TEST
  local name=$1; shift
  local envs=()
  while [ "$1" != -- ]; do envs+=("$1"); shift; done
  shift
  echo "  $name: load before $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "  command: ${envs[*]} go test -count=1 -run '^$2\$' -v $1"
  env "${envs[@]}" timeout 600 go test -count=1 -run "^$2\$" -v "$1" 2>&1 | grep -a 'BENCH' | sed 's/^ *[a-z_]*\.go:[0-9]*: /    /'
}
echo "5. Webhooks and the API-call log (scripts/bench-webhooks.sh)"
for p in "${parts[@]}"; do
  case $p in
    webhooks)
      run "5a webhook delivery, 100,000 receipts at 10,000/s" WEBHOOK_BENCH=1 -- ./pkg/webhook TestDeliveryBench
      run "5b webhook delivery, 100,000 receipts all at once (drain)" WEBHOOK_BENCH=1 WEBHOOK_BENCH_RATE=0 -- ./pkg/webhook TestDeliveryBench ;;
    calllog)
      run "5c API-call log on vs off" APICALL_BENCH=1 APICALL_BENCH_ROUNDS=5 -- ./pkg/httpapi TestCallLogOverheadBench ;;
    *) echo "unknown part $p (webhooks, calllog)" >&2; exit 2 ;;
  esac
done

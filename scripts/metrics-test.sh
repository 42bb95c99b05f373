#!/usr/bin/env bash
# Metrics end to end (docs/metrics.md), a step of `make test`: checks the alert rules
# and runs their unit tests with promtool, starts the real stack (scripts/stack.sh)
# with every process serving /metrics, and Debian's Prometheus scraping them every
# second; then deploy's TestMetricsDuringASend sends 30 recipients through the API
# and asserts through Prometheus' HTTP API that the submit, receipt, expansion and
# API request counters moved, that the binds are up, that every rule is loaded and
# healthy, and that every Grafana panel's query returns data.
# KEEP_STACK_LOGS=1 keeps the processes' logs and Prometheus' data.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/toolchain.sh
set -a; . ./.data/env; set +a
. scripts/apt.sh
command -v promtool >/dev/null || apt_install --no-install-recommends prometheus

promtool check rules deploy/prometheus/rules.yml
promtool test rules deploy/prometheus/rules_test.yml

. scripts/stack.sh
stack_init metrics
trap stack_cleanup EXIT
# Binaries of its own: `make test` builds bin/ for the end-to-end run meanwhile.
STACK_BIN=$STACK_RUN/bin
go build -o "$STACK_BIN/" ./cmd/...
stack_start_redis
# Quick receipts, and a number bank of its own size only (seed-demo writes 300,000 by default).
export SIM_RECEIPT_DELAY_MS=100-800 BANK_SIZE=2000
LOG_LEVEL=warn stack_prepare_db # the seed's progress lines are not this test's
stack_start_all
stack_start_prometheus

rc=0
CHAPAR_PROMETHEUS_URL=$STACK_PROMETHEUS_URL CHAPAR_API_URL=http://$HTTP_ADDR \
  go test -count=1 -run '^TestMetricsDuringASend$' -v ./deploy/ || rc=$?
if [ "$rc" != 0 ]; then
  for p in prometheus smpp-gateway worker api; do
    echo "== $p, last lines"
    tail -n 15 "$STACK_RUN/$p.log" 2>/dev/null | cut -c1-400 || true
  done
fi
exit "$rc"

#!/usr/bin/env bash
# `make run`: the whole product on this machine with the demo account. Starts the
# carrier simulator (three operators), the SMPP gateway, the worker and the API
# (which serves the panel), after migrating and seeding, and Debian's Prometheus
# scraping the three processes' metrics (docs/metrics.md) with the alert rules of
# deploy/prometheus. Ctrl-C stops everything.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/toolchain.sh
set -a; . ./.data/env; set +a
export HTTP_ADDR=${HTTP_ADDR:-127.0.0.1:8080}
export SIM_HTTP_ADDR=${SIM_HTTP_ADDR:-127.0.0.1:2780}
export CHAPAR_PROFILE=${CHAPAR_PROFILE:-default}
# Webhooks may reach local receivers in development (never in production).
export WEBHOOK_ALLOW_PRIVATE=${WEBHOOK_ALLOW_PRIVATE:-1}
LOGS=.data/logs
mkdir -p "$LOGS"
# Each process serves /metrics on a free loopback port; Prometheus scrapes them
# (stack.sh: stack_free_ports, prometheus_config).
. scripts/stack.sh
read -r M_API M_WORKER M_GW PROM_PORT <<<"$(stack_free_ports 4)"
command -v prometheus >/dev/null || apt_install --no-install-recommends prometheus || true

./bin/api migrate up
SEED_DEMO_SENDS=1 ./bin/api seed-demo # with real sends for the dashboard charts

pids=()
stop() {
  trap - INT TERM EXIT
  echo; echo "stopping…"
  for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap stop INT TERM EXIT

start() { # name, then the command
  local name=$1; shift
  "$@" >>"$LOGS/$name.log" 2>&1 &
  pids+=($!)
  echo "started $name (pid $!, log $LOGS/$name.log)"
}

for b in smsc-sim smpp-gateway worker api; do
  [ -x "bin/$b" ] || { echo "bin/$b is missing: run 'make build'"; exit 1; }
done
start smsc-sim ./bin/smsc-sim
METRICS_ADDR=127.0.0.1:$M_GW start smpp-gateway ./bin/smpp-gateway
METRICS_ADDR=127.0.0.1:$M_WORKER start worker ./bin/worker
METRICS_ADDR=127.0.0.1:$M_API start api ./bin/api serve
PROM="not installed (apt-get install prometheus)"
if command -v prometheus >/dev/null; then
  mkdir -p .data/prometheus
  PROMETHEUS_INTERVAL=5s prometheus_config .data/prometheus/prometheus.yml api=127.0.0.1:$M_API worker=127.0.0.1:$M_WORKER gateway=127.0.0.1:$M_GW
  start prometheus prometheus --config.file=.data/prometheus/prometheus.yml --storage.tsdb.path=.data/prometheus/data \
    --storage.tsdb.retention.time=2d --web.listen-address=127.0.0.1:$PROM_PORT --log.level=warn
  PROM=http://127.0.0.1:$PROM_PORT
fi

for _ in $(seq 100); do
  curl -fsS "http://$HTTP_ADDR/healthz" >/dev/null 2>&1 && break
  sleep 0.2
done
cat <<MSG

  چاپار is running (profile: $CHAPAR_PROFILE)
  Panel and API:       http://$HTTP_ADDR
  Demo login:          demo / Demo@12345
  Back office (staff): http://$HTTP_ADDR/admin/login  admin / Admin@12345 (code texted to 09120000099)
  Simulated handsets:  http://$SIM_HTTP_ADDR/messages
  Metrics:             api http://127.0.0.1:$M_API/metrics, worker :$M_WORKER, gateway :$M_GW
  Prometheus:          $PROM (config .data/prometheus/prometheus.yml; Grafana: import deploy/grafana/chapar.json)
  Logs:                $LOGS/

  Press Ctrl-C to stop.
MSG
wait -n "${pids[@]}" || true
echo "a process exited; see $LOGS/"

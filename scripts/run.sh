#!/usr/bin/env bash
# `make run`: the whole product on this machine with the demo account. Starts the
# carrier simulator (three operators), the SMPP gateway, the worker and the API
# (which serves the panel), after migrating and seeding. Ctrl-C stops everything.
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
start smpp-gateway ./bin/smpp-gateway
start worker ./bin/worker
start api ./bin/api serve

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
  Logs:                $LOGS/

  Press Ctrl-C to stop.
MSG
wait -n "${pids[@]}" || true
echo "a process exited; see $LOGS/"

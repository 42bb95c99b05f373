#!/usr/bin/env bash
# Playwright end-to-end tests against the real stack: builds the panel and the
# binaries, then starts the simulator, gateway, worker and API on their own ports
# with their own database (created here, dropped after) and a private Redis, runs
# web/e2e/*.test.mjs in Debian's Chromium, and stops everything.
set -euo pipefail
cd "$(dirname "$0")/.."
set -a; . ./.data/env; set +a
[ -x /usr/bin/chromium ] || { echo "installing chromium"; apt-get install -y -qq chromium >/dev/null; }

(cd web && npm run build >/dev/null)
go build -o bin/ ./cmd/...

RUN=$(mktemp -d /tmp/chapar-e2e.XXXXXX)
DBNAME=chapar_e2e_$(date +%s)_$$
ADMIN=${TEST_DATABASE_URL}
DB_URL=${ADMIN%/*}/$DBNAME?sslmode=disable
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
REDIS_PORT=$(free_port); API_PORT=$(free_port); SIM_HTTP=$(free_port); GW_HTTP=$(free_port)
P1=$(free_port); P2=$(free_port); P3=$(free_port)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  redis-cli -p "$REDIS_PORT" shutdown nosave >/dev/null 2>&1 || true
  psql "$ADMIN" -qc "DROP DATABASE IF EXISTS $DBNAME WITH (FORCE)" >/dev/null 2>&1 || true
  if [ "${KEEP_E2E_LOGS:-}" = "" ]; then rm -rf "$RUN"; else echo "logs in $RUN"; fi
}
trap cleanup EXIT
psql "$ADMIN" -qc "CREATE DATABASE $DBNAME" >/dev/null
redis-server --daemonize yes --bind 127.0.0.1 --port "$REDIS_PORT" --save '' --appendonly no --dir "$RUN" --logfile "$RUN/redis.log"

export DATABASE_URL=$DB_URL REDIS_ADDR=127.0.0.1:$REDIS_PORT REDIS_DB=0 HTTP_ADDR=127.0.0.1:$API_PORT
export SIM_HTTP_ADDR=127.0.0.1:$SIM_HTTP SIM_OPERATORS="mci:$P1,irancell:$P2,rightel:$P3"
export GATEWAY_BINDS="mci=127.0.0.1:$P1,irancell=127.0.0.1:$P2,rightel=127.0.0.1:$P3" GATEWAY_HTTP_ADDR=127.0.0.1:$GW_HTTP
export SIM_RECEIPT_DELAY_MS=${SIM_RECEIPT_DELAY_MS:-300-1500} OTP_RESEND_AFTER=5s
for _ in $(seq 50); do redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1 && break; sleep 0.1; done
./bin/api migrate up >/dev/null
./bin/api seed-demo >/dev/null
start() { local n=$1; shift; "$@" >"$RUN/$n.log" 2>&1 & pids+=($!); }
start smsc-sim ./bin/smsc-sim
start smpp-gateway ./bin/smpp-gateway
start worker ./bin/worker
start api ./bin/api serve
for _ in $(seq 100); do curl -fsS "http://$HTTP_ADDR/readyz" >/dev/null 2>&1 && break; sleep 0.2; done
curl -fsS "http://$HTTP_ADDR/readyz" >/dev/null || { echo "stack not ready"; tail -n 20 "$RUN"/*.log; exit 1; }

cd web
PANEL_URL=http://$HTTP_ADDR SIM_URL=http://$SIM_HTTP_ADDR node --test --test-concurrency=1 e2e/*.test.mjs

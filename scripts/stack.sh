# shellcheck shell=bash
# Sourced by scripts/e2e.sh and scripts/bench.sh: runs the whole stack (carrier
# simulator, SMPP gateway, worker, API) on private ports of 127.0.0.1, with its
# own database (created on the server named by TEST_DATABASE_URL in .data/env,
# dropped afterwards) and a private Redis, and stops and cleans everything up.
#
#   stack_init NAME       temp dir, database name, free ports; exports the settings
#   stack_start_redis     private Redis (no persistence) on its port
#   stack_prepare_db      create the database, migrate, seed the demo account
#                         ($STACK_BIN/api; STACK_BIN defaults to ./bin)
#   stack_start NAME CMD… start a process in the background, log to $STACK_RUN/NAME.log;
#                         api, worker and smpp-gateway serve their Prometheus metrics
#                         on STACK_METRICS[NAME] (METRICS_ADDR, a free loopback port)
#   stack_start_prometheus  Debian's Prometheus scraping them every second with the
#                         alert rules of deploy/prometheus; exports STACK_PROMETHEUS_URL
#   stack_wait_ready [s]  wait for the API's /readyz (database, Redis, an SMPP bind)
#   stack_start_all       start the simulator, gateway, worker and API from $STACK_BIN
#                         and wait until the API is ready (180 s at most)
#   stack_stop NAME…      stop those processes now (TERM, then KILL after STACK_STOP_TIMEOUT)
#   stack_cleanup         stop the processes (TERM, then KILL after STACK_STOP_TIMEOUT),
#                         stop Redis, drop the database, remove the temp dir
#                         (kept when KEEP_STACK_LOGS is set; KEEP_STACK_DB keeps the
#                         database for inspection)
#
# The caller sets `set -euo pipefail`, cd's to the repository root, loads .data/env
# (make services) and installs `trap stack_cleanup EXIT` after stack_init.
# STACK_PID[name] holds the pid of each started process.

# The readiness probe and the callers' API calls use curl (jq for bench): a fresh
# machine may have neither.
. scripts/apt.sh
command -v curl >/dev/null || apt_install curl
command -v jq >/dev/null || apt_install jq

STACK_PIDS=()
declare -A STACK_PID=() STACK_METRICS=()
STACK_STOP_TIMEOUT=${STACK_STOP_TIMEOUT:-20}
STACK_BIN=${STACK_BIN:-./bin} # where api, worker, smpp-gateway and smsc-sim are

# stack_free_ports N prints N distinct free ports (all sockets are held open until
# every port is chosen, so no port is handed out twice).
stack_free_ports() {
  python3 -c 'import socket,sys
ss=[socket.socket() for _ in range(int(sys.argv[1]))]
for s in ss: s.bind(("127.0.0.1",0))
print(" ".join(str(s.getsockname()[1]) for s in ss))' "$1"
}

stack_init() { # NAME
  local name=$1
  STACK_RUN=$(mktemp -d "/tmp/chapar-$name.XXXXXX")
  STACK_DB=chapar_${name}_$(date +%s)_$$
  STACK_ADMIN_URL=${TEST_DATABASE_URL:?TEST_DATABASE_URL is not set: run make services}
  local api sim_http gw_http p1 p2 p3 p4 m_api m_worker m_gw
  read -r STACK_REDIS_PORT api sim_http gw_http p1 p2 p3 p4 m_api m_worker m_gw <<<"$(stack_free_ports 11)"
  STACK_METRICS=([api]=127.0.0.1:$m_api [worker]=127.0.0.1:$m_worker [smpp-gateway]=127.0.0.1:$m_gw)
  STACK_SMPP_MCI=127.0.0.1:$p1 STACK_SMPP_IRANCELL=127.0.0.1:$p2 STACK_SMPP_RIGHTEL=127.0.0.1:$p3
  export DATABASE_URL="${STACK_ADMIN_URL%/*}/$STACK_DB?sslmode=disable"
  export REDIS_ADDR=127.0.0.1:$STACK_REDIS_PORT REDIS_DB=0 HTTP_ADDR=127.0.0.1:$api
  export SIM_HTTP_ADDR=127.0.0.1:$sim_http SIM_OPERATORS="mci:$p1,irancell:$p2,rightel:$p3,sandbox:$p4"
  export GATEWAY_BINDS="mci=$STACK_SMPP_MCI,irancell=$STACK_SMPP_IRANCELL,rightel=$STACK_SMPP_RIGHTEL,sandbox=127.0.0.1:$p4"
  export GATEWAY_HTTP_ADDR=127.0.0.1:$gw_http
}

stack_start_redis() {
  redis-server --daemonize yes --bind 127.0.0.1 --port "$STACK_REDIS_PORT" --save '' --appendonly no \
    --dir "$STACK_RUN" --logfile "$STACK_RUN/redis.log" --pidfile "$STACK_RUN/redis.pid"
  # Deadlines, not try counts, and generous: a loaded machine only makes the wait longer.
  local deadline=$((SECONDS + 30))
  while ((SECONDS < deadline)); do redis-cli -p "$STACK_REDIS_PORT" ping >/dev/null 2>&1 && break; sleep 0.1; done
  redis-cli -p "$STACK_REDIS_PORT" ping >/dev/null || { echo "private Redis did not start" >&2; return 1; }
  deadline=$((SECONDS + 10))
  while ((SECONDS < deadline)); do [ -s "$STACK_RUN/redis.pid" ] && break; sleep 0.05; done
  STACK_PID[redis]=$(cat "$STACK_RUN/redis.pid" 2>/dev/null || true)
}

stack_prepare_db() {
  psql "$STACK_ADMIN_URL" -qc "CREATE DATABASE $STACK_DB" >/dev/null
  STACK_DB_CREATED=1
  LOG_LEVEL=warn "$STACK_BIN/api" migrate up >/dev/null
  "$STACK_BIN/api" seed-demo >/dev/null
  # Tests run at any hour: advertising lines send all day unless a test sets
  # the sending hours itself (docs/sending-rules.md).
  psql "$DATABASE_URL" -qc "UPDATE send_hours SET start_minute = 0, end_minute = 1440" >/dev/null
}

stack_start() { # NAME CMD...
  local name=$1; shift
  if [ -n "${STACK_METRICS[$name]:-}" ]; then set -- env METRICS_ADDR="${STACK_METRICS[$name]}" "$@"; fi
  "$@" >"$STACK_RUN/$name.log" 2>&1 &
  STACK_PIDS+=($!)
  STACK_PID[$name]=$!
}

# stack_start_all: the whole stack from $STACK_BIN (the carrier simulator, the SMPP
# gateway, the worker and the API), ready; 180 s is a safety net for a cold start
# on a loaded machine.
stack_start_all() {
  stack_start smsc-sim "$STACK_BIN/smsc-sim"
  stack_start smpp-gateway "$STACK_BIN/smpp-gateway"
  stack_start worker "$STACK_BIN/worker"
  stack_start api "$STACK_BIN/api" serve
  stack_wait_ready 180
}

stack_wait_ready() { # [seconds]
  local deadline=$((SECONDS + ${1:-20}))
  while ((SECONDS < deadline)); do curl -fsS --max-time 5 "http://$HTTP_ADDR/readyz" >/dev/null 2>&1 && return 0; sleep 0.2; done
  echo "stack not ready after ${1:-20}s" >&2
  tail -n 20 "$STACK_RUN"/*.log >&2 || true
  return 1
}

# prometheus_config FILE JOB=ADDR[,ADDR…]…: a Prometheus configuration scraping
# the targets of each job (named chapar-JOB) every second (PROMETHEUS_INTERVAL),
# with the alert rules of deploy/prometheus.
prometheus_config() {
  local file=$1 t addrs every=${PROMETHEUS_INTERVAL:-1s}; shift
  {
    printf 'global:\n  scrape_interval: %s\n  evaluation_interval: %s\n' "$every" "$every"
    printf 'rule_files:\n  - %s\nscrape_configs:\n' "$(pwd)/deploy/prometheus/rules.yml"
    for t in "$@"; do
      addrs=${t#*=}
      printf '  - job_name: chapar-%s\n    static_configs:\n      - targets: ["%s"]\n' "${t%%=*}" "${addrs//,/\", \"}"
    done
  } >"$file"
}

stack_start_prometheus() {
  command -v prometheus >/dev/null || apt_install --no-install-recommends prometheus
  local port; port=$(stack_free_ports 1)
  prometheus_config "$STACK_RUN/prometheus.yml" api="${STACK_METRICS[api]}" worker="${STACK_METRICS[worker]}" \
    gateway="${STACK_METRICS[smpp-gateway]}"
  promtool check config "$STACK_RUN/prometheus.yml" >/dev/null
  stack_start prometheus prometheus --config.file="$STACK_RUN/prometheus.yml" --storage.tsdb.path="$STACK_RUN/prometheus-data" \
    --web.listen-address="127.0.0.1:$port" --log.level=warn
  export STACK_PROMETHEUS_URL=http://127.0.0.1:$port
  local deadline=$((SECONDS + 60))
  while ((SECONDS < deadline)); do curl -fsS --max-time 2 "$STACK_PROMETHEUS_URL/-/ready" >/dev/null 2>&1 && return 0; sleep 0.2; done
  echo "Prometheus not ready after 60s" >&2
  tail -n 20 "$STACK_RUN/prometheus.log" >&2 || true
  return 1
}

# stack_term PID…: TERM, wait up to STACK_STOP_TIMEOUT seconds each, then KILL.
stack_term() {
  local p t
  [ "$#" -gt 0 ] || return 0
  for p in "$@"; do kill -TERM "$p" 2>/dev/null || true; done
  for p in "$@"; do
    for ((t = 0; t < STACK_STOP_TIMEOUT * 10; t++)); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$p" 2>/dev/null || true
  done
  wait "$@" 2>/dev/null || true
}

stack_stop() { # NAME...
  local n pids=()
  for n in "$@"; do [ -n "${STACK_PID[$n]:-}" ] && pids+=("${STACK_PID[$n]}"); done
  stack_term "${pids[@]}"
}

stack_cleanup() {
  stack_term "${STACK_PIDS[@]}"
  STACK_PIDS=()
  if [ -n "${STACK_REDIS_PORT:-}" ]; then
    redis-cli -p "$STACK_REDIS_PORT" shutdown nosave >/dev/null 2>&1 || true
  fi
  if [ -n "${STACK_DB_CREATED:-}" ] && [ -n "${KEEP_STACK_DB:-}" ]; then
    echo "database kept: ${STACK_ADMIN_URL%/*}/$STACK_DB" >&2
  elif [ -n "${STACK_DB_CREATED:-}" ]; then
    psql "$STACK_ADMIN_URL" -qc "DROP DATABASE IF EXISTS $STACK_DB WITH (FORCE)" >/dev/null 2>&1 || true
  fi
  if [ -n "${STACK_RUN:-}" ] && [ -d "$STACK_RUN" ]; then
    if [ -z "${KEEP_STACK_LOGS:-}" ]; then rm -rf "$STACK_RUN"; else echo "logs in $STACK_RUN" >&2; fi
  fi
}

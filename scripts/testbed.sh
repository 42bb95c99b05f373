#!/usr/bin/env bash
# The multi-host test bed (docs/testbed.md): Chapar's processes on separate "hosts" —
# Linux network namespaces on this machine, joined by veth pairs to a private bridge
# that carries 10.213.7.0/24 and nothing else (no namespace has a default route, so no
# packet can leave the bridge).
#
#   db     10.213.7.10   PostgreSQL (its own cluster, under $TESTBED_DIR) and Redis
#   sim    10.213.7.20   the carrier simulator (cmd/smsc-sim)
#   appN   10.213.7.3N   api + worker + smpp-gateway, N = 1..PAIRS
#
#   bash scripts/testbed.sh up [PAIRS]      build, create the hosts, start everything (PAIRS = 2)
#   bash scripts/testbed.sh smoke [N]       send N recipients (10,000) through app2's API (app1's
#                                           when only one), wait for every receipt, and check the
#                                           simulator saw each exactly once and every gateway worked
#   bash scripts/testbed.sh measure [N]     per-recipient CPU of each host (and net of the idle cost, measured for 15 s first), WAL, table growth and
#                                           Redis memory for N recipients (100,000), after a warm-up send of
#                                           TESTBED_WARMUP (20,000) that is not counted
#   bash scripts/testbed.sh chaos [N]       the chaos suite (scripts/chaos.sh): a send of N (100,000)
#                                           per fault, the fault mid-send, a table of what it cost
#   bash scripts/testbed.sh restart         restart every api, worker and gateway with the current
#                                           settings (TESTBED_EXTRA_ENV); database and Redis kept
#   bash scripts/testbed.sh active K        run K of the pairs (the rest stopped), to measure 1 and 3
#                                           pairs in turns on one bed
#   bash scripts/testbed.sh down            stop every process and remove the hosts and the bridge
#   bash scripts/testbed.sh exec HOST CMD…  run a command on a host (e.g. exec app1 ss -tnp)
#   bash scripts/testbed.sh patronictl ARGS… patronictl with the bed's configuration (TESTBED_PG=patroni)
#
# TESTBED_PG=patroni runs PostgreSQL under Patroni instead of on the db host: etcd on
# etcd1..3 (10.213.7.41..43), Patroni on pg1..pgK (10.213.7.11.., TESTBED_PG_NODES=2),
# a primary and a synchronous standby (scripts/patroni.sh).
# TESTBED_NET (10.213.7), TESTBED_BRIDGE (chbr-chapar), TESTBED_PREFIX (chapar, the
# namespaces) and TESTBED_DIR name another bed, so that two run side by side.
# `up` takes 2–3 minutes on a loaded machine (the build cached), `down` seconds.
#
# TESTBED_GATEWAY_ENV adds settings to the gateways only (TESTBED_EXTRA_ENV: every
# app process). TESTBED_POOLER=pgbouncer (for up and restart) puts PgBouncer in
# transaction mode on the db host between the apps and PostgreSQL.
# TESTBED_PPROF=1 (for up, restart and active) makes every app process serve Go's
# profiles on its host's address: api :6061, worker :6062, gateway :6063.
# Every app process serves its Prometheus metrics on its host's address (api :9466,
# worker :9464, gateway :9465), and `up` starts Debian's Prometheus on this machine
# scraping them all every 5 s ($TESTBED_DIR/prometheus.yml; its address is logged).
#
# Needs root (ip netns), iproute2, PostgreSQL 15+ binaries, redis-server, curl and jq.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
. scripts/apt.sh

# Two beds can run side by side on one machine when each has its own network,
# bridge, namespace prefix and directory.
NET=${TESTBED_NET:-10.213.7}
BRIDGE=${TESTBED_BRIDGE:-chbr-chapar}
PREFIX=${TESTBED_PREFIX:-chapar}
# The host side of each veth pair (interface names are at most 15 characters).
VETH=$([ "$PREFIX" = chapar ] && echo chv || echo "${PREFIX:0:6}v")
TESTBED_DIR=${TESTBED_DIR:-/var/tmp/chapar-testbed}
PG_DB=chapar
# Binds the carrier grants per operator (the simulator refuses one more); every
# gateway is configured with all of them and they split by leases in Redis.
BINDS=${TESTBED_BINDS:-3}
log() { printf '[testbed] %s\n' "$*" >&2; }

host_ip() { # HOST
  case $1 in
    db) echo "$NET.10" ;;
    sim) echo "$NET.20" ;;
    app*) echo "$NET.3${1#app}" ;;
    pg*) echo "$NET.1${1#pg}" ;;
    etcd*) echo "$NET.4${1#etcd}" ;;
    *) echo "unknown host $1" >&2; return 1 ;;
  esac
}
on() { local h=$1; shift; ip netns exec "$PREFIX-$h" "$@"; }
. scripts/patroni.sh

pg_bin() {
  local d
  for d in /usr/lib/postgresql/*/bin; do [ -x "$d/$1" ] && { echo "$d/$1"; return; }; done
  command -v "$1"
}

need_tools() {
  [ "$(id -u)" = 0 ] || { echo "the test bed needs root (network namespaces)" >&2; exit 1; }
  command -v ip >/dev/null || apt_install iproute2
  command -v jq >/dev/null || apt_install jq
  command -v curl >/dev/null || apt_install curl
  command -v redis-server >/dev/null || apt_install redis-server
  command -v prometheus >/dev/null || apt_install --no-install-recommends prometheus
  [ -n "$(pg_bin initdb 2>/dev/null)" ] || apt_install postgresql
  # The number bank's migration needs PostGIS for the bed's own cluster.
  local major; major=$(basename "$(dirname "$(dirname "$(pg_bin initdb)")")")
  [ -e "/usr/share/postgresql/$major/extension/postgis.control" ] || apt_install "postgresql-$major-postgis-3"
  patroni_tools
}

add_host() { # HOST
  local h=$1 ip; ip=$(host_ip "$h")
  ip netns add "$PREFIX-$h"
  ip link add "$VETH-$h" type veth peer name eth0 netns "$PREFIX-$h"
  ip link set "$VETH-$h" master "$BRIDGE" up
  on "$h" ip addr add "$ip/24" dev eth0
  on "$h" ip link set eth0 up
  on "$h" ip link set lo up
}

make_network() { # PAIRS
  ip link add "$BRIDGE" type bridge
  ip addr add "$NET.1/24" dev "$BRIDGE"
  ip link set "$BRIDGE" up
  local h
  for h in db sim $(seq -f 'app%g' 1 "$1") $(patroni_host_list); do add_host "$h"; done
}

# start NAME HOST CMD… runs a process on a host in the background, logging to its file.
start() {
  local name=$1 h=$2; shift 2
  ip netns exec "$PREFIX-$h" "$@" >"$TESTBED_DIR/$name.log" 2>&1 &
  echo $! >"$TESTBED_DIR/$name.pid"
}

start_db() {
  if patroni_on; then
    start_redis
    start_patroni_cluster
    return
  fi
  local ip; ip=$(host_ip db)
  local pgdata=$TESTBED_DIR/pg
  id postgres >/dev/null 2>&1 || useradd --system --home /var/lib/postgresql postgres
  mkdir -p "$pgdata" && chown postgres "$pgdata"
  runuser -u postgres -- "$(pg_bin initdb)" -D "$pgdata" -A trust -U postgres >/dev/null
  echo "host all all $NET.0/24 trust" >>"$pgdata/pg_hba.conf"
  on db runuser -u postgres -- "$(pg_bin pg_ctl)" -D "$pgdata" -l "$pgdata/postgres.log" -w \
    -o "-c listen_addresses=$ip -c port=5432 -c unix_socket_directories=$pgdata -c max_connections=300 -c shared_preload_libraries=pg_stat_statements" start >/dev/null
  start_redis
  psql "host=$ip user=postgres dbname=postgres" -qc "CREATE DATABASE $PG_DB" >/dev/null
}

# start_redis: Redis on the db host, with its append-only file (the task queues
# and the receipts stream live there: a restart must not lose them). With
# TESTBED_REDIS=sentinel (as `make chaos` runs it): a master (6379), a replica
# (6380) and a Sentinel (26379) watching them as "chapar"; the apps follow the
# master through the Sentinel and the gateways acknowledge a receipt only once the
# replica holds it (REDIS_WAIT_REPLICAS=1). Each server runs from its own config
# file, which Sentinel rewrites on a failover, so a restart keeps its role.
start_redis() {
  redis_node 6379 ""
  [ "${TESTBED_REDIS:-}" = sentinel ] || return 0
  redis_node 6380 "replicaof $(host_ip db) 6379"
  cat >"$TESTBED_DIR/sentinel.conf" <<CONF
port 26379
bind $(host_ip db)
protected-mode no
daemonize yes
dir $TESTBED_DIR
logfile $TESTBED_DIR/sentinel.log
pidfile $TESTBED_DIR/sentinel.pid
sentinel monitor chapar $(host_ip db) 6379 1
sentinel down-after-milliseconds chapar 5000
sentinel failover-timeout chapar 20000
CONF
  on db redis-server "$TESTBED_DIR/sentinel.conf" --sentinel
}

# redis_node PORT EXTRA: one Redis server of the bed, from its config file
# (written the first time; a restart reuses it as Sentinel left it).
redis_node() {
  local port=$1 conf=$TESTBED_DIR/redis-$1.conf
  if [ ! -f "$conf" ]; then
    mkdir -p "$TESTBED_DIR/redis-$port"
    cat >"$conf" <<CONF
bind $(host_ip db)
port $port
protected-mode no
daemonize yes
save ""
appendonly yes
appendfsync everysec
dir $TESTBED_DIR/redis-$port
logfile $TESTBED_DIR/redis-$port.log
pidfile $TESTBED_DIR/redis-$port.pid
$2
CONF
  fi
  on db redis-server "$conf"
}

# redis_master: "host port" of the master (the Sentinel's view in sentinel mode).
redis_master() {
  if [ "${TESTBED_REDIS:-}" = sentinel ]; then
    redis-cli -h "$(host_ip db)" -p 26379 sentinel get-master-addr-by-name chapar | paste -sd' '
  else
    echo "$(host_ip db) 6379"
  fi
}

# redis_cli ARGS…: redis-cli against the master.
redis_cli() {
  local host port
  read -r host port <<<"$(redis_master)"
  redis-cli -h "$host" -p "$port" "$@"
}

# restart_redis_master: shut the master down (its append-only file is written
# out) and start it again from its config file after 2 s.
restart_redis_master() {
  local host port
  read -r host port <<<"$(redis_master)"
  on db redis-cli -h "$host" -p "$port" shutdown >/dev/null 2>&1 || true
  sleep 2
  redis_node "$port" ""
}

app_env() { # N: the environment of app host N
  local n=$1 db sim ip
  db=$(host_ip db); sim=$(host_ip sim); ip=$(host_ip "app$n")
  database_env
  echo "REDIS_ADDR=$db:6379" \
    "HTTP_ADDR=$ip:8080" "GATEWAY_HTTP_ADDR=$ip:2790" "GATEWAY_INSTANCE_ID=app$n" \
    "GATEWAY_BINDS=mci=$sim:2775,irancell=$sim:2776,rightel=$sim:2777,sandbox=$sim:2778" "GATEWAY_BINDS_PER_OPERATOR=$BINDS" \
    "SIM_HTTP_ADDR=$sim:2780" "CHAPAR_PROFILE=${CHAPAR_PROFILE:-bench}" "LOG_LEVEL=warn" "FILES_DIR=$TESTBED_DIR/files" \
    "GATEWAY_JOURNAL_DIR=$TESTBED_DIR/app$n/journal" \
    $(redis_env) ${TESTBED_EXTRA_ENV:-}
}

# database_env: how the apps reach PostgreSQL: straight (every Patroni member
# with TESTBED_PG=patroni, scripts/patroni.sh), or with TESTBED_POOLER=pgbouncer
# through PgBouncer on the db host (:6432) and straight for migrations and
# session locks (not with TESTBED_PG=patroni).
database_env() {
  local direct; direct=$(database_url)
  if [ "${TESTBED_POOLER:-}" = pgbouncer ]; then
    echo "DATABASE_URL=postgres://postgres@$(host_ip db):6432/$PG_DB?sslmode=disable DATABASE_POOLER=pgbouncer DATABASE_DIRECT_URL=$direct"
  else
    echo "DATABASE_URL=$direct"
  fi
}

# start_pgbouncer: with TESTBED_POOLER=pgbouncer, Debian's PgBouncer on the db host
# (:6432, transaction pooling, TESTBED_POOL_SIZE (20) server connections;
# scripts/pgbouncer.sh), once: later calls find it running. Behind it the
# database turns JIT off itself (the apps cannot ask at connection).
start_pgbouncer() {
  [ "${TESTBED_POOLER:-}" = pgbouncer ] || return 0
  [ -e "$TESTBED_DIR/pgbouncer.pid" ] && kill -0 "$(cat "$TESTBED_DIR/pgbouncer.pid")" 2>/dev/null && return 0
  . scripts/pgbouncer.sh
  local ip; ip=$(host_ip db)
  psql "host=$ip user=postgres dbname=$PG_DB" -qc "ALTER DATABASE $PG_DB SET jit = off" >/dev/null
  pgbouncer_ini "$TESTBED_DIR/pgbouncer" "$ip" 6432 "$ip" 5432 postgres "${TESTBED_POOL_SIZE:-20}"
  # shellcheck disable=SC2046 # the command's words
  start pgbouncer db $(pgbouncer_cmd "$TESTBED_DIR/pgbouncer")
  pgbouncer_wait "postgres://postgres@$ip:6432/$PG_DB?sslmode=disable"
  log "PgBouncer on $ip:6432 in front of the db host's PostgreSQL"
}

# redis_env: how the apps reach Redis in sentinel mode.
redis_env() {
  [ "${TESTBED_REDIS:-}" = sentinel ] || return 0
  echo "REDIS_MODE=sentinel REDIS_SENTINELS=$(host_ip db):26379 REDIS_MASTER_NAME=chapar REDIS_WAIT_REPLICAS=1"
}

up() {
  local pairs=${1:-2} n
  need_tools
  [ ! -e "/run/netns/$PREFIX-db" ] || { echo "the test bed is up already (down first)" >&2; exit 1; }
  . scripts/toolchain.sh
  [ -f web/dist/index.html ] || { make --no-print-directory web-deps && (cd web && npm run build >/dev/null); }
  go build -o bin/ ./cmd/...
  rm -rf "$TESTBED_DIR"; mkdir -p "$TESTBED_DIR/files"; chmod 755 "$TESTBED_DIR"
  echo "$pairs" >"$TESTBED_DIR/pairs"
  echo "$pairs" >"$TESTBED_DIR/hosts"
  make_network "$pairs"
  start_db
  log "db host $(host_ip db): $(patroni_on && echo "Redis (PostgreSQL on $(pg_hosts))" || echo "PostgreSQL and Redis")"
  start_pgbouncer
  start sim sim env CHAPAR_PROFILE="${CHAPAR_PROFILE:-bench}" SIM_HOST="$(host_ip sim)" SIM_MAX_BINDS="$BINDS" \
    SIM_HTTP_ADDR="$(host_ip sim):2780" "$ROOT/bin/smsc-sim"
  # shellcheck disable=SC2046
  on app1 env $(app_env 1) "$ROOT/bin/api" migrate up >/dev/null
  # shellcheck disable=SC2046
  on app1 env $(app_env 1) "$ROOT/bin/api" seed-demo >/dev/null
  start_apps "$pairs"
  start_prometheus "$pairs"
  log "up: $pairs api/worker/gateway pairs; panel at http://$(host_ip app1):8080 (demo / Demo@12345); logs in $TESTBED_DIR"
}

# start_prometheus PAIRS: Debian's Prometheus on this machine (it reaches the hosts
# over the bridge), scraping every app process of the bed every 5 s.
start_prometheus() {
  local n api=() worker=() gateway=() port
  for n in $(seq 1 "$1"); do
    api+=("$(host_ip "app$n"):9466") worker+=("$(host_ip "app$n"):9464") gateway+=("$(host_ip "app$n"):9465")
  done
  ( . scripts/stack.sh
    IFS=,
    PROMETHEUS_INTERVAL=5s prometheus_config "$TESTBED_DIR/prometheus.yml" "api=${api[*]}" "worker=${worker[*]}" "gateway=${gateway[*]}" )
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  prometheus --config.file="$TESTBED_DIR/prometheus.yml" --storage.tsdb.path="$TESTBED_DIR/prometheus" \
    --web.listen-address="127.0.0.1:$port" --log.level=warn >"$TESTBED_DIR/prometheus.log" 2>&1 &
  echo $! >"$TESTBED_DIR/prometheus.pid"
  log "Prometheus at http://127.0.0.1:$port (targets: $TESTBED_DIR/prometheus.yml)"
}

# start_apps PAIRS: api, worker and gateway on each app host, then wait until ready.
start_apps() {
  local n
  start_pgbouncer
  for n in $(seq 1 "$1"); do start_pair "$n"; done
  for n in $(seq 1 "$1"); do wait_ready "$n"; done
}

# start_pair N: api, worker and gateway on app host N.
start_pair() {
  local ip; ip=$(host_ip "app$1")
  # shellcheck disable=SC2046
  start "api$1" "app$1" env $(app_env "$1") $(pprof_env "$1" 6061) METRICS_ADDR="$ip:9466" "$ROOT/bin/api" serve
  # shellcheck disable=SC2046
  start "worker$1" "app$1" env $(app_env "$1") $(pprof_env "$1" 6062) METRICS_ADDR="$ip:9464" "$ROOT/bin/worker"
  # shellcheck disable=SC2046
  start "gateway$1" "app$1" env $(app_env "$1") $(pprof_env "$1" 6063) METRICS_ADDR="$ip:9465" ${TESTBED_GATEWAY_ENV:-} "$ROOT/bin/smpp-gateway"
}

# pprof_env N PORT: with TESTBED_PPROF=1, the process serves Go's profiles on app
# host N's PORT (api 6061, worker 6062, gateway 6063), e.g.
# curl -o gw.pprof "http://10.213.7.31:6063/debug/pprof/profile?seconds=10".
pprof_env() { [ -z "${TESTBED_PPROF:-}" ] || echo "PPROF_ADDR=$(host_ip "app$1"):$2"; }

# restart_apps: stop every app process (SIGTERM: they drain) and start them again
# with the current settings (TESTBED_EXTRA_ENV), the database and Redis kept.
restart_apps() {
  local pairs f; pairs=$(cat "$TESTBED_DIR/pairs")
  for f in "$TESTBED_DIR"/api*.pid "$TESTBED_DIR"/worker*.pid "$TESTBED_DIR"/gateway*.pid; do
    kill "$(cat "$f")" 2>/dev/null || true
  done
  for f in "$TESTBED_DIR"/api*.pid "$TESTBED_DIR"/worker*.pid "$TESTBED_DIR"/gateway*.pid; do
    while kill -0 "$(cat "$f")" 2>/dev/null; do sleep 0.2; done
  done
  start_apps "$pairs"
  log "restarted $pairs api/worker/gateway pairs"
}

# set_active K: run K of the bed's app pairs (the others' processes stopped, their
# hosts kept), so that 1 and 3 pairs can be measured in turns on one bed; waits
# until the running gateways hold every bind the carrier grants.
set_active() {
  local k=$1 hosts n f; hosts=$(cat "$TESTBED_DIR/hosts")
  [ "$k" -ge 1 ] && [ "$k" -le "$hosts" ] || { echo "active: want 1..$hosts pairs" >&2; return 2; }
  for n in $(seq $(( k + 1 )) "$hosts"); do
    for f in "$TESTBED_DIR/api$n.pid" "$TESTBED_DIR/worker$n.pid" "$TESTBED_DIR/gateway$n.pid"; do
      [ -e "$f" ] && kill "$(cat "$f")" 2>/dev/null || true
    done
    for f in "$TESTBED_DIR/api$n.pid" "$TESTBED_DIR/worker$n.pid" "$TESTBED_DIR/gateway$n.pid"; do
      while [ -e "$f" ] && kill -0 "$(cat "$f")" 2>/dev/null; do sleep 0.2; done
      rm -f "$f"
    done
  done
  echo "$k" >"$TESTBED_DIR/pairs"
  for n in $(seq 1 "$k"); do
    [ -e "$TESTBED_DIR/gateway$n.pid" ] && kill -0 "$(cat "$TESTBED_DIR/gateway$n.pid")" 2>/dev/null && continue
    start_pair "$n"
    wait_ready "$n"
  done
  local _ sim="http://$(host_ip sim):2780"
  for _ in $(seq 300); do
    binds_spread "$k" && break
    sleep 0.2
  done
  log "$k of $hosts app pairs running; binds at the simulator: $(curl -fsS "$sim/stats" | jq -c '[.operators[] | .bound]')"
}

# binds_spread K: the carrier's binds are all held, and each of the K running
# gateways holds at least its floor share of every operator's.
binds_spread() {
  local k=$1 n ops sim; sim="http://$(host_ip sim):2780"
  curl -fsS "$sim/stats" | jq -e --argjson q "$BINDS" '[.operators[] | .bound] | min == $q' >/dev/null || return 1
  ops=$(curl -fsS "$sim/stats" | jq '.operators | length')
  for n in $(seq 1 "$k"); do
    curl -fsS "http://$(host_ip "app$n"):2790/status" |
      jq -e --argjson least $(( ops * (BINDS / k) )) '[.binds[] | select(.state == "bound")] | length >= $least' >/dev/null || return 1
  done
}

wait_ready() { # N
  local url="http://$(host_ip "app$1"):8080/readyz" _
  for _ in $(seq 150); do curl -fsS --max-time 2 "$url" >/dev/null 2>&1 && return 0; sleep 0.2; done
  echo "app$1 not ready; its logs:" >&2; tail -n 20 "$TESTBED_DIR"/*"$1".log >&2; return 1
}

psql_db() { psql "$(pg_conninfo)" -Atc "$1"; }

# credit_demo N: enough credit for N single-part recipients, so that repeated runs
# never run the demo wallet dry (before any CPU is read: the command runs on app1).
credit_demo() { on app1 env $(app_env 1) "$ROOT/bin/api" admin credit demo $(( $1 * 1000 )) >/dev/null; }

# send_n N: N recipients in sends of 1,000 through app2's API (app1's when alone),
# as the demo account from its service line (which the market's sending hours do not
# hold, so the bed works at any hour); waits until every one has its receipt. Prints
# the seconds.
send_n() {
  local n=$1 pairs api token t0 sent=0 chunk base
  pairs=$(cat "$TESTBED_DIR/pairs")
  api="http://$(host_ip "app$(( pairs > 1 ? 2 : 1 ))"):8080/v1/api"
  token=$(curl -fsS --max-time 10 -H 'Content-Type: application/json' \
    -d '{"username":"demo","password":"Demo@12345"}' "$api/acl/auth/login" | jq -r .data.token)
  [ -n "$token" ] && [ "$token" != null ] || { echo "demo login failed" >&2; return 1; }
  base=$(psql_db "SELECT coalesce(sum(delivered), 0) FROM sends")
  t0=$(date +%s.%N)
  while [ "$sent" -lt "$n" ]; do
    chunk=$(( n - sent < 1000 ? n - sent : 1000 ))
    jq -cn --argjson from "$sent" --argjson k "$chunk" \
      '{text: "آزمون بستر چند میزبانی", sender: "500012345", numbers: [range($from; $from + $k) | "0912" + ("0000000" + tostring)[-7:]]}' |
      curl -fsS --max-time 60 -H "Authorization: Bearer $token" -H 'Content-Type: application/json' -d @- "$api/send" >/dev/null ||
      { echo "send of recipients $sent.. refused" >&2; return 1; }
    sent=$(( sent + chunk ))
  done
  local _ got=0
  for _ in $(seq 1200); do
    got=$(( $(psql_db "SELECT coalesce(sum(delivered), 0) FROM sends") - base ))
    [ "$got" -ge "$n" ] && break
    sleep 0.5
  done
  [ "$got" -ge "$n" ] || { echo "only $got of $n delivered" >&2; return 1; }
  awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f\n", b - a }'
}

# cpu_of HOST: CPU seconds used so far by every process on the host (reaped
# children included, so PostgreSQL's ended backends count).
cpu_of() {
  local pid total=0 hz; hz=$(getconf CLK_TCK)
  for pid in $(ip netns pids "$PREFIX-$1"); do
    total=$(( total + $(awk '{print $14 + $15 + $16 + $17}' "/proc/$pid/stat" 2>/dev/null || echo 0) ))
  done
  awk -v t="$total" -v hz="$hz" 'BEGIN { printf "%.2f", t / hz }'
}

# cpu_by_program: CPU seconds used so far on every host of the bed, summed by
# program ("postgres 12.3", "worker 4.5", …; reaped children included).
cpu_by_program() {
  local ns pid hz; hz=$(getconf CLK_TCK)
  for ns in $(ip netns list | awk -v p="$PREFIX-" 'index($1, p) == 1 {print $1}'); do
    for pid in $(ip netns pids "$ns"); do
      awk '{ print $2, $14 + $15 + $16 + $17 }' "/proc/$pid/stat" 2>/dev/null || true
    done
  done | awk -v hz="$hz" '{ gsub(/[()]/, "", $1); t[$1] += $2 } END { for (p in t) printf "%s %.2f\n", p, t[p] / hz }' | sort
}

# switches_by_program: context switches so far of every live thread on the bed,
# summed by program ("postgres v n": voluntary, involuntary). Ended threads and
# backends are not counted.
switches_by_program() {
  local ns pid
  for ns in $(ip netns list | awk -v p="$PREFIX-" 'index($1, p) == 1 {print $1}'); do
    for pid in $(ip netns pids "$ns"); do
      cat /proc/"$pid"/task/*/status 2>/dev/null | awk -v p="$(cat /proc/"$pid"/comm 2>/dev/null)" '
        /^voluntary_ctxt_switches/ { v += $2 } /^nonvoluntary_ctxt_switches/ { n += $2 }
        END { if (p != "") print p, v + 0, n + 0 }'
    done
  done | awk '{ v[$1] += $2; n[$1] += $3 } END { for (p in v) print p, v[p], n[p] }' | sort
}

# pg_cpu_by_client: CPU seconds so far of every live PostgreSQL process, summed by
# whose it is: a client backend by its application_name (every process names
# itself, internal/platform/db), the others by their type ("walwriter", "autovacuum_worker").
# Backends that ended are not counted.
pg_cpu_by_client() {
  local hz; hz=$(getconf CLK_TCK)
  psql_db "SELECT pid, translate(CASE WHEN backend_type = 'client backend' THEN coalesce(nullif(application_name, ''), 'other')
      ELSE backend_type END, ' ', '_') FROM pg_stat_activity" | tr '|' ' ' | while read -r pid who; do
    awk -v w="$who" '{ print w, $14 + $15 }' "/proc/$pid/stat" 2>/dev/null || true
  done | awk -v hz="$hz" '{ t[$1] += $2 } END { for (p in t) printf "%s %.2f\n", p, t[p] / hz }' | sort
}

# redis_calls: calls so far of every Redis command ("xreadgroup 1234", …).
redis_calls() {
  redis_cli info commandstats | tr -d '\r' | awk -F'[_:,=]' '/^cmdstat_/ { print $2, $4 }' | sort
}

# redis_reads: the reads Redis has processed so far (a request or a pipeline each).
redis_reads() { redis_cli info stats | tr -d '\r' | awk -F: '/^total_reads_processed:/ { print $2 }'; }

smoke() {
  local n=${1:-10000} pairs sim secs accepted dups before ok=1 g sentby
  pairs=$(cat "$TESTBED_DIR/pairs")
  sim="http://$(host_ip sim):2780"
  before=$(curl -fsS "$sim/stats" | jq .total.accepted)
  credit_demo "$n"
  secs=$(send_n "$n")
  accepted=$(( $(curl -fsS "$sim/stats" | jq .total.accepted) - before ))
  dups=$(curl -fsS "$sim/stats" | jq .duplicates)
  log "$n recipients delivered in $secs s; the simulator accepted $accepted submit_sm, $dups duplicates"
  for g in $(seq 1 "$pairs"); do
    sentby=$(curl -fsS "http://$(host_ip "app$g"):2790/status" | jq '.batches.recipients_sent')
    log "gateway on app$g sent $sentby recipients"
    [ "$sentby" -gt 0 ] || ok=0
  done
  # The carrier's bind quota held: no bind refused, none over the quota now.
  local binds; binds=$(curl -fsS "$sim/stats" | jq -c '[.operators[] | .bound] as $b | {refused: .total.bind_failures, most: ($b | max)}')
  log "binds at the simulator: $binds (quota $BINDS per operator)"
  jq -e --argjson q "$BINDS" '.refused == 0 and .most <= $q' <<<"$binds" >/dev/null || ok=0
  [ "$accepted" -eq "$n" ] && [ "$dups" -eq 0 ] && [ "$ok" = 1 ] || { echo "smoke: FAILED" >&2; return 1; }
  log "smoke: passed"
}

# autovacuum on|off: PostgreSQL's autovacuum on the bed's cluster.
autovacuum() {
  psql_db "ALTER SYSTEM SET autovacuum = $1" >/dev/null
  psql_db "SELECT pg_reload_conf()" >/dev/null
}

# measure N: the per-recipient costs of N recipients: CPU per host, WAL, the tables'
# growth and Redis memory (the figures of docs/scaling.md).
measure() {
  local n=${1:-100000} pairs h wal0 wal1 secs redis0 redis1
  pairs=$(cat "$TESTBED_DIR/pairs")
  local hosts=(db sim); for h in $(seq 1 "$pairs"); do hosts+=("app$h"); done
  declare -A cpu0 idle
  # The idle cost first (pollers, heartbeats, leases: per process and second, not
  # per recipient), so that the run's CPU can be given net of it too.
  local idle_secs=${TESTBED_IDLE_SECONDS:-15} idle_total=0 warm=${TESTBED_WARMUP:-20000}
  credit_demo $(( n + warm ))
  # A warm-up send first, not counted: processes that `active` has just started
  # open their database connections (a new PostgreSQL backend fills its caches)
  # and grow their heaps during their first send, a start-up cost, not a cost per
  # recipient (2026-11-29: a cold 3-pair run +20–25% over a warm one).
  [ "$warm" -gt 0 ] && send_n "$warm" >/dev/null
  # Every run starts from a checkpoint, so that each pays the same full-page
  # writes: a checkpoint falling inside some runs only spread the figures by a
  # tenth (2026-11-27: the outliers were the runs with 20–35% more WAL).
  # And from vacuumed, analysed tables with autovacuum paused until the run is
  # over (the trap): it would otherwise vacuum or analyse the recipients inside some runs
  # and not others (2026-11-29: 8–33 µs per recipient in 7 of 52 runs).
  # Vacuum's cost follows the rows, not the pairs.
  autovacuum off
  trap 'autovacuum on' EXIT
  psql_db "VACUUM (ANALYZE)" >/dev/null
  psql_db "CHECKPOINT" >/dev/null
  for h in "${hosts[@]}"; do cpu0[$h]=$(cpu_of "$h"); done
  sleep "$idle_secs"
  for h in "${hosts[@]}"; do
    idle[$h]=$(awk -v a="${cpu0[$h]}" -v b="$(cpu_of "$h")" -v s="$idle_secs" 'BEGIN { printf "%.4f", (b - a) / s }')
    idle_total=$(awk -v t="$idle_total" -v i="${idle[$h]}" 'BEGIN { print t + i }')
  done
  for h in "${hosts[@]}"; do cpu0[$h]=$(cpu_of "$h"); done
  local prog0; prog0=$(cpu_by_program)
  local sw0; sw0=$(switches_by_program)
  local rc0; rc0=$(redis_calls)
  local rr0; rr0=$(redis_reads)
  local pc0; pc0=$(pg_cpu_by_client)
  wal0=$(psql_db "SELECT pg_current_wal_lsn()")
  local sizes="SELECT string_agg(t || '=' || b, ' ' ORDER BY t) FROM (
    SELECT 'recipients' AS t, sum(pg_total_relation_size(relid)) AS b FROM pg_partition_tree('recipients')
    UNION ALL SELECT relname, pg_total_relation_size(oid) FROM pg_class
    WHERE relname IN ('message_ids', 'sends', 'recipient_claims', 'ledger') AND relkind = 'r') x"
  psql_db "CREATE EXTENSION IF NOT EXISTS pg_stat_statements" >/dev/null
  psql_db "SELECT pg_stat_statements_reset()" >/dev/null
  local size0; size0=$(psql_db "$sizes")
  local commits="SELECT (SELECT xact_commit FROM pg_stat_database WHERE datname = '$PG_DB') || ' ' || wal_sync FROM pg_stat_wal"
  local commits0; commits0=$(psql_db "$commits")
  redis0=$(redis_cli info memory | awk -F: '/^used_memory:/ {print $2+0}')
  secs=$(send_n "$n")
  wal1=$(psql_db "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '$wal0')")
  redis1=$(redis_cli info memory | awk -F: '/^used_memory:/ {print $2+0}')
  local line="pairs=$pairs recipients=$n seconds=$secs rate=$(awk -v n="$n" -v s="$secs" 'BEGIN { printf "%.0f", n / s }')/s"
  local total=0 us
  for h in "${hosts[@]}"; do
    us=$(awk -v a="${cpu0[$h]}" -v b="$(cpu_of "$h")" -v n="$n" 'BEGIN { printf "%.1f", (b - a) * 1e6 / n }')
    line+=" cpu_us_${h}=$us(net $(awk -v u="$us" -v i="${idle[$h]}" -v s="$secs" -v n="$n" 'BEGIN { printf "%.1f", u - i * s * 1e6 / n }'))"
    total=$(awk -v t="$total" -v u="$us" 'BEGIN { print t + u }')
  done
  line+=" cpu_us_total=$total idle_cores=$(printf %.2f "$idle_total")"
  line+=" cpu_us_net_of_idle=$(awk -v t="$total" -v i="$idle_total" -v s="$secs" -v n="$n" 'BEGIN { printf "%.1f", t - i * s * 1e6 / n }')"
  line+=" wal_bytes_per_recipient=$(awk -v w="$wal1" -v n="$n" 'BEGIN { printf "%.0f", w / n }')"
  line+=" redis_delta_bytes=$(( redis1 - redis0 ))"
  line+=" $(awk -v n="$n" -v a="$commits0" -v b="$(psql_db "$commits")" 'BEGIN { split(a, x, " "); split(b, y, " ");
    printf "commits_per_1000=%.1f wal_syncs_per_1000=%.1f", (y[1] - x[1]) * 1000 / n, (y[2] - x[2]) * 1000 / n }')"
  log "$line"
  log "by program, µs per recipient: $(join -a2 -e 0 -o 0,1.2,2.2 <(echo "$prog0") <(cpu_by_program) |
    awk -v n="$n" '{ printf "%s=%.1f ", $1, ($3 - $2) * 1e6 / n }')"
  log "context switches per 1,000 recipients, voluntary/involuntary: $(join -a2 -e 0 -o 0,1.2,1.3,2.2,2.3 \
    <(echo "$sw0") <(switches_by_program) | awk -v n="$n" '{ printf "%s=%.0f/%.0f ", $1, ($4 - $2) * 1000 / n, ($5 - $3) * 1000 / n }')"
  log "PostgreSQL CPU by client, µs per recipient: $(join -a2 -e 0 -o 0,1.2,2.2 <(echo "$pc0") <(pg_cpu_by_client) |
    awk -v n="$n" '{ printf "%s=%.1f ", $1, ($3 - $2) * 1e6 / n }')"
  log "Redis reads (requests and pipelines) per 1,000 recipients: $(( ($(redis_reads) - rr0) * 1000 / n ))"
  log "Redis calls per 1,000 recipients: $(join -a2 -e 0 -o 0,1.2,2.2 <(echo "$rc0") <(redis_calls) |
    awk -v n="$n" '{ printf "%s %.0f\n", $1, ($3 - $2) * 1000 / n }' | sort -k2 -rn | head -10 | awk '{ printf "%s=%s ", $1, $2 }')"
  log "tables before: $size0"
  log "tables after:  $(psql_db "$sizes")"
  # What PostgreSQL spent its time on: statements by execution time, with calls
  # and time per recipient, mean time and rows per call (a cost per call that does not
  # follow the rows shows as time per recipient growing when batches shrink).
  local st=$TESTBED_DIR/statements-$pairs.txt
  psql "$(pg_conninfo)" -c "SELECT calls, round(mean_exec_time::numeric, 2) AS mean_ms,
      round(rows::numeric / greatest(calls, 1), 1) AS rows_per_call,
      round((total_exec_time * 1000 / $n)::numeric, 1) AS exec_us_per_r, round((rows::numeric / $n), 2) AS rows_per_r,
      left(regexp_replace(query, '\s+', ' ', 'g'), 110) AS query
    FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = '$PG_DB')
    ORDER BY total_exec_time DESC LIMIT 30" >"$st"
  log "statements: $(psql_db "SELECT 'calls per recipient ' || round(sum(calls)::numeric / $n, 2) || ', execution ' ||
      round((sum(total_exec_time) * 1000 / $n)::numeric) || ' µs per recipient' FROM pg_stat_statements
      WHERE dbid = (SELECT oid FROM pg_database WHERE datname = '$PG_DB')") (top 30 in $st)"
}

down() {
  local f
  for f in "$TESTBED_DIR"/*.pid; do
    [ -e "$f" ] || continue
    kill "$(cat "$f")" 2>/dev/null || true
  done
  sleep 1
  for f in "$TESTBED_DIR"/*.pid; do [ -e "$f" ] && kill -9 "$(cat "$f")" 2>/dev/null || true; done
  if [ -d "$TESTBED_DIR/pg" ]; then
    runuser -u postgres -- "$(pg_bin pg_ctl)" -D "$TESTBED_DIR/pg" -m immediate stop >/dev/null 2>&1 || true
  fi
  local ns pids
  for ns in $(ip netns list | awk -v p="$PREFIX-" 'index($1, p) == 1 {print $1}'); do
    # What is left on the bed's hosts (Patroni's PostgreSQL, etcd) goes too.
    pids=$(ip netns pids "$ns")
    [ -z "$pids" ] || kill -9 $pids 2>/dev/null || true
    ip netns delete "$ns"
  done
  ip link delete "$BRIDGE" 2>/dev/null || true
  # A namespace goes, with its veth pair, once its last process has died.
  local _
  for _ in $(seq 150); do ip -o link show | grep -q ": $VETH-" || break; sleep 0.2; done
  log "down"
}

case ${1:-} in
  up) up "${2:-2}" ;;
  smoke) smoke "${2:-10000}" ;;
  measure) measure "${2:-100000}" ;;
  chaos) . scripts/chaos.sh; chaos "${2:-}" ;;
  restart) restart_apps ;;
  active) set_active "${2:?pairs}" ;;
  down) down ;;
  exec) shift; h=$1; shift; on "$h" "$@" ;;
  patronictl) shift; patronictl_bed "$@" ;;
  *) sed -n '2,37p' "$0"; exit 2 ;;
esac

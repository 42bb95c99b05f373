# shellcheck shell=bash
# Sourced by scripts/testbed.sh: the test bed's PostgreSQL under Patroni
# (TESTBED_PG=patroni, docs/testbed.md, docs/scaling.md). Three etcd members on
# hosts etcd1..3 hold the cluster's state; Patroni on hosts pg1..pgK
# (TESTBED_PG_NODES, 2) runs PostgreSQL, one primary and the rest standbys, one of
# them synchronous (synchronous_mode: a commit returns once that standby has
# flushed it, and only it may be promoted). The apps reach the current primary by
# libpq's multi-host URL with target_session_attrs=read-write: each new connection
# tries the hosts in turn and keeps the one that accepts writes. Starting the
# cluster takes about a minute on a loaded machine.

PG_NODES=${TESTBED_PG_NODES:-2}
PATRONI_SCOPE=chapar

patroni_on() { [ "${TESTBED_PG:-}" = patroni ]; }

# pg_hosts: the PostgreSQL hosts of the bed ("pg1 pg2" under Patroni, else "db").
pg_hosts() {
  if patroni_on; then seq -f 'pg%g' 1 "$PG_NODES" | paste -sd' '; else echo db; fi
}

# patroni_tools: Debian's Patroni and etcd, installed when missing.
patroni_tools() {
  patroni_on || return 0
  command -v patroni >/dev/null && command -v etcd >/dev/null && command -v etcdctl >/dev/null ||
    apt_install patroni etcd-server etcd-client
}

# patroni_host_list: the extra hosts Patroni needs (etcd1..3 and pg1..K).
patroni_host_list() {
  patroni_on || return 0
  echo etcd1 etcd2 etcd3 "$(pg_hosts)"
}

# pg_addrs [SUFFIX]: every PostgreSQL host's address, SUFFIX (":5432") appended,
# joined by commas.
pg_addrs() {
  local h
  for h in $(pg_hosts); do echo "$(host_ip "$h")${1:-}"; done | paste -sd,
}

# database_url: the apps' DATABASE_URL: every PostgreSQL host, the one that
# accepts writes chosen at connection (connect_timeout bounds a host that does
# not answer).
database_url() {
  local url="postgres://postgres@$(pg_addrs :5432)/$PG_DB?sslmode=disable"
  patroni_on && url+="&target_session_attrs=read-write&connect_timeout=2"
  echo "$url"
}

# pg_conninfo [DB]: the same for psql (libpq key=value form).
pg_conninfo() {
  local c="host=$(pg_addrs) port=5432 user=postgres dbname=${1:-$PG_DB}"
  patroni_on && c+=" target_session_attrs=read-write connect_timeout=2"
  echo "$c"
}

# start_etcd: a three-member etcd, one member per host, its data under
# $TESTBED_DIR/etcdN. Timeouts are loosened for a loaded machine.
start_etcd() {
  local n cluster="" ip
  for n in 1 2 3; do cluster+="${cluster:+,}etcd$n=http://$(host_ip "etcd$n"):2380"; done
  for n in 1 2 3; do
    ip=$(host_ip "etcd$n")
    start "etcd$n" "etcd$n" etcd --name "etcd$n" --data-dir "$TESTBED_DIR/etcd$n" \
      --listen-client-urls "http://$ip:2379" --advertise-client-urls "http://$ip:2379" \
      --listen-peer-urls "http://$ip:2380" --initial-advertise-peer-urls "http://$ip:2380" \
      --initial-cluster "$cluster" --initial-cluster-state new --initial-cluster-token "$PREFIX-etcd" \
      --heartbeat-interval 250 --election-timeout 2500 --log-level warn
  done
  local _
  for _ in $(seq 240); do
    ETCDCTL_API=3 etcdctl --endpoints "$(etcd_endpoints)" endpoint health >/dev/null 2>&1 && return 0
    sleep 0.5
  done
  echo "etcd did not become healthy; see $TESTBED_DIR/etcd*.log" >&2
  return 1
}

etcd_endpoints() { echo "$(host_ip etcd1):2379,$(host_ip etcd2):2379,$(host_ip etcd3):2379"; }

# patroni_config HOST: Patroni's configuration of a PostgreSQL host.
patroni_config() {
  local h=$1 ip bin; ip=$(host_ip "$1"); bin=$(dirname "$(pg_bin initdb)")
  cat <<YAML
scope: $PATRONI_SCOPE
name: $h
log: {level: WARNING}
restapi: {listen: "$ip:8008", connect_address: "$ip:8008"}
etcd3: {hosts: "$(etcd_endpoints)"}
bootstrap:
  dcs:
    # The leader's key lives 20 s unless renewed (every 2 s): a dead primary's
    # standby takes over within about 20 s of its last renewal.
    ttl: 20
    loop_wait: 2
    retry_timeout: 5
    maximum_lag_on_failover: 1048576
    synchronous_mode: true
    synchronous_mode_strict: false
    postgresql:
      use_pg_rewind: true
      use_slots: true
      parameters:
        max_connections: 300
        shared_preload_libraries: pg_stat_statements
        wal_log_hints: "on"
        max_wal_senders: 10
        max_replication_slots: 10
  initdb: [{encoding: UTF8}, {auth: trust}]
postgresql:
  listen: "$ip:5432"
  connect_address: "$ip:5432"
  data_dir: $TESTBED_DIR/$h/data
  bin_dir: $bin
  pgpass: $TESTBED_DIR/$h/pgpass
  use_unix_socket: true
  authentication:
    superuser: {username: postgres}
    replication: {username: postgres}
    rewind: {username: postgres}
  parameters: {unix_socket_directories: "$TESTBED_DIR/$h"}
  pg_hba:
    - local all all trust
    - host all all $NET.0/24 trust
    - host replication all $NET.0/24 trust
YAML
}

# start_patroni HOST: Patroni (as postgres) on a PostgreSQL host.
start_patroni() {
  local h=$1
  mkdir -p "$TESTBED_DIR/$h" && chown postgres "$TESTBED_DIR/$h" && chmod 700 "$TESTBED_DIR/$h"
  patroni_config "$h" >"$TESTBED_DIR/$h/patroni.yml"
  start "patroni-$h" "$h" runuser -u postgres -- patroni "$TESTBED_DIR/$h/patroni.yml"
}

# patronictl ARGS…: patronictl with pg1's configuration (it reads etcd and
# calls the members' REST APIs over the bridge).
patronictl_bed() { on pg1 patronictl -c "$TESTBED_DIR/pg1/patroni.yml" "$@"; }

# patroni_leader: the member that holds the leader key (empty when none).
patroni_leader() {
  patronictl_bed list -f json 2>/dev/null | jq -r '.[] | select(.Role == "Leader") | .Member' 2>/dev/null || true
}

# patroni_ready: a leader that runs and a synchronous standby.
patroni_ready() {
  patronictl_bed list -f json 2>/dev/null |
    jq -e '(map(select(.Role == "Leader" and .State == "running")) | length == 1)
      and (map(select(.Role == "Sync Standby")) | length >= 1)' >/dev/null 2>&1
}

# start_patroni_cluster: etcd, then Patroni on every PostgreSQL host; waits
# until a primary runs with a synchronous standby, then creates the database.
start_patroni_cluster() {
  start_etcd
  local h _
  for h in $(pg_hosts); do start_patroni "$h"; done
  for _ in $(seq 600); do patroni_ready && break; sleep 0.5; done
  patroni_ready || { echo "Patroni: no primary with a synchronous standby; see $TESTBED_DIR/patroni-*.log" >&2; return 1; }
  psql "$(pg_conninfo postgres)" -qc "CREATE DATABASE $PG_DB" >/dev/null
  log "Patroni: $(patroni_leader) is the primary; members $(pg_hosts); etcd on etcd1..3"
}

# kill_host HOST: SIGKILL every process on a host, as if it lost power. Again
# until none is left: a backend forked while the list was read outlives the
# first round, and, orphaned, holds its client and the shared memory.
kill_host() {
  local pids _
  for _ in $(seq 50); do
    pids=$(ip netns pids "$PREFIX-$1")
    [ -n "$pids" ] || return 0
    # shellcheck disable=SC2086 # one word per pid
    kill -9 $pids 2>/dev/null || true
    sleep 0.1
  done
}

# wait_leader_not OLD: waits until another member holds the leader key and runs
# as primary; prints it.
wait_leader_not() {
  local old=$1 _ now
  for _ in $(seq 600); do
    now=$(patroni_leader)
    if [ -n "$now" ] && [ "$now" != "$old" ]; then echo "$now"; return 0; fi
    sleep 0.5
  done
  return 1
}

# patroni_sync_standby: the member that is the synchronous standby.
patroni_sync_standby() {
  patronictl_bed list -f json | jq -r '.[] | select(.Role == "Sync Standby") | .Member' | head -n1
}

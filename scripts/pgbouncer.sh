# shellcheck shell=bash
# Sourced by scripts/pooler-test.sh and scripts/testbed.sh: Debian's PgBouncer in
# transaction mode in front of a PostgreSQL server (docs/scaling.md, "A pooler").
#
#   pgbouncer_ini DIR LISTEN PORT SERVER_HOST SERVER_PORT USER POOL_SIZE
#       writes DIR/pgbouncer.ini and DIR/users.txt: every database name passed
#       through to the server, USER trusted (as the server trusts it), POOL_SIZE
#       server connections per database, pool_mode=transaction
#   pgbouncer_cmd DIR   prints the command that runs it in the foreground as the
#       postgres user (PgBouncer refuses root; setpriv execs, so the pid is PgBouncer's)
#   pgbouncer_wait URL  waits (30 s at most) until PgBouncer answers at URL
PGBOUNCER=/usr/sbin/pgbouncer
[ -x "$PGBOUNCER" ] || apt_install pgbouncer

pgbouncer_ini() {
  local dir=$1 listen=$2 port=$3 host=$4 sport=$5 user=$6 size=$7
  mkdir -p "$dir"
  printf '"%s" ""\n' "$user" >"$dir/users.txt"
  cat >"$dir/pgbouncer.ini" <<INI
[databases]
* = host=$host port=$sport
[pgbouncer]
listen_addr = $listen
listen_port = $port
unix_socket_dir =
auth_type = trust
auth_file = $dir/users.txt
admin_users = $user
pool_mode = transaction
default_pool_size = $size
max_client_conn = 2000
server_reset_query =
log_connections = 0
log_disconnections = 0
INI
  chown -R postgres "$dir" 2>/dev/null || true
}

pgbouncer_cmd() {
  if [ "$(id -u)" = 0 ]; then
    echo setpriv --reuid=postgres --regid=postgres --init-groups "$PGBOUNCER" "$1/pgbouncer.ini"
  else
    echo "$PGBOUNCER" "$1/pgbouncer.ini"
  fi
}

pgbouncer_wait() {
  local deadline=$((SECONDS + 30))
  while ((SECONDS < deadline)); do psql "$1" -Xqtc 'SELECT 1' >/dev/null 2>&1 && return 0; sleep 0.1; done
  psql "$1" -Xqtc 'SELECT 1' >/dev/null
}

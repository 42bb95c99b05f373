#!/usr/bin/env bash
# Ensures PostgreSQL (15+) and Redis (7+) for `make run` and `make test`.
#
# Uses the servers that answer on 127.0.0.1 (PGHOST/PGPORT/REDIS_HOST/REDIS_PORT
# override), otherwise starts private instances under .data/ in the checkout,
# installing the Debian packages first when the binaries are missing. Idempotent.
# It never touches data it did not create: on a shared server it only creates the
# `chapar` database when absent. Writes the resulting settings to .data/env.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
DATA=${CHAPAR_DATA_DIR:-$ROOT/.data}
mkdir -p "$DATA"
PGHOST=${PGHOST:-127.0.0.1}
PGPORT=${PGPORT:-5432}
PGUSER=${PGUSER:-postgres}
REDIS_HOST=${REDIS_HOST:-127.0.0.1}
REDIS_PORT=${REDIS_PORT:-6379}
DBNAME=${CHAPAR_DB:-chapar}

log() { printf '[services] %s\n' "$*" >&2; }

. "$ROOT/scripts/apt.sh"

pg_bin() {
  for d in /usr/lib/postgresql/*/bin; do
    [ -x "$d/$1" ] && { echo "$d/$1"; return; }
  done
  command -v "$1" 2>/dev/null || true
}

pg_answers() { # host port -> prints server_version_num
  psql "host=$1 port=$2 user=$PGUSER dbname=postgres connect_timeout=2" -Atc 'SHOW server_version_num' 2>/dev/null || true
}

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

ensure_postgres() {
  command -v psql >/dev/null || apt_install postgresql-client
  local v; v=$(pg_answers "$PGHOST" "$PGPORT")
  if [ -n "$v" ] && [ "$v" -ge 150000 ]; then
    log "PostgreSQL $v answers on $PGHOST:$PGPORT"
  else
    [ -n "$v" ] && log "PostgreSQL on $PGPORT is $v (< 15); starting a private one"
    [ -n "$(pg_bin initdb)" ] || apt_install postgresql
    local initdb pgctl dir port
    initdb=$(pg_bin initdb); pgctl=$(pg_bin pg_ctl)
    dir=$DATA/pg
    port=$PGPORT
    port_free "$port" || port=55432
    local as=()
    if [ "$(id -u)" = 0 ]; then
      # PostgreSQL refuses to run as root: run it as the postgres user, in a folder it can reach.
      id postgres >/dev/null 2>&1 || useradd --system --home /var/lib/postgresql postgres
      if ! runuser -u postgres -- test -x "$DATA" 2>/dev/null; then
        dir=/var/tmp/chapar-$(echo "$ROOT" | md5sum | cut -c1-8)/pg
      fi
      mkdir -p "$dir"; chown -R postgres "$(dirname "$dir")"
      as=(runuser -u postgres --)
    fi
    if [ ! -s "$dir/PG_VERSION" ]; then
      log "initdb $dir"
      "${as[@]}" "$initdb" -D "$dir" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
    fi
    if ! "${as[@]}" "$pgctl" -D "$dir" status >/dev/null 2>&1; then
      log "starting private PostgreSQL on 127.0.0.1:$port"
      "${as[@]}" "$pgctl" -D "$dir" -l "$dir/server.log" -w -o "-p $port -k /tmp -c listen_addresses=127.0.0.1" start >/dev/null
    fi
    PGHOST=127.0.0.1; PGPORT=$port
    v=$(pg_answers "$PGHOST" "$PGPORT")
    [ -n "$v" ] || { log "PostgreSQL did not start (see $dir/server.log)"; exit 1; }
  fi
  if [ "$(psql "host=$PGHOST port=$PGPORT user=$PGUSER dbname=postgres" -Atc "SELECT 1 FROM pg_database WHERE datname = '$DBNAME'")" != 1 ]; then
    log "creating database $DBNAME"
    psql "host=$PGHOST port=$PGPORT user=$PGUSER dbname=postgres" -qc "CREATE DATABASE $DBNAME" >/dev/null
  fi
}

# ensure_postgis makes the postgis extension available to the server (the number
# bank's map counts need it): Debian's postgresql-<major>-postgis-3 for the server's
# major version, whether the server is the system's or the private one above.
ensure_postgis() {
  local q="host=$PGHOST port=$PGPORT user=$PGUSER dbname=postgres"
  [ "$(psql "$q" -Atc "SELECT 1 FROM pg_available_extensions WHERE name = 'postgis'")" = 1 ] && return
  local major; major=$(( $(pg_answers "$PGHOST" "$PGPORT") / 10000 ))
  apt_install "postgresql-$major-postgis-3"
  [ "$(psql "$q" -Atc "SELECT 1 FROM pg_available_extensions WHERE name = 'postgis'")" = 1 ] ||
    { log "postgis is not available to PostgreSQL $major on $PGHOST:$PGPORT"; exit 1; }
  log "postgis installed for PostgreSQL $major"
}

redis_version() { { redis-cli -h "$1" -p "$2" INFO server 2>/dev/null || true; } | tr -d '\r' | sed -n 's/^redis_version:\([0-9]*\).*/\1/p'; }

ensure_redis() {
  command -v redis-server >/dev/null || apt_install redis-server
  local v; v=$(redis_version "$REDIS_HOST" "$REDIS_PORT")
  if [ -n "$v" ] && [ "$v" -ge 7 ]; then
    log "Redis $v answers on $REDIS_HOST:$REDIS_PORT"
    return
  fi
  local port=$REDIS_PORT
  port_free "$port" || port=56379
  mkdir -p "$DATA/redis"
  if [ -z "$(redis_version 127.0.0.1 "$port")" ]; then
    log "starting private Redis on 127.0.0.1:$port"
    redis-server --daemonize yes --bind 127.0.0.1 --port "$port" --dir "$DATA/redis" \
      --appendonly yes --save '' --logfile "$DATA/redis/redis.log" --pidfile "$DATA/redis/redis.pid"
    for _ in $(seq 50); do [ -n "$(redis_version 127.0.0.1 "$port")" ] && break; sleep 0.1; done
  fi
  REDIS_HOST=127.0.0.1; REDIS_PORT=$port
  [ -n "$(redis_version "$REDIS_HOST" "$REDIS_PORT")" ] || { log "Redis did not start"; exit 1; }
}

ensure_postgres
ensure_postgis
ensure_redis
cat > "$DATA/env" <<ENV
DATABASE_URL=postgres://$PGUSER@$PGHOST:$PGPORT/$DBNAME?sslmode=disable
TEST_DATABASE_URL=postgres://$PGUSER@$PGHOST:$PGPORT/postgres?sslmode=disable
REDIS_ADDR=$REDIS_HOST:$REDIS_PORT
ENV
log "settings written to $DATA/env"

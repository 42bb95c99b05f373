# shellcheck shell=bash
# Sourced by scripts/backup-test.sh: a private PostgreSQL cluster with WAL
# archiving, its base backup and point-in-time restore (docs/backups.md), and the
# checks of the two tests (the restored rows, Redis flushed mid-send). Each
# function says what it needs; the caller sets BK (a temp dir), BACKUP_N,
# BACKUP_TIMEOUT, and, once the stack runs (scripts/stack.sh), DATABASE_URL,
# SIM_HTTP_ADDR, HTTP_ADDR, STACK_REDIS_PORT and TOKEN.

step() { printf '\n== %s (%s)\n' "$*" "$(date +%T)"; }
fail() { echo "FAILED: $*" >&2; exit 1; }

pg_bin() {
  local d
  for d in /usr/lib/postgresql/*/bin; do [ -x "$d/$1" ] && { echo "$d/$1"; return; }; done
  command -v "$1"
}

# need_pg_tools: Debian's PostgreSQL server (initdb, pg_basebackup, pg_amcheck),
# PostGIS for the number bank's migration, Redis, and a postgres user to run as.
need_pg_tools() {
  [ -n "$(pg_bin initdb 2>/dev/null)" ] || apt_install postgresql
  local major; major=$(basename "$(dirname "$(dirname "$(pg_bin initdb)")")")
  [ -e "/usr/share/postgresql/$major/extension/postgis.control" ] || apt_install "postgresql-$major-postgis-3"
  command -v redis-server >/dev/null || apt_install redis-server
  PG_AS=()
  if [ "$(id -u)" = 0 ]; then # PostgreSQL refuses to run as root
    id postgres >/dev/null 2>&1 || useradd --system --home /var/lib/postgresql postgres
    PG_AS=(runuser -u postgres --)
    chmod 755 "$BK"
  fi
}

# as_pg CMD…: runs a PostgreSQL tool as the cluster's owner.
as_pg() { "${PG_AS[@]}" "$@"; }

# pg_own PATH…: hands files and folders to the cluster's owner.
pg_own() { [ "${#PG_AS[@]}" = 0 ] || chown -R postgres "$@"; }

# pg_primary DIR ARCHIVE: a new cluster in DIR archiving its WAL into ARCHIVE
# with the settings of docs/backups.md, started (pg_start: sets PG_PORT).
pg_primary() {
  local dir=$1 archive=$2
  mkdir -p "$dir" "$archive" && pg_own "$dir" "$archive"
  as_pg "$(pg_bin initdb)" -D "$dir" -U postgres -A trust -E UTF8 --locale=C.UTF-8 --data-checksums >/dev/null
  cat >>"$dir/postgresql.conf" <<EOF
listen_addresses = '127.0.0.1'
unix_socket_directories = ''
max_connections = 200
wal_level = replica
archive_mode = on
archive_command = 'test ! -f $archive/%f && cp %p $archive/%f'
archive_timeout = 60
EOF
  pg_start "$dir"
}

# pg_start DIR: starts the cluster on a free port of 127.0.0.1, its log beside it
# (DIR.log), and sets PG_PORT. A port another process took between its choice
# and the bind is given up for another.
pg_start() {
  local try
  touch "$1.log" && pg_own "$1.log"
  for try in 1 2 3 4 5; do
    PG_PORT=$(stack_free_ports 1)
    as_pg "$(pg_bin pg_ctl)" -D "$1" -l "$1.log" -o "-p $PG_PORT" -w -t 600 start >/dev/null && return 0
    tail -n 1 "$1.log" | grep -q 'could not create any TCP/IP sockets' || break
  done
  tail -n 20 "$1.log" >&2
  fail "PostgreSQL in $1 did not start"
}

# pg_stop DIR: stops the cluster when it runs.
pg_stop() {
  [ -f "$1/postmaster.pid" ] || return 0
  as_pg "$(pg_bin pg_ctl)" -D "$1" -m fast -w -t 120 stop >/dev/null 2>&1 ||
    as_pg "$(pg_bin pg_ctl)" -D "$1" -m immediate stop >/dev/null 2>&1 || true
}

# q URL SQL: one query's rows, unaligned, fields separated by spaces.
q() { psql "$1" -XAtq -F ' ' -v ON_ERROR_STOP=1 -c "$2"; }

# wait_for WHAT CMD…: runs CMD every half second until it succeeds; fails after
# BACKUP_TIMEOUT seconds.
wait_for() {
  local what=$1 deadline=$((SECONDS + BACKUP_TIMEOUT)); shift
  until "$@"; do
    ((SECONDS < deadline)) || fail "timed out waiting for $what"
    sleep 0.5
  done
}

# sim_carrier JSON: the simulator's carrier conditions for every operator.
sim_carrier() {
  curl -fsS --max-time 30 -H 'Content-Type: application/json' -d "$1" "http://$SIM_HTTP_ADDR/control/carrier" >/dev/null
}
sim_stat() { curl -fsS --max-time 30 "http://$SIM_HTTP_ADDR/stats" | jq "$1"; }

# hold_back: every operator accepts about BACKUP_N/600 submit_sm a second, so the
# send lasts minutes if nothing lifts it (release).
hold_back() { sim_carrier "{\"operator\":\"*\",\"rate\":$(((BACKUP_N + 599) / 600 + 1))}"; }
release() { sim_carrier '{"operator":"*"}'; }

# api_token: the demo owner's API token.
api_token() {
  curl -fsS --max-time 30 -H 'Content-Type: application/json' -d '{"username":"demo","password":"Demo@12345"}' \
    "http://$HTTP_ADDR/v1/api/acl/auth/login" | jq -r .data.token
}

# api_send FIRST: a quick send of BACKUP_N distinct numbers (the FIRST-th onwards
# of a fixed sequence, so two sends never share a number); prints its id.
api_send() {
  jq -n --argjson n "$BACKUP_N" --argjson first "$1" '{type: "quick", sender: "500012345", cancel11: false,
      text: "چاپار: آزمون پشتیبان", numbers: [range($first; $first + $n)
        | ["0912", "0935", "0921"][. % 3] + ("000000" + ((. * 7919) % 10000000 | tostring))[-7:]]}' >"$BK/send.json"
  curl -fsS --max-time 300 -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
    --data-binary @"$BK/send.json" "http://$HTTP_ADDR/v1/api/send" | jq -r .data.id
}

# handed SEND: how many of the send's recipients left the queue (submitted or rejected).
handed() { q "$DATABASE_URL" "SELECT count(*) FROM recipients WHERE send_id = $1 AND status NOT IN (5, 7)"; }
handed_at_least() { [ "$(handed "$1")" -ge "$2" ]; }

# finished SEND: the send is closed and every recipient is final (reached or not
# reached handset, blacklisted, rejected).
finished() {
  [ "$(q "$DATABASE_URL" "SELECT (SELECT finished_at IS NOT NULL FROM sends WHERE id = $1)
    AND NOT EXISTS (SELECT 1 FROM recipients WHERE send_id = $1 AND status NOT IN (2, 3, 4, 6))")" = t ]
}

# books URL: the books of a database must balance, restored or not; prints the
# number of rows off for each rule (all 0): wallets whose balance is not the sum
# of their ledger, ledger rows whose balance_after is not the running sum of
# their account, sends whose counters (plus the deltas not folded in yet) differ
# from their recipients' statuses.
books() {
  q "$1" "SELECT
    (SELECT count(*) FROM wallets w
      WHERE w.balance <> coalesce((SELECT sum(amount) FROM ledger l WHERE l.account_id = w.account_id), 0)),
    (SELECT count(*) FROM (SELECT balance_after, sum(amount) OVER (PARTITION BY account_id ORDER BY id) AS run
      FROM ledger) x WHERE balance_after <> run),
    (WITH r AS (SELECT send_id, count(*) FILTER (WHERE status IN (0, 1, 2, 3)) AS sub,
        count(*) FILTER (WHERE status = 6) AS rej, count(*) FILTER (WHERE status = 2) AS dl,
        count(*) FILTER (WHERE status = 3) AS ud FROM recipients GROUP BY send_id),
      d AS (SELECT send_id, sum(submitted) AS sub, sum(rejected) AS rej, sum(delivered) AS dl,
        sum(undelivered) AS ud FROM send_count_deltas GROUP BY send_id)
      SELECT count(*) FROM sends s JOIN r ON r.send_id = s.id LEFT JOIN d ON d.send_id = s.id
      WHERE (s.submitted + coalesce(d.sub, 0), s.rejected + coalesce(d.rej, 0), s.delivered + coalesce(d.dl, 0),
        s.undelivered + coalesce(d.ud, 0)) <> (r.sub, r.rej, r.dl, r.ud))"
}

# books_balance URL WHAT: fails unless every rule of books holds.
books_balance() {
  local off; off=$(books "$1")
  echo "  $2: wallets off their ledger, ledger rows off the running sum, sends off their recipients: $off"
  [ "$off" = "0 0 0" ] || fail "$2: the books do not balance ($off)"
}

# send_exact SEND WHAT: the send is finished, every recipient final, and what the
# ledger took for it is the cost of the recipients submitted (nothing for the
# blacklisted and rejected).
send_exact() {
  local r
  r=$(q "$DATABASE_URL" "SELECT count(*), count(*) FILTER (WHERE status = 2), count(*) FILTER (WHERE status = 3),
      count(*) FILTER (WHERE error = 'no-receipt'), count(*) FILTER (WHERE status IN (4, 6)),
      (SELECT -coalesce(sum(amount), 0) FROM ledger WHERE send_id = $1)
        - coalesce(sum(cost) FILTER (WHERE status IN (0, 1, 2, 3)), 0)
    FROM recipients WHERE send_id = $1")
  read -r n dl ud nr other diff <<<"$r"
  echo "  $2: $n recipients: $dl reached handset, $ud not ($nr of them with no receipt), $other blacklisted or rejected; ledger minus cost: $diff rials"
  [ "$n" = "$BACKUP_N" ] || fail "$2: $n recipients, want $BACKUP_N"
  [ "$diff" = 0 ] || fail "$2: the ledger took $diff rials more than the cost of what was submitted"
}

# carrier_once SEND SINCE WHAT: at the simulator, every number the send submitted
# got exactly one message (of the recipient's parts) since SINCE, and no number
# it did not submit got any.
carrier_once() {
  q "$DATABASE_URL" "SELECT mobile, parts, status IN (0, 1, 2, 3) FROM recipients WHERE send_id = $1" >"$BK/mobiles.txt"
  python3 - "http://$SIM_HTTP_ADDR" "$2" "$BK/mobiles.txt" "$3" <<'PY'
import collections, json, sys, urllib.parse, urllib.request
base, since, path, what = sys.argv[1:5]
want = {}
for line in open(path):
    mobile, parts, sent = line.split()
    want[mobile] = (int(parts), sent == "t")
url = base + "/messages?" + urllib.parse.urlencode({"since": since, "limit": 100000})
msgs = json.load(urllib.request.urlopen(url, timeout=300))["messages"]
got = collections.Counter(m["to"] for m in msgs if m["to"] in want)
parts = {m["to"]: m["parts"] for m in msgs if m["to"] in want}
twice = [k for k, c in got.items() if c > 1]
missing = [k for k, (_, s) in want.items() if s and got[k] == 0]
extra = [k for k, (_, s) in want.items() if not s and got[k] > 0]
torn = [k for k in got if parts[k] != want[k][0]]
print(f"  {what}: {len(got)} numbers got a message at the carrier; twice: {len(twice)}, submitted but never arrived: "
      f"{len(missing)}, arrived though not submitted: {len(extra)}, with other parts: {len(torn)}")
sys.exit(1 if twice or missing or extra or torn else 0)
PY
}

# snapshot NAME: the recipients' statuses and the ledger, as one
# consistent picture (one REPEATABLE READ transaction), into $BK/NAME.*.csv.
snapshot() {
  psql "$DATABASE_URL" -Xq -v ON_ERROR_STOP=1 <<SQL
BEGIN ISOLATION LEVEL REPEATABLE READ;
\copy (SELECT id, send_id, status FROM recipients) TO '$BK/$1.recipients.csv' CSV
\copy (SELECT id, account_id, kind, amount, balance_after, send_id, ref FROM ledger) TO '$BK/$1.ledger.csv' CSV
COMMIT;
SQL
}

# restore_point NAME: a named restore point between two snapshots (before and
# after): every row the first holds was committed before the point; nothing the
# second lacks was. The WAL segment holding it is then switched out and awaited
# in the archive, as docs/backups.md does before relying on a point.
restore_point() {
  snapshot before
  local seg
  seg=$(q "$DATABASE_URL" "SELECT pg_walfile_name(pg_create_restore_point('$1'))")
  q "$DATABASE_URL" "SELECT pg_switch_wal()" >/dev/null
  snapshot after
  wait_for "WAL segment $seg in the archive" test -f "$BK/archive/$seg"
}

# nightly: deploy/backup/chapar-base-backup as its systemd unit runs it (as
# postgres), keeping one backup in $BK/backups; sets BASE to it. The unit files
# are checked with systemd-analyze, the script's path put in.
nightly() {
  local start first
  mkdir -p "$BK/backups" && pg_own "$BK/backups"
  as_pg env PGHOST=127.0.0.1 PGPORT="$PG_PORT" PGUSER=postgres BACKUP_DIR="$BK/backups" ARCHIVE_DIR="$BK/archive" \
    KEEP=1 bash deploy/backup/chapar-base-backup
  BASE=$(find "$BK/backups" -maxdepth 1 -name 'base-*Z')
  [ "$(echo "$BASE" | wc -l)" = 1 ] || fail "KEEP=1 left $(echo "$BASE" | wc -l) backups"
  start=$(sed -n 's/^START WAL LOCATION: .* (file \([0-9A-F]*\))$/\1/p' "$BASE/backup_label")
  first=$(find "$BK/archive" -name '????????????????????????' -printf '%f\n' | sort | head -n 1)
  [ -z "$first" ] || [[ ! "$first" < "$start" ]] || fail "the archive still holds $first, older than $start"
}

# units_valid: the systemd units of deploy/backup pass systemd-analyze verify.
units_valid() {
  command -v systemd-analyze >/dev/null || apt_install systemd
  mkdir -p "$BK/units"
  sed "s|^ExecStart=.*|ExecStart=$(pwd)/deploy/backup/chapar-base-backup|" deploy/backup/chapar-base-backup.service \
    >"$BK/units/chapar-base-backup.service"
  cp deploy/backup/chapar-base-backup.timer "$BK/units/"
  systemd-analyze verify "$BK/units/chapar-base-backup.service" "$BK/units/chapar-base-backup.timer"
}

# restore DIR NAME: the base backup BASE copied into a fresh data directory DIR,
# recovered from the archive up to the restore point NAME and promoted; sets
# RESTORE_PORT.
restore() {
  local dir=$1
  mkdir -p "$dir" && cp -a "$BASE/." "$dir/" && pg_own "$dir" && chmod 700 "$dir"
  cat >>"$dir/postgresql.auto.conf" <<CONF
restore_command = 'cp $BK/archive/%f %p'
recovery_target_name = '$2'
recovery_target_action = 'promote'
archive_mode = off
CONF
  as_pg touch "$dir/recovery.signal"
  local primary=$PG_PORT
  pg_start "$dir"
  RESTORE_PORT=$PG_PORT PG_PORT=$primary
  wait_for "the restored server to reach the restore point and promote" promoted "$RESTORE_PORT"
}

# promoted PORT: the server on PORT is out of recovery.
promoted() { [ "$(q "postgres://postgres@127.0.0.1:$1/postgres" 'SELECT pg_is_in_recovery()' 2>/dev/null)" = f ]; }

# restored_matches URL: the restored database holds the point between the two
# snapshots: every recipient and ledger row of the first, nothing the second
# lacks, each recipient's status between its two snapshots' (queued, submitting,
# sent, reached telecom, then final: a final status never changes). Prints the
# number of rows off (all 0), then how many recipients had left the queue in the
# first snapshot, the restored database and the second.
restored_matches() {
  local s
  psql "$1" -Xq -v ON_ERROR_STOP=1 <<SQL
CREATE SCHEMA snap;
CREATE TABLE snap.recipients (snap text, id bigint, send_id bigint, status smallint);
CREATE TABLE snap.ledger (snap text, id bigint, account_id bigint, kind text, amount bigint, balance_after bigint,
  send_id bigint, ref text);
$(for s in before after; do
    echo "\\copy snap.recipients (id, send_id, status) FROM '$BK/$s.recipients.csv' CSV"
    echo "\\copy snap.ledger (id, account_id, kind, amount, balance_after, send_id, ref) FROM '$BK/$s.ledger.csv' CSV"
    echo "UPDATE snap.recipients SET snap = '$s' WHERE snap IS NULL; UPDATE snap.ledger SET snap = '$s' WHERE snap IS NULL;"
  done)
CREATE FUNCTION snap.step(s smallint) RETURNS int IMMUTABLE LANGUAGE sql
  AS 'SELECT CASE s WHEN 5 THEN 0 WHEN 7 THEN 1 WHEN 0 THEN 2 WHEN 1 THEN 3 ELSE 4 END';
SQL
  q "$1" "WITH b AS (SELECT * FROM snap.recipients WHERE snap = 'before'),
      a AS (SELECT * FROM snap.recipients WHERE snap = 'after'),
      led AS (SELECT id, account_id, kind, amount, balance_after, send_id, ref FROM snap.ledger WHERE snap = 'before')
    SELECT
      (SELECT count(*) FROM b LEFT JOIN recipients r USING (id) WHERE r.id IS NULL),
      (SELECT count(*) FROM recipients r LEFT JOIN a USING (id) WHERE a.id IS NULL),
      (SELECT count(*) FROM b JOIN recipients r USING (id) JOIN a USING (id)
        WHERE snap.step(r.status) NOT BETWEEN snap.step(b.status) AND snap.step(a.status)
          OR (snap.step(b.status) = 4 AND r.status <> b.status) OR (snap.step(r.status) = 4 AND r.status <> a.status)),
      (SELECT count(*) FROM (SELECT * FROM led EXCEPT SELECT id, account_id, kind, amount, balance_after, send_id, ref
        FROM ledger) x),
      (SELECT count(*) FROM (SELECT id, account_id, kind, amount, balance_after, send_id, ref FROM ledger
        EXCEPT SELECT id, account_id, kind, amount, balance_after, send_id, ref FROM snap.ledger WHERE snap = 'after') x),
      (SELECT count(*) FROM b WHERE status NOT IN (5, 7)),
      (SELECT count(*) FROM recipients WHERE status NOT IN (5, 7)),
      (SELECT count(*) FROM a WHERE status NOT IN (5, 7))"
}

# point_in_time_restore: test 1 of scripts/backup-test.sh.
point_in_time_restore() {
  local id since n0 n1 point=chapar-test-$$ off
  step "point-in-time restore: a send of $BACKUP_N recipients, held back at the carrier"
  nightly # last night's, removed by the next one
  hold_back
  since=$(date -u +%Y-%m-%dT%H:%M:%S.%NZ)
  id=$(api_send 0)
  [ -n "$id" ] && [ "$id" != null ] || fail "send not accepted"
  wait_for "the send to start" handed_at_least "$id" $((BACKUP_N / 20))
  step "base backup while send $id runs ($(handed "$id") recipients handed to the carrier)"
  nightly
  n0=$(handed "$id")
  wait_for "the send to go on after the backup" handed_at_least "$id" $((n0 + BACKUP_N / 20))
  step "restore point $point"
  restore_point "$point"
  n1=$(handed "$id")
  [ "$n1" -lt "$BACKUP_N" ] || fail "the send was over before the restore point"
  release
  wait_for "send $id to finish" finished "$id"
  send_exact "$id" "the send"
  carrier_once "$id" "$since" "the send"
  books_balance "$DATABASE_URL" "the live database"

  step "restore the base backup to $point on a fresh server"
  restore "$BK/restored" "$point"
  local url="postgres://postgres@127.0.0.1:$RESTORE_PORT/$STACK_DB?sslmode=disable"
  off=$(restored_matches "$url")
  read -r gone extra order led_gone led_extra h0 hr h1 <<<"$off"
  echo "  recipients handed to the carrier: $h0 in the snapshot before the point, $hr restored, $h1 in the one after"
  echo "  recipients missing, extra, out of order: $gone $extra $order; ledger rows missing, extra: $led_gone $led_extra"
  [ "$gone $extra $order $led_gone $led_extra" = "0 0 0 0 0" ] || fail "the restored database is not the point in time"
  books_balance "$url" "the restored database"
  as_pg "$(pg_bin pg_amcheck)" -h 127.0.0.1 -p "$RESTORE_PORT" -U postgres --install-missing --heapallindexed \
    -d "$STACK_DB" || fail "pg_amcheck found damage in the restored database"
  echo "  pg_amcheck: every table and index of the restored database is sound"
  pg_stop "$BK/restored"
}

# requeued: how many batch tasks the worker's sweeper enqueued again so far (its log).
requeued() {
  { grep -ho 'what=batches_requeued n=[0-9]*' "$STACK_RUN/worker.log" || true; } | awk -F= '{ n += $3 } END { print n + 0 }'
}

# unread: the receipts and MO in the gateway's stream the worker has not read.
unread() {
  { redis-cli -p "$STACK_REDIS_PORT" xinfo groups smpp:inbound 2>/dev/null || true; } |
    awk 'prev == "lag" { n = $1 + 0 } { prev = $1 } END { print n + 0 }'
}
unread_at_least() { [ "$(unread)" -ge "$1" ]; }

# redis_flush: test 2 of scripts/backup-test.sh.
redis_flush() {
  local id since dups0 pending unread
  step "Redis flushed mid-send: a send of $BACKUP_N recipients"
  hold_back
  dups0=$(sim_stat .duplicates)
  since=$(date -u +%Y-%m-%dT%H:%M:%S.%NZ)
  id=$(api_send "$BACKUP_N")
  [ -n "$id" ] && [ "$id" != null ] || fail "send not accepted"
  wait_for "the send to be a twentieth through" handed_at_least "$id" $((BACKUP_N / 20))
  # The worker paused a moment, so that receipts wait unread in the stream.
  kill -STOP "${STACK_PID[worker]}"
  wait_for "receipts to wait in the stream" unread_at_least 10
  pending=0
  for k in $(redis-cli -p "$STACK_REDIS_PORT" --scan --pattern 'asynq:{*}:pending'); do
    pending=$((pending + $(redis-cli -p "$STACK_REDIS_PORT" llen "$k")))
  done
  unread=$(unread)
  step "FLUSHALL: $pending queued tasks and $unread unread receipts go ($(handed "$id") recipients handed)"
  redis-cli -p "$STACK_REDIS_PORT" flushall >/dev/null
  kill -CONT "${STACK_PID[worker]}"
  local t0=$SECONDS r0; r0=$(requeued)
  release
  wait_for "send $id to finish after the flush" finished "$id"
  echo "  finished $((SECONDS - t0)) s after the flush; the sweeper enqueued $(($(requeued) - r0)) batches again from PostgreSQL"
  send_exact "$id" "the send"
  carrier_once "$id" "$since" "the send"
  local dups=$(($(sim_stat .duplicates) - dups0))
  echo "  duplicate submit_sm at the carrier: $dups"
  [ "$dups" = 0 ] || fail "$dups messages submitted twice"
  books_balance "$DATABASE_URL" "the database"
}

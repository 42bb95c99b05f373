#!/usr/bin/env bash
# `make bench` part 8 (also alone: bash scripts/bench-targeted.sh [size]): the number
# bank of targeted sends. Seeds a bank of BENCH_BANK_SIZE (10,000,000) numbers into a
# database of its own (chapar_bench_bank, dropped after), then measures the uncached
# counts of a province, a county, a city-sized polygon, a 5 km circle, 20 towers, a
# business category and the category list:
# p50/p99 of BANK_BENCH_N (50) counts each and the PostgreSQL backend's CPU per count
# (pkg/bank TestCountLatency), BANK_BENCH_RUNS (3) times over the one seed. The seed's
# own time is printed too. Then, unless BENCH_REGIONAL=0, the 100,000-recipient
# regional send against the quick send on a private stack (scripts/bench-regional.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/toolchain.sh
set -a; . ./.data/env; set +a
SIZE=${1:-${BENCH_BANK_SIZE:-10000000}}
DB=chapar_bench_bank
ADMIN=${TEST_DATABASE_URL:?TEST_DATABASE_URL (make services)}
URL="${ADMIN%/*}/$DB?sslmode=disable"
psql "$ADMIN" -qc "DROP DATABASE IF EXISTS $DB WITH (FORCE)" -c "CREATE DATABASE $DB"
trap 'psql "$ADMIN" -qc "DROP DATABASE IF EXISTS $DB WITH (FORCE)" || true' EXIT
go build -o .data/bench-api ./cmd/api
go test -c -o .data/bench-bank.test ./pkg/bank # built before the long seed: the tree may change meanwhile
DATABASE_URL=$URL ./.data/bench-api migrate up >/dev/null
echo "[bank] seeding $SIZE numbers"
/usr/bin/time -f "[bank] seed: %e s wall, %U s user + %S s system CPU (Go side), %M KB peak RSS" \
  env DATABASE_URL="$URL" BANK_SIZE="$SIZE" ./.data/bench-api seed-bank "$SIZE"
psql "$URL" -Atc "SELECT '[bank] table ' || pg_size_pretty(pg_total_relation_size('bank_numbers'))"
psql "$URL" -Atc "SELECT '[bank] roll-ups: cells ' || pg_size_pretty(pg_total_relation_size('bank_cell_counts'))
  || ' (' || (SELECT count(*) FROM bank_cell_counts) || ' rows), places ' || pg_size_pretty(pg_total_relation_size('bank_place_counts'))
  || ', businesses ' || pg_size_pretty(pg_total_relation_size('bank_job_counts'))"
for run in $(seq "${BANK_BENCH_RUNS:-3}"); do
  echo "[bank] counts, run $run, load $(cut -d' ' -f1-3 /proc/loadavg)"
  (cd pkg/bank && BANK_BENCH_DATABASE_URL=$URL BANK_BENCH_N=${BANK_BENCH_N:-50} ../../.data/bench-bank.test \
    -test.run TestCountLatency -test.count=1 -test.v | grep '^bank count')
done
psql "$ADMIN" -qc "DROP DATABASE IF EXISTS $DB WITH (FORCE)"
[ "${BENCH_REGIONAL:-1}" = 0 ] || bash scripts/bench-regional.sh

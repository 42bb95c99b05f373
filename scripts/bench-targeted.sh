#!/usr/bin/env bash
# `make bench` part 7 (also alone: bash scripts/bench-targeted.sh [size]): the number
# bank of targeted sends. Seeds a bank of BENCH_BANK_SIZE (10,000,000) numbers into a
# database of its own (chapar_bench_bank, dropped after), then measures the uncached
# counts of a province, a county, a city-sized polygon, a 5 km circle and 20 towers:
# p50/p99 of BANK_BENCH_N (50) counts each and the PostgreSQL backend's CPU per count
# (pkg/bank TestCountLatency). The seed's own time is printed too.
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
DATABASE_URL=$URL ./.data/bench-api migrate up >/dev/null
echo "[bank] seeding $SIZE numbers"
/usr/bin/time -f "[bank] seed: %e s wall, %U s user + %S s system CPU (Go side), %M KB peak RSS" \
  env DATABASE_URL="$URL" BANK_SIZE="$SIZE" ./.data/bench-api seed-bank "$SIZE"
psql "$URL" -Atc "SELECT '[bank] table ' || pg_size_pretty(pg_total_relation_size('bank_numbers'))"
BANK_BENCH_DATABASE_URL=$URL BANK_BENCH_N=${BANK_BENCH_N:-50} go test ./pkg/bank -run TestCountLatency -count=1 -v |
  grep '^bank count'

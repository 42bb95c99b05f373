#!/usr/bin/env bash
# Playwright end-to-end tests against the real stack: builds the panel and the
# binaries, then starts the simulator, gateway, worker and API on their own ports
# with their own database (created here, dropped after) and a private Redis
# (scripts/stack.sh), runs web/e2e/*.test.mjs in Debian's Chromium, then the client
# libraries' tests of sdk/ (scripts/sdk-test.sh) and the WordPress plugin's test
# (scripts/wordpress-test.sh) on the same stack, and stops everything.
# KEEP_E2E_LOGS=1 keeps the processes' logs.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/toolchain.sh
set -a; . ./.data/env; set +a
. scripts/apt.sh
[ -x /usr/bin/chromium ] || apt_install chromium

(cd web && npm run build >/dev/null)
go build -o bin/ ./cmd/...
# make test starts the checks that build from web/dist too once this file exists.
[ -z "${E2E_BUILT:-}" ] || touch "$E2E_BUILT"

. scripts/stack.sh
KEEP_STACK_LOGS=${KEEP_E2E_LOGS:-}
stack_init e2e
trap stack_cleanup EXIT
stack_start_redis
export SIM_RECEIPT_DELAY_MS=${SIM_RECEIPT_DELAY_MS:-300-1500} OTP_RESEND_AFTER=5s WEBHOOK_ALLOW_PRIVATE=1 WEBHOOK_RETRY_BASE=1s
# The back-office tests log the one staff user in once per test file, each login texting a
# code to its mobile: more than the ten codes a mobile may get a day (RATE_OTP_NUMBER_PER_DAY).
# That limit has its own Go tests (pkg/auth, pkg/httpapi).
export RATE_OTP_NUMBER_PER_DAY=${RATE_OTP_NUMBER_PER_DAY:-1000}
# e2e/dashboard-charts.test.mjs waits for the rollups to include its send (30 s by default).
export ROLLUP_EVERY=${ROLLUP_EVERY:-3s}
# The number bank of targeted sends (e2e/targeted.test.mjs): big enough for a 5,000 send in Tehran.
export BANK_SIZE=${BANK_SIZE:-100000}
# e2e/part-states.test.mjs: the carrier refuses parts 3 and 4 sent to this number.
export SIM_SUBMIT_FAULTS=${SIM_SUBMIT_FAULTS:-989121130003:3=0x45,989121130003:4=0x45}
stack_prepare_db
stack_start smsc-sim ./bin/smsc-sim
stack_start smpp-gateway ./bin/smpp-gateway
stack_start worker ./bin/worker
stack_start api ./bin/api serve
stack_wait_ready 180 # a safety net: beside the Go tests on a loaded machine, a cold start can take a while

cd web
# Arguments name test files (relative to web/) to run only those; none runs them all.
if [ $# -gt 0 ]; then files=("$@"); else files=(e2e/*.test.mjs); fi
rc=0
PANEL_URL=http://$HTTP_ADDR SIM_URL=http://$SIM_HTTP_ADDR node --test --test-concurrency=1 "${files[@]}" || rc=$?
cd ..
# Then the client libraries of sdk/ on the same stack (docs/sdk.md): on a whole run, or
# with E2E_SDK=1; E2E_SDK=0 leaves them out. Their failure fails the run.
if [ "${E2E_SDK:-$([ $# -gt 0 ] && echo 0 || echo 1)}" = 1 ]; then
  SDK_STACK=running bash scripts/sdk-test.sh || rc=$?
fi
# The WordPress plugin in a real WordPress against this same stack (web/e2e-wp, its own
# folder: not in the glob above); on a full run, or with E2E_WORDPRESS=1.
if [ $# -eq 0 ] || [ -n "${E2E_WORDPRESS:-}" ]; then
  echo "== WordPress plugin: scripts/wordpress-test.sh"
  CHAPAR_STACK_REUSE=1 bash scripts/wordpress-test.sh || rc=1
fi
# A failure leaves a short account of the stack (E2E_DIAG, or stderr): the sends not
# closed, their recipients by state, the claims in hand, and each process's last
# warnings, so a failure on a machine that is gone can still be read.
if [ "$rc" != 0 ]; then
  {
    echo "== e2e diagnostics: sends not closed, their recipients by status, claims"
    psql "$DATABASE_URL" -Xq -c "SELECT id, type, status, recipients, submitted, rejected, delivered, undelivered,
        created_at::time(0) AS created, expanded_at::time(0) AS expanded, updated_at::time(0) AS updated
      FROM sends WHERE finished_at IS NULL AND status NOT IN ('scheduled', 'review') ORDER BY id DESC LIMIT 15" \
      -c "SELECT r.send_id, r.status, r.unknown, count(*) FROM recipients r JOIN sends s ON s.id = r.send_id
      WHERE s.finished_at IS NULL GROUP BY 1, 2, 3 ORDER BY 1 DESC LIMIT 30" \
      -c "SELECT send_id, batch, operator, handed, cardinality(ids) AS ids, renewed_at::time(0) FROM recipient_claims LIMIT 20" 2>&1 || true
    for p in api worker smpp-gateway smsc-sim; do
      echo "== e2e diagnostics: $p, last warnings"
      grep -E 'level=(WARN|ERROR)|panic' "$STACK_RUN/$p.log" 2>/dev/null | grep -v 'path=/readyz' | tail -n 15 | cut -c1-400 || true
    done
  } >>"${E2E_DIAG:-/dev/stderr}"
fi
exit "$rc"

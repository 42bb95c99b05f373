#!/usr/bin/env bash
# The README's test command (`make test`): vet, Go unit and integration tests against
# real PostgreSQL and Redis, the panel's ESLint and vitest, the Playwright end-to-end tests
# in Debian's Chromium against the real running stack, the metrics of a real stack
# scraped by Debian's Prometheus (scripts/metrics-test.sh), and the release (`make dist`)
# behind nginx with TLS (scripts/proxy-test.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/toolchain.sh
# pkg/invoice prints the invoice with Chromium, and its test reads and renders the
# PDF with poppler-utils.
command -v pdftoppm >/dev/null || apt_install poppler-utils
[ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ] || apt_install chromium
# deploy's TestSystemdUnits checks the units with Debian's systemd-analyze.
command -v systemd-analyze >/dev/null || apt_install systemd
set -a; . ./.data/env; set +a
export TEST_DATABASE_URL REDIS_ADDR
fail=0
failed=() # what failed, with the lines that say why, printed last (CI shows the tail)
step() { printf '\n== %s (%s)\n' "$*" "$(date +%T)"; }
# failed_step NAME LOG PATTERN [AFTER]: note NAME as failed, with LOG's lines
# matching PATTERN and the AFTER lines that follow each (node:test prints a
# failure's message and stack below its «not ok» line).
failed_step() {
  fail=1
  failed+=("-- $1")
  local why
  why=$(grep -E -A "${4:-0}" -- "$3" "$2" 2>/dev/null | head -n 60 | cut -c1-300) || true
  [ -n "$why" ] || why=$(tail -n 15 "$2" 2>/dev/null | cut -c1-300) || true
  failed+=("$why")
}

step "gofmt, go vet and go.mod tidy"
vet_log=$(mktemp)
bad=$(gofmt -l $(bash scripts/gofiles.sh)) || fail=1
if [ -n "$bad" ]; then echo "gofmt needed: $bad" | tee -a "$vet_log"; failed_step gofmt "$vet_log" 'gofmt needed'; fi
go vet ./... 2>&1 | tee -a "$vet_log" || failed_step "go vet" "$vet_log" '.'
# go.mod names the modules the code imports as direct requirements; a change that
# leaves it untidy fails here (the diff is printed).
go mod tidy -diff >"$vet_log.tidy" 2>&1 || { cat "$vet_log.tidy"; failed_step "go mod tidy" "$vet_log.tidy" '.'; }

# The Go tests and the end-to-end tests mostly wait on PostgreSQL, Redis, the
# simulator and the browser: they run in the background, side by side (each on its
# own databases, Redis and free ports), while ESLint and vitest use the cores; their
# output is printed when all are done. The end-to-end run starts first, as the
# longest (about 8 minutes of tests on a quiet machine).
e2e_log=$(mktemp) e2e_diag=$(mktemp) e2e_pid=
if [ -d web/e2e ] && ls web/e2e/*.test.mjs >/dev/null 2>&1; then
  step "panel: build and Playwright end to end (in the background; its output follows)"
  E2E_DIAG=$e2e_diag bash scripts/e2e.sh >"$e2e_log" 2>&1 &
  e2e_pid=$!
fi
step "go test (in the background; its output follows)"
gotest_log=$(mktemp)
# -timeout is per package and only a safety net against a hang: pkg/httpapi alone
# took 14m56s beside a busy loop (8 alone), and a machine at load 10 is slower still.
go test -count=1 -timeout 60m ./... >"$gotest_log" 2>&1 &
gotest_pid=$!
trap 'kill "$gotest_pid" ${e2e_pid:+"$e2e_pid"} 2>/dev/null || true' EXIT

step "panel: ESLint (hooks, TypeScript, feature boundaries)"
lint_log=$(mktemp)
(cd web && npm run --silent lint) 2>&1 | tee "$lint_log" || failed_step "ESLint" "$lint_log" 'error|✖'

step "panel: vitest"
vitest_log=$(mktemp)
(cd web && npx vitest run --passWithNoTests) 2>&1 | tee "$vitest_log" ||
  failed_step "vitest" "$vitest_log" 'FAIL|AssertionError|Error:|×|✗'

if [ -n "$e2e_pid" ]; then
  step "panel: Playwright end to end"
  e2e_rc=0
  wait "$e2e_pid" || e2e_rc=$?
  cat "$e2e_log"
  [ "$e2e_rc" = 0 ] || { echo "end to end: FAILED"; failed_step "end to end (exit $e2e_rc)" "$e2e_log" '^ *not ok|^# (fail|cancelled)|not ready' 22; }
fi

step "go test"
gotest_rc=0
wait "$gotest_pid" || gotest_rc=$?
cat "$gotest_log"
[ "$gotest_rc" = 0 ] || { echo "go test: FAILED"; failed_step "go test" "$gotest_log" '^(--- FAIL|FAIL|panic:|ok  .*FAIL)|_test\.go:[0-9]+:|timed out'; }
# Metrics end to end: promtool checks and unit-tests the alert rules, Debian's
# Prometheus scrapes a real stack during a send, every dashboard query returns data
# (scripts/metrics-test.sh, about a minute).
step "metrics: alert rules, Prometheus scraping a send, the dashboard's queries"
metrics_log=$(mktemp)
bash scripts/metrics-test.sh >"$metrics_log" 2>&1 ||
  failed_step "metrics end to end" "$metrics_log" '^(--- FAIL|FAIL)|_test\.go:[0-9]+:|FAILED|not ready'
grep -E '^(=== RUN|--- |ok|FAIL|PASS)|_test\.go:|SUCCESS|FAILED' "$metrics_log" | tail -n 20 || true
rm -f "$metrics_log"
# The release and its TLS proxy: `make dist` (the panel, the binaries, the tarball
# and the .deb), then Debian's nginx with deploy/nginx/chapar.conf and a self-signed
# certificate in front of the release's stack: the panel, an API call and a live
# websocket over HTTPS (scripts/proxy-test.sh, about a minute after the build).
step "release: make dist, then the TLS proxy in front of it"
dist_log=$(mktemp)
{ DIST_SKIP_WEB=${e2e_pid:+1} bash scripts/dist.sh && bash scripts/proxy-test.sh; } >"$dist_log" 2>&1 ||
  failed_step "release and TLS proxy" "$dist_log" '^(--- FAIL|FAIL)|_test\.go:[0-9]+:|FAILED|not ready|error'
grep -E '^(ok|FAIL|--- |PASS)|dist/|proxy test' "$dist_log" | tail -n 20 || true
rm -f "$dist_log"
# The inbound stream's fuzz target (pkg/inbound FuzzInboundEntry: arbitrary bytes
# in every field of an entry, applied on the real database), for a bounded time.
step "go fuzz: inbound parse and apply (30 s)"
fuzz_log=$(mktemp)
go test -run '^$' -fuzz '^FuzzInboundEntry$' -fuzztime 30s -parallel 1 ./pkg/inbound >"$fuzz_log" 2>&1 ||
  failed_step "inbound fuzz" "$fuzz_log" '^(--- FAIL|FAIL)|_test\.go:[0-9]+:|Failing input|panic:'
grep -v 'migration applied' "$fuzz_log" | tail -n 5
rm -f "$fuzz_log"
# What the end-to-end stack looked like when a test there failed (scripts/e2e.sh).
if [ -s "${e2e_diag:-}" ]; then echo; cat "$e2e_diag"; fi
rm -f "${e2e_diag:-}"

rm -f "$vet_log" "$lint_log" "$vitest_log" "$e2e_log" "$gotest_log"

if [ "$fail" != 0 ]; then
  echo; echo "== what failed"
  printf '%s\n' "${failed[@]}"
  echo; echo "make test: FAILED"; exit 1
fi
echo; echo "make test: all passed"

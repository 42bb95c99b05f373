#!/usr/bin/env bash
# The README's test command (`make test`): vet, Go unit and integration tests against
# real PostgreSQL and Redis, the panel's ESLint and vitest, the Playwright end-to-end tests
# in Debian's Chromium against the real running stack, the metrics of a real stack
# scraped by Debian's Prometheus (scripts/metrics-test.sh), the stack through
# PgBouncer (scripts/pooler-test.sh), reports from a streaming replica
# (scripts/replica-test.sh) and a rolling upgrade from the previous release
# (scripts/upgrade-test.sh), backups with a point-in-time restore
# (scripts/backup-test.sh), the release (`make dist`) behind nginx with TLS
# (scripts/proxy-test.sh) and its .deb installed on a clean Debian (scripts/deb-test.sh).
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
# The end-to-end run touches e2e_built once it has built the panel and the binaries:
# the operator checks build binaries that embed web/dist too, so they start after.
e2e_built=$(mktemp -u)
if [ -d web/e2e ] && ls web/e2e/*.test.mjs >/dev/null 2>&1; then
  step "panel: build and Playwright end to end (in the background; its output follows)"
  E2E_DIAG=$e2e_diag E2E_BUILT=$e2e_built bash scripts/e2e.sh >"$e2e_log" 2>&1 &
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

# The operator checks, each on a stack of its own (private ports, databases and
# Redis), in two chains that run in the background beside the Go and end-to-end
# tests once ESLint and vitest have freed the cores and the end-to-end run has built
# the panel; each chain runs its checks one after another, and their summaries
# follow the go test output. ops_cmd is the command, ops_why the pattern of a
# failure's lines, ops_show the pattern of the summary lines printed.
ops_a=(metrics pooler replica backups upgrade)
ops_b=(release deb)
declare -A ops_title ops_cmd ops_why ops_show
# Promtool checks and unit-tests the alert rules, Debian's Prometheus scrapes a real
# stack during a send, every dashboard query returns data (about a minute).
ops_title[metrics]="metrics: alert rules, Prometheus scraping a send, the dashboard's queries"
ops_cmd[metrics]='bash scripts/metrics-test.sh'
ops_why[metrics]='^(--- FAIL|FAIL)|_test\.go:[0-9]+:|FAILED|not ready'
ops_show[metrics]='^(=== RUN|--- |ok|FAIL|PASS)|_test\.go:|SUCCESS|FAILED'
# PgBouncer in transaction mode in front of the server: a 5,000-recipient send
# through it, each recipient final and submitted once, the ledger exact (about 1.5
# minutes; `make pooler-test` also runs Go integration tests through PgBouncer).
ops_title[pooler]="pooler: the stack through PgBouncer in transaction mode"
ops_cmd[pooler]='POOLER_GO_TESTS= bash scripts/pooler-test.sh'
ops_why[pooler]='FAILED|not ready|only [0-9]+ of|refused|error'
ops_show[pooler]='^\[pooler'
# Reports read from a real streaming replica of a private primary, and from the
# primary when the replica is behind or stopped (about a minute).
ops_title[replica]="replica: reports from a streaming replica, and the fallback to the primary"
ops_cmd[replica]='bash scripts/replica-test.sh'
ops_why[replica]='^(--- FAIL|FAIL)|_test\.go:[0-9]+:|FAILED'
ops_show[replica]='^(--- |ok|FAIL|PASS)|replica'
# A base backup and a point-in-time restore during a send on a private cluster
# archiving its WAL, then Redis flushed mid-send (docs/backups.md; about 4 minutes;
# `make backup-test` runs it at 100,000).
ops_title[backups]="backups: point-in-time restore during a send, Redis flushed mid-send (5,000 recipients)"
ops_cmd[backups]='BACKUP_N=5000 bash scripts/backup-test.sh'
ops_why[backups]='FAILED|timed out|not ready|did not start'
ops_show[backups]='^(==|  )|passed'
# The release and its TLS proxy: `make dist` (the binaries, the tarball and the .deb,
# with the panel the end-to-end run built), then Debian's nginx with
# deploy/nginx/chapar.conf and a self-signed certificate in front of the release's
# stack: the panel, an API call and a live websocket over HTTPS (about two minutes).
ops_title[release]="release: make dist, then the TLS proxy in front of it"
ops_cmd[release]='DIST_SKIP_WEB=1 bash scripts/dist.sh && bash scripts/proxy-test.sh'
ops_why[release]='^(--- FAIL|FAIL)|_test\.go:[0-9]+:|FAILED|not ready|error'
ops_show[release]='^(ok|FAIL|--- |PASS)|dist/|proxy test'
# The .deb on a clean Debian bookworm booted with systemd-nspawn: docs/deployment.md's
# steps, a send through nginx and the simulator, an invoice printed, Prometheus
# scraping the units (4 to 9 minutes; the Debian root is cached under .data/deb-test).
ops_title[deb]="the .deb on a clean Debian machine (systemd-nspawn)"
ops_cmd[deb]='bash scripts/deb-test.sh'
ops_why[deb]='FAIL|failed|error'
ops_show[deb]='^\[deb-test'
# The previous release's binaries serve a send while this tree's migrations apply,
# then each process rolls to this tree's (docs/upgrades.md; 3 to 8 minutes, most of
# it two builds).
ops_title[upgrade]="rolling upgrade from the previous release (5,000 recipients)"
ops_cmd[upgrade]='UPGRADE_N=5000 bash scripts/upgrade-test.sh'
ops_why[upgrade]='FAILED|not ready|no .* after'
ops_show[upgrade]=' upgrade: |FAILED'
ops_dir=$(mktemp -d)
# ops_chain NAME…: the checks one after another, each one's exit code and seconds
# in $ops_dir/NAME.rc and its output in $ops_dir/NAME.log.
ops_chain() {
  while [ -n "$e2e_pid" ] && [ ! -e "$e2e_built" ] && kill -0 "$e2e_pid" 2>/dev/null; do sleep 2; done
  local n rc start
  for n in "$@"; do
    rc=0 start=$SECONDS
    bash -c "${ops_cmd[$n]}" >"$ops_dir/$n.log" 2>&1 || rc=$?
    echo "$rc $((SECONDS - start))" >"$ops_dir/$n.rc"
  done
}
step "operator checks: ${ops_a[*]} | ${ops_b[*]} (in the background; their output follows)"
ops_chain "${ops_a[@]}" &
ops_pid=$!
ops_chain "${ops_b[@]}" &
ops_pid2=$!
trap 'kill "$gotest_pid" "$ops_pid" "$ops_pid2" ${e2e_pid:+"$e2e_pid"} 2>/dev/null || true' EXIT

if [ -n "$e2e_pid" ]; then
  step "panel: Playwright end to end"
  e2e_rc=0
  wait "$e2e_pid" || e2e_rc=$?
  cat "$e2e_log"
  [ "$e2e_rc" = 0 ] || { echo "end to end: FAILED"; failed_step "end to end (exit $e2e_rc)" "$e2e_log" '^ *not ok|^# (fail|cancelled)|not ready|^--- FAIL|^FAIL:|^sdk: FAILED' 22; }
fi

step "go test"
gotest_rc=0
wait "$gotest_pid" || gotest_rc=$?
cat "$gotest_log"
[ "$gotest_rc" = 0 ] || { echo "go test: FAILED"; failed_step "go test" "$gotest_log" '^(--- FAIL|FAIL|panic:|ok  .*FAIL)|_test\.go:[0-9]+:|timed out'; }

wait "$ops_pid" "$ops_pid2" || true
for n in "${ops_a[@]}" "${ops_b[@]}"; do
  read -r rc secs <"$ops_dir/$n.rc" 2>/dev/null || { rc=1 secs=0; }
  step "${ops_title[$n]} (${secs} s)"
  grep -E -- "${ops_show[$n]}" "$ops_dir/$n.log" | tail -n 20 || true
  [ "$rc" = 0 ] || { echo "$n: FAILED"; failed_step "$n" "$ops_dir/$n.log" "${ops_why[$n]}"; }
done
rm -rf "$ops_dir"
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

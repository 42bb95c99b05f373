#!/usr/bin/env bash
# The client libraries of sdk/ (Go, Python, JavaScript, PHP) against the real stack:
# an API key of the demo account is made through the API (login → texted code →
# create), the demo's service line is picked, a webhook signature is made by the Go
# signer (pkg/webhook), then each library's tests run with CHAPAR_URL, CHAPAR_KEY,
# CHAPAR_LINE, SIM_URL and CHAPAR_WEBHOOK_VECTOR: a send delivered, status by id and
# local_id, credit down, a pattern send, inbox since, Persian errors, retries, the
# webhook vector (docs/sdk.md).
#
# scripts/e2e.sh runs it after the Playwright files on its own stack (SDK_STACK=running,
# with HTTP_ADDR and SIM_HTTP_ADDR exported); alone (`bash scripts/sdk-test.sh`,
# `make sdk-test`) it builds and starts a stack of its own and stops it after.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/toolchain.sh
. scripts/apt.sh
command -v php >/dev/null || apt_install php-cli
command -v python3 >/dev/null || apt_install python3

if [ "${SDK_STACK:-}" != running ]; then
  set -a; . ./.data/env; set +a
  [ -f web/dist/index.html ] || { (cd web && { [ -d node_modules ] || npm ci --no-audit --no-fund; } && npm run build >/dev/null); }
  go build -o bin/ ./cmd/...
  . scripts/stack.sh
  KEEP_STACK_LOGS=${KEEP_SDK_LOGS:-}
  stack_init sdk
  trap stack_cleanup EXIT
  stack_start_redis
  stack_prepare_db
  stack_start_all
fi
: "${HTTP_ADDR:?HTTP_ADDR is not set}" "${SIM_HTTP_ADDR:?SIM_HTTP_ADDR is not set}"
export CHAPAR_URL=http://$HTTP_ADDR SIM_URL=http://$SIM_HTTP_ADDR CHAPAR_PATTERN=login-otp

# The key and the line, through the API as an integrator gets them.
read -r CHAPAR_KEY CHAPAR_LINE < <(python3 - <<'PY'
import datetime, json, os, re, time, urllib.error, urllib.request
API, SIM = os.environ["CHAPAR_URL"] + "/v1/api", os.environ["SIM_URL"]

def call(method, path, body=None, token=None, tries=5):
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {token}"} if token else {"Content-Type": "application/json"}
    req = urllib.request.Request(API + path, method=method, headers=headers,
                                 data=None if body is None else json.dumps(body).encode())
    try:
        with urllib.request.urlopen(req, timeout=30) as res:
            return json.load(res)["data"]
    except urllib.error.HTTPError as err:  # rate limited (codes to the demo's mobile): wait as told
        if err.code != 429 or tries <= 1:
            raise SystemExit(f"{method} {path}: {err.code} {err.read().decode()}")
        time.sleep(min(float(err.headers.get("Retry-After") or 5), 60))
        return call(method, path, body, token, tries - 1)

token = call("POST", "/acl/auth/login", {"username": "demo", "password": "Demo@12345"})["token"]
asked = (datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(seconds=2)).strftime("%Y-%m-%dT%H:%M:%SZ")
step = call("POST", "/acl/api_key/otp", {}, token)
code, end = None, time.monotonic() + 60
while not code and time.monotonic() < end:
    with urllib.request.urlopen(f"{SIM}/messages?to=989120000000&since={asked}", timeout=10) as res:
        msgs = json.load(res)["messages"]
    text = (msgs[-1]["text"] if msgs else "").translate(str.maketrans("۰۱۲۳۴۵۶۷۸۹", "0123456789"))
    code = (re.search(r"\b\d{4,8}\b", text) or [None])[0]
    time.sleep(0 if code else 0.3)
if not code:
    raise SystemExit("no API key code reached the demo's mobile at the simulator")
key = call("POST", "/acl/api_key/create", {"title": "کتابخانه‌های sdk", "allowed_ips": [], "expires_at": None,
    "scopes": ["send.create", "report.view", "wallet.view", "number.view"], "otp_token": step["otp_token"], "code": code}, token)["secret"]
lines = call("GET", "/number/numbers", token=key)
line = next((l for l in lines if l["kind"] == "service"), lines[0])["number"]
print(key, line)
PY
)
export CHAPAR_KEY CHAPAR_LINE
CHAPAR_WEBHOOK_VECTOR=$(go run ./internal/testing/webhookvector)
export CHAPAR_WEBHOOK_VECTOR
echo "[sdk] API key made for the demo account; line $CHAPAR_LINE; API $CHAPAR_URL"

failed=()
run() { # NAME DIR CMD…
  local name=$1 dir=$2; shift 2
  echo "== sdk: $name"
  (cd "$dir" && "$@") || failed+=("$name")
}
run go sdk/go go test -count=1 -v ./...
run python sdk/python env PYTHONPATH=src python3 -m unittest discover -s tests -v
run js sdk/js node --test test/
if [ -x web/node_modules/.bin/tsc ]; then
  run js-types sdk/js ../../web/node_modules/.bin/tsc --noEmit --strict --target es2022 --module nodenext \
    --moduleResolution nodenext --lib es2022,dom --typeRoots ../../web/node_modules/@types --types node test/types-check.ts
fi
run php sdk/php php tests/run.php

if [ ${#failed[@]} -gt 0 ]; then
  echo "sdk: FAILED: ${failed[*]}"
  exit 1
fi
echo "sdk: all libraries passed"

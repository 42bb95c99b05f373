#!/usr/bin/env bash
# Runs sqlmap (level 2, risk 1) against a running API: the search, filter, paging and
# body parameters of the public and signed-in routes attackers reach first. Signs in
# as the demo account. Prints each route's verdict and exits non-zero when sqlmap
# reports an injectable parameter. Start the product first (`make run`), then:
#
#   bash scripts/sqlmap.sh [http://127.0.0.1:8080]
#
# Installs sqlmap from Debian when missing. Each route is bounded to SQLMAP_SECONDS
# (default 300). Give the product generous rate limits for the run (RATE_*), or the
# limits answer 429 to most probes.
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/apt.sh
BASE=${1:-http://127.0.0.1:8080}/v1/api
SECS=${SQLMAP_SECONDS:-300}
OUT=.data/sqlmap
mkdir -p "$OUT"
command -v sqlmap >/dev/null || apt_install sqlmap
TOKEN=$(curl -fsS -H 'Content-Type: application/json' -d '{"username":"demo","password":"Demo@12345"}' "$BASE/acl/auth/login" | jq -r .data.token)
[ -n "$TOKEN" ] && [ "$TOKEN" != null ] || { echo "demo login failed" >&2; exit 1; }
AUTH="Authorization: Bearer $TOKEN"

# method path body(JSON, empty for GET) auth(yes/no)
ROUTES=(
  "POST /user/check_exist {\"username\":\"probe\"} no"
  "POST /acl/auth/login {\"username\":\"probe\",\"password\":\"probe\"} no"
  "POST /acl/auth/forgot_password {\"username\":\"probe\"} no"
  "GET /report/new_list?page=1&limit=10&search=probe - yes"
  "GET /report/recipients?id=1&page=1&mobile=0912 - yes"
  "GET /phonebooks/list-new?page=1&search=probe - yes"
  "GET /phonebooks/numbers/contact-list?page=1&search=probe&phonebook_id=1 - yes"
  "GET /user/files?page=1&search=probe - yes"
  "GET /send/campaigns?page=1 - yes"
  "GET /user/audit?page=1&action=send.create - yes"
  "POST /send/calculate-price {\"type\":\"quick\",\"text\":\"probe\",\"numbers\":[\"09121234567\"]} yes"
  "POST /phonebooks {\"name\":\"probe\"} yes"
)
found=0
for r in "${ROUTES[@]}"; do
  read -r method path body auth <<<"$r"
  args=(-u "$BASE$path" --batch --level=2 --risk=1 --flush-session --output-dir="$OUT" --disable-coloring -v 0 --timeout=10 --retries=1)
  [ "$auth" = yes ] && args+=(-H "$AUTH")
  [ "$method" = POST ] && args+=(--method=POST --data="$body" -H 'Content-Type: application/json')
  log="$OUT/$(echo "$method$path" | tr -c 'A-Za-z0-9' '_').log"
  timeout "$SECS" sqlmap "${args[@]}" >"$log" 2>&1
  rc=$?
  if grep -qiE "is vulnerable|sqlmap identified the following injection" "$log"; then
    verdict="INJECTABLE"; found=1
  elif [ "$rc" = 124 ]; then verdict="time limit reached, nothing found"
  else verdict="not injectable"
  fi
  printf '%-6s %-60s %s\n' "$method" "$path" "$verdict"
done
exit "$found"

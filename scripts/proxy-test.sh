#!/usr/bin/env bash
# The TLS reverse proxy end to end (docs/deployment.md), a step of `make test`
# (about a minute once `make dist` has run; it runs `make dist` when the release
# of this version is missing). Debian's nginx with deploy/nginx/chapar.conf
# (its ports, certificate and upstream replaced by private ones) and a
# self-signed certificate made with openssl, in front of the release's binaries
# running the real stack (scripts/stack.sh). Over HTTPS, trusting only that
# certificate, it asserts: plain HTTP is redirected to HTTPS; the panel's
# index.html and one of its hashed assets; an API call's envelope reporting this
# version, with HSTS (the API believes the proxy); and deploy's
# TestWebsocketThroughProxy: a websocket upgraded through the proxy that
# receives a live event of a real send. KEEP_STACK_LOGS=1 keeps the logs.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/toolchain.sh
set -a; . ./.data/env; set +a
. scripts/apt.sh
command -v nginx >/dev/null || apt_install nginx-light
command -v openssl >/dev/null || apt_install openssl

version=$(bash scripts/version.sh)
release=dist/chapar-$version-linux-amd64
[ -x "$release/bin/chapar-api" ] || bash scripts/dist.sh
. scripts/stack.sh
stack_init proxy
trap stack_cleanup EXIT
STACK_BIN=$STACK_RUN/bin
mkdir -p "$STACK_BIN"
for b in api worker smpp-gateway; do ln -s "$(pwd)/$release/bin/chapar-$b" "$STACK_BIN/$b"; done
go build -o "$STACK_BIN/smsc-sim" ./cmd/smsc-sim # the carriers: not part of a release
stack_start_redis
export SIM_RECEIPT_DELAY_MS=100-800 BANK_SIZE=2000 TRUSTED_PROXIES=127.0.0.1
LOG_LEVEL=warn stack_prepare_db
stack_start_all

# A self-signed certificate for 127.0.0.1, and nginx on two free ports with the
# example site: only the listen addresses, certificate paths and upstream change.
px=$STACK_RUN/nginx
mkdir -p "$px/www" "$px/tmp"
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 \
  -addext subjectAltName=IP:127.0.0.1 -keyout "$px/key.pem" -out "$px/cert.pem" 2>/dev/null
read -r http_port https_port <<<"$(stack_free_ports 2)"
sed -e "s|listen 80;|listen 127.0.0.1:$http_port;|" -e "s|listen 443 ssl http2;|listen 127.0.0.1:$https_port ssl http2;|" \
  -e '/listen \[::\]/d' -e "s|server 127.0.0.1:8080;|server $HTTP_ADDR;|" \
  -e "s|/etc/letsencrypt/live/sms.example.ir/fullchain.pem|$px/cert.pem|" \
  -e "s|/etc/letsencrypt/live/sms.example.ir/privkey.pem|$px/key.pem|" -e "s|root /var/www/html;|root $px/www;|" \
  deploy/nginx/chapar.conf >"$px/chapar.conf"
grep -q "$HTTP_ADDR" "$px/chapar.conf" && grep -q "$px/cert.pem" "$px/chapar.conf" ||
  { echo "deploy/nginx/chapar.conf: the upstream or certificate lines changed; update this script" >&2; exit 1; }
# Workers run as nobody when the master is root: the temporary files' folder is theirs.
[ "$(id -u)" != 0 ] || chown nobody "$px/tmp"
chmod 755 "$STACK_RUN" "$px"
cat >"$px/nginx.conf" <<CONF
daemon off;
worker_processes 1;
pid $px/nginx.pid;
error_log $px/error.log warn;
events { worker_connections 256; }
http {
  access_log $px/access.log;
  client_body_temp_path $px/tmp/body;
  proxy_temp_path $px/tmp/proxy;
  fastcgi_temp_path $px/tmp/fastcgi;
  uwsgi_temp_path $px/tmp/uwsgi;
  scgi_temp_path $px/tmp/scgi;
  include $px/chapar.conf;
}
CONF
nginx -t -q -p "$px" -e "$px/error.log" -c "$px/nginx.conf"
stack_start nginx nginx -p "$px" -e "$px/error.log" -c "$px/nginx.conf"
https=https://127.0.0.1:$https_port
get() { curl -sS --max-time 60 --cacert "$px/cert.pem" "$@"; }
deadline=$((SECONDS + 60))
until get -o /dev/null "$https/healthz" 2>/dev/null; do
  ((SECONDS < deadline)) || { echo "nginx did not answer"; cat "$px/error.log"; exit 1; }
  sleep 0.2
done

fail=0
check() { # what, then a command that must succeed
  local what=$1; shift
  if "$@" >/dev/null; then echo "ok   $what"; else echo "FAIL $what"; fail=1; fi
}
redirect=$(curl -sS -o /dev/null -w '%{http_code} %{redirect_url}' "http://127.0.0.1:$http_port/reports?x=1")
check "HTTP redirects to HTTPS ($redirect)" test "$redirect" = "301 https://127.0.0.1/reports?x=1"
index=$(get -f "$https/")
check "the panel's index.html over HTTPS" grep -q '<div id="root"' <<<"$index"
asset=$(grep -oE '/assets/[^"]+\.js' <<<"$index" | head -n 1)
check "a hashed asset ($asset)" bash -c 'test -n "$1" && curl -fsS --max-time 60 --cacert "$2" -o /dev/null -w "%{content_type}" "$3$1" | grep -q javascript' _ "$asset" "$px/cert.pem" "$https"
headers=$(get -f -D - -o "$px/healthz.json" "$https/healthz")
check "an API call's envelope with this version" jq -e --arg v "$version" '.data.status == "ok" and .data.version == $v and .meta.status == 200' "$px/healthz.json"
check "HSTS: the API believes the proxy's X-Forwarded-Proto" grep -qi '^strict-transport-security:' <<<"$headers"
CHAPAR_PROXY_URL=$https CHAPAR_PROXY_CA=$px/cert.pem \
  go test -count=1 -run '^TestWebsocketThroughProxy$' -v ./deploy/ || fail=1
if [ "$fail" != 0 ]; then
  for p in nginx api; do echo "== $p, last lines"; tail -n 15 "$STACK_RUN/$p.log" 2>/dev/null | cut -c1-400 || true; done
  tail -n 15 "$px/error.log" || true
  echo "proxy test: FAILED"
  exit 1
fi
echo "proxy test: all passed"

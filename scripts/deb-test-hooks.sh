# shellcheck shell=bash
# Put by scripts/deb-test.sh at the head of the script it runs inside the test
# machine, before docs/deployment.md's blocks: hook_N runs after the page's Nth
# `sh deb-test` block, after_all at the end. They do what the page cannot on a
# machine without the internet, then check the result; `ok`/`FAIL` lines are
# printed by the test.

# wait_for SECONDS WHAT CMD…: runs CMD until it succeeds; a safety net, not a speed limit.
wait_for() {
  local deadline=$((SECONDS + $1)) what=$2
  shift 2
  until "$@"; do
    ((SECONDS < deadline)) || { echo "FAIL $what (not within the safety net)"; return 1; }
    sleep 1
  done
  echo "ok   $what"
}

# After the settings: the carriers are the simulator, on this machine.
hook_5() {
  apt-get install -y -qq jq >/dev/null # the checks read JSON
  systemd-run --unit chapar-sim -E SIM_RECEIPT_DELAY_MS=100-800 /usr/local/bin/smsc-sim
  wait_for 60 "the carrier simulator answers" curl -fsS -o /dev/null http://127.0.0.1:2780/healthz
  sed -i 's/^GATEWAY_BINDS=.*/GATEWAY_BINDS=mci=127.0.0.1:2775,irancell=127.0.0.1:2776,rightel=127.0.0.1:2777,sandbox=127.0.0.1:2778/' \
    /etc/chapar/smpp-gateway.env
  printf '%s' secret >/etc/chapar/credentials/smpp_password
  chmod 600 /etc/chapar/credentials/smpp_password
}

# After nginx and certbot are installed: a self-signed certificate where certbot
# puts Let's Encrypt's, trusted by this machine, and the domain on this machine.
hook_8() {
  local live=/etc/letsencrypt/live/$DOMAIN
  mkdir -p "$live"
  openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=$DOMAIN" -addext "subjectAltName=DNS:$DOMAIN" \
    -keyout "$live/privkey.pem" -out "$live/fullchain.pem" 2>/dev/null
  cp "$live/fullchain.pem" /usr/local/share/ca-certificates/chapar-test.crt
  update-ca-certificates >/dev/null
  echo "127.0.0.1 $DOMAIN" >>/etc/hosts
}

# A send of the demo account (seeded only here) to three numbers, one per carrier,
# through the proxy: it completes (every recipient final, the send done) and the
# simulator's handsets got the text. An online payment through the sandbox bank,
# whose invoice the API prints with Chromium under its hardened unit. Then every
# unit is active and Prometheus scrapes the three services.
after_all() {
  BANK_SIZE=2000 chapar-admin seed-demo >/dev/null
  runuser -u postgres -- psql -q chapar -c 'UPDATE send_hours SET start_minute = 0, end_minute = 1440'
  local api=https://$DOMAIN token id
  token=$(curl -fsS "$api/v1/api/acl/auth/login" -H 'Content-Type: application/json' \
    -d '{"username":"demo","password":"Demo@12345"}' | jq -r .data.token)
  id=$(curl -fsS "$api/v1/api/send" -H 'Content-Type: application/json' -H "Authorization: Bearer $token" \
    -d '{"text":"آزمون نصب","numbers":["09124400200","09354400200","09214400200"]}' | jq -r .data.id)
  echo "send $id accepted"
  send_done() { [ "$(runuser -u postgres -- psql -tAq chapar -c "SELECT status FROM sends WHERE id = $id")" = done ]; }
  wait_for 600 "the send completed" send_done
  handsets() { [ "$(curl -fsS 'http://127.0.0.1:2780/messages?limit=100' | grep -oE '98(9124400200|9354400200|9214400200)' | sort -u | wc -l)" = 3 ]; }
  wait_for 60 "the three handsets got the text" handsets
  invoice_prints "$api" "$token"
  systemctl is-active chapar-migrate chapar-api chapar-worker chapar-smpp-gateway nginx prometheus
  echo "ok   every unit active"
  scraped() {
    [ "$(curl -fsS http://127.0.0.1:9090/api/v1/targets | jq '[.data.activeTargets[] | select(.labels.job | startswith("chapar-")) | select(.health == "up")] | length')" = 3 ]
  }
  wait_for 300 "Prometheus scrapes api, worker and gateway" scraped
}

# invoice_prints API TOKEN: 2,000,000 rials paid at the sandbox bank (its form's
# «pay», following the redirects back through the callback), then the payment's
# invoice downloads as a PDF.
invoice_prints() {
  local api=$1 token=$2 started pid url
  started=$(curl -fsS -H "Authorization: Bearer $token" "$api/v1/api/payment/generate-url?amount=2000000")
  pid=$(jq -r .data.payment_id <<<"$started") url=$(jq -r .data.url <<<"$started")
  [[ $url == http* ]] || url=$api$url # the built-in sandbox bank is served by the API itself
  curl -fsS -L -o /dev/null -d action=pay "$url"
  paid() { [ "$(curl -fsS -H "Authorization: Bearer $token" "$api/v1/api/payment/online/$pid" | jq -r .data.state)" = paid ]; }
  wait_for 120 "the online payment is paid" paid
  curl -fsS -H "Authorization: Bearer $token" -o /root/invoice.pdf "$api/v1/api/payment/invoice/$pid"
  [ "$(head -c 4 /root/invoice.pdf)" = %PDF ] || { echo "FAIL the invoice is not a PDF"; head -c 300 /root/invoice.pdf; return 1; }
  echo "ok   the invoice prints (Chromium under the API's unit)"
}

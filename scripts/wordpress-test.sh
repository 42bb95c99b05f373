#!/usr/bin/env bash
# The WordPress plugin «پیامک چاپار» (integrations/wordpress/chapar-sms, docs/wordpress.md)
# in a real WordPress: Debian's wordpress package (6.1) copied under a temp dir, served
# by Debian's nginx and php-fpm on a private port, on a database of its own in the
# machine's MariaDB (started when it does not answer); WordPress installed with
# wp_install() from `php`, the plugin installed from the zip the API serves
# (GET /v1/api/plugins/wordpress/download), a test mu-plugin that calls
# do_action('chapar_send_sms', …); then web/e2e-wp/wordpress.test.mjs drives it in
# Debian's Chromium against the Chapar stack and reads what the carrier simulator got.
#
# CHAPAR_STACK_REUSE=1 (scripts/e2e.sh, after its Playwright files) uses the running
# stack (HTTP_ADDR, SIM_HTTP_ADDR); otherwise the script builds the binaries and starts
# a stack of its own (scripts/stack.sh). KEEP_WP_LOGS=1 keeps the temp dir and logs;
# WP_TEST_CMD replaces the test command (run from web/ with WP_URL, WP_ADMIN_PASSWORD,
# WP_VERIFY_URL, CHAPAR_URL, SIM_URL set), e.g. WP_TEST_CMD='sleep 600' to look around.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/toolchain.sh
set -a; . ./.data/env; set +a
. scripts/apt.sh

# wp_packages: the Debian packages this test needs that are missing.
wp_packages() {
  [ -f /usr/share/wordpress/wp-load.php ] || echo wordpress
  command -v php >/dev/null || echo php-cli
  compgen -G '/usr/sbin/php-fpm*' >/dev/null || echo php-fpm
  local mods; mods=$(php -m 2>/dev/null || true)
  grep -qx mysqli <<<"$mods" || echo php-mysql
  grep -qx curl <<<"$mods" || echo php-curl
  grep -qx mbstring <<<"$mods" || echo php-mbstring
  command -v nginx >/dev/null || echo nginx
  [ -x /usr/sbin/mariadbd ] || echo mariadb-server
  command -v mariadb >/dev/null || echo mariadb-client
  [ -x /usr/bin/chromium ] || echo chromium
}
mapfile -t missing < <(wp_packages)
# nginx and php-fpm go in first: Debian's wordpress then finds an httpd and a php among
# its alternatives and does not pull in Apache (which would start on port 80).
first=() later=()
for p in "${missing[@]}"; do
  if [ "$p" = wordpress ]; then later=(php wordpress); else first+=("$p"); fi
done
if ((${#first[@]})); then apt_install "${first[@]}"; fi
if ((${#later[@]})); then apt_install "${later[@]}"; fi

WP_RUN=$(mktemp -d /tmp/chapar-wp.XXXXXX)
chmod 755 "$WP_RUN"
WP_PIDS=()
WP_DB=chapar_wp_$(date +%s)_$$
WP_DB_CREATED=
STANDALONE=

wp_cleanup() {
  local p
  for p in "${WP_PIDS[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  for p in "${WP_PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
  if [ -n "$WP_DB_CREATED" ]; then
    wp_sql -e "DROP DATABASE IF EXISTS \`$WP_DB\`; DROP USER IF EXISTS '$WP_DB'@'127.0.0.1'" >/dev/null 2>&1 || true
  fi
  if [ -z "${KEEP_WP_LOGS:-}" ]; then rm -rf "$WP_RUN"; else echo "WordPress logs in $WP_RUN" >&2; fi
  if [ -n "$STANDALONE" ]; then stack_cleanup; fi
}
trap wp_cleanup EXIT

# The Chapar stack: the running one (scripts/e2e.sh), or one of our own.
if [ -n "${CHAPAR_STACK_REUSE:-}" ]; then
  : "${HTTP_ADDR:?CHAPAR_STACK_REUSE needs HTTP_ADDR}" "${SIM_HTTP_ADDR:?CHAPAR_STACK_REUSE needs SIM_HTTP_ADDR}"
else
  STANDALONE=1
  [ -f web/dist/index.html ] || (cd web && npm run build >/dev/null)
  go build -o bin/ ./cmd/...
  . scripts/stack.sh
  KEEP_STACK_LOGS=${KEEP_WP_LOGS:-}
  stack_init wp
  stack_start_redis
  # Creating the API key texts a code to the demo owner's mobile.
  export RATE_OTP_NUMBER_PER_DAY=${RATE_OTP_NUMBER_PER_DAY:-1000}
  export BANK_SIZE=${BANK_SIZE:-1000} # no targeted sends here: a small number bank seeds fast
  stack_prepare_db
  stack_start_all
fi
curl -fsS --max-time 10 "http://$HTTP_ADDR/readyz" >/dev/null

# MariaDB: the machine's, started when it does not answer (a fresh CI machine).
if mariadb -h127.0.0.1 -uroot -e 'SELECT 1' >/dev/null 2>&1; then
  wp_sql() { mariadb -h127.0.0.1 -uroot "$@"; }
else
  wp_sql() { mariadb -uroot "$@"; } # the root account over its socket (unix_socket)
  if ! mariadb -uroot -e 'SELECT 1' >/dev/null 2>&1; then
    install -d -o mysql -g mysql /run/mysqld
    start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd
    deadline=$((SECONDS + 60))
    until mariadb -uroot -e 'SELECT 1' >/dev/null 2>&1; do
      ((SECONDS < deadline)) || { echo "MariaDB did not start" >&2; exit 1; }
      sleep 0.5
    done
  fi
fi
WP_DB_PASSWORD=$(python3 -c 'import secrets; print(secrets.token_hex(16))')
wp_sql -e "CREATE DATABASE \`$WP_DB\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
  CREATE USER '$WP_DB'@'127.0.0.1' IDENTIFIED BY '$WP_DB_PASSWORD';
  GRANT ALL ON \`$WP_DB\`.* TO '$WP_DB'@'127.0.0.1'"
WP_DB_CREATED=1

# A private copy of Debian's WordPress (its own wp-config.php and wp-content).
WP_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
WP_URL=http://127.0.0.1:$WP_PORT
WP_ROOT=$WP_RUN/wordpress
cp -a /usr/share/wordpress "$WP_ROOT"
rm -f "$WP_ROOT/wp-config.php"
mkdir -p "$WP_ROOT/wp-content/mu-plugins" "$WP_ROOT/wp-content/uploads"
salt() { python3 -c 'import secrets; print(secrets.token_urlsafe(48))'; }
{
  echo "<?php"
  echo "define('DB_NAME', '$WP_DB'); define('DB_USER', '$WP_DB'); define('DB_PASSWORD', '$WP_DB_PASSWORD');"
  echo "define('DB_HOST', '127.0.0.1:3306'); define('DB_CHARSET', 'utf8mb4'); define('DB_COLLATE', '');"
  for k in AUTH_KEY SECURE_AUTH_KEY LOGGED_IN_KEY NONCE_KEY AUTH_SALT SECURE_AUTH_SALT LOGGED_IN_SALT NONCE_SALT; do
    echo "define('$k', '$(salt)');"
  done
  cat <<EOF
\$table_prefix = 'wp_';
define('WP_HOME', '$WP_URL');
define('WP_SITEURL', '$WP_URL');
define('WP_CONTENT_DIR', __DIR__ . '/wp-content');
define('WP_CONTENT_URL', '$WP_URL/wp-content');
// No internet here: WordPress reaches only itself (and the Chapar API on 127.0.0.1).
define('WP_HTTP_BLOCK_EXTERNAL', true);
define('AUTOMATIC_UPDATER_DISABLED', true);
define('DISABLE_WP_CRON', true);
define('FS_METHOD', 'direct');
// Errors and warnings go to php-errors.log (WordPress 6.1's deprecations under PHP 8.2 are left out).
define('WP_DEBUG', false);
if (!defined('ABSPATH')) { define('ABSPATH', __DIR__ . '/'); }
require_once ABSPATH . 'wp-settings.php';
EOF
} >"$WP_ROOT/wp-config.php"

# The plugin as a site owner gets it: the zip from the API, unpacked into plugins/.
curl -fsS "http://$HTTP_ADDR/v1/api/plugins/wordpress/download" -o "$WP_RUN/chapar-sms.zip"
python3 -m zipfile -e "$WP_RUN/chapar-sms.zip" "$WP_ROOT/wp-content/plugins/"
cp web/e2e-wp/fixtures/chapar-fixture.php "$WP_ROOT/wp-content/mu-plugins/"

# WordPress's own installer (wp-cli is not in Debian bookworm): an admin with a
# random password, registration open, Persian, a page with the shortcode.
WP_ADMIN_PASSWORD=$(python3 -c 'import secrets; print(secrets.token_urlsafe(18))')
WP_VERIFY_URL=$(php web/e2e-wp/fixtures/install.php "$WP_ROOT" "$WP_URL" "$WP_ADMIN_PASSWORD" 2>>"$WP_RUN/install.log")
[ -n "$WP_VERIFY_URL" ] || { cat "$WP_RUN/install.log" >&2; exit 1; }

# The plugin's own rules (mobiles, the envelope's errors, the masked key, the code's
# hash, attempts and expiry) in this WordPress, before the browser test.
php web/e2e-wp/fixtures/unit.php "$WP_ROOT"

# php-fpm and nginx on the private port.
FPM=$(compgen -G '/usr/sbin/php-fpm*' | head -n 1)
root_flag=() nginx_user=
if [ "$(id -u)" = 0 ]; then root_flag=(-R); nginx_user='user root;'; fi
cat >"$WP_RUN/php-fpm.conf" <<EOF
[global]
pid = $WP_RUN/php-fpm.pid
error_log = $WP_RUN/php-fpm.log
daemonize = no
[wp]
$( [ "$(id -u)" = 0 ] && printf 'user = root\ngroup = root' )
listen = $WP_RUN/php-fpm.sock
pm = dynamic
pm.max_children = 4
pm.start_servers = 2
pm.min_spare_servers = 1
pm.max_spare_servers = 3
catch_workers_output = yes
php_admin_flag[log_errors] = on
php_admin_value[error_log] = $WP_RUN/php-errors.log
EOF
mkdir -p "$WP_RUN/nginx-tmp"
cat >"$WP_RUN/nginx.conf" <<EOF
$nginx_user
worker_processes 1;
daemon off;
pid $WP_RUN/nginx.pid;
error_log $WP_RUN/nginx-error.log warn;
events { worker_connections 256; }
http {
  include /etc/nginx/mime.types;
  access_log $WP_RUN/nginx-access.log;
  client_body_temp_path $WP_RUN/nginx-tmp/body;
  proxy_temp_path $WP_RUN/nginx-tmp/proxy;
  fastcgi_temp_path $WP_RUN/nginx-tmp/fastcgi;
  uwsgi_temp_path $WP_RUN/nginx-tmp/uwsgi;
  scgi_temp_path $WP_RUN/nginx-tmp/scgi;
  server {
    listen 127.0.0.1:$WP_PORT;
    root $WP_ROOT;
    index index.php;
    client_max_body_size 16m;
    location / { try_files \$uri \$uri/ /index.php?\$args; }
    location ~ \.php\$ {
      try_files \$uri =404;
      include /etc/nginx/fastcgi_params;
      fastcgi_param SCRIPT_FILENAME \$document_root\$fastcgi_script_name;
      # Debian's fastcgi_params pass \$host, without the port: WordPress would redirect to itself.
      fastcgi_param HTTP_HOST \$http_host;
      fastcgi_pass unix:$WP_RUN/php-fpm.sock;
    }
  }
}
EOF
"$FPM" -F "${root_flag[@]}" -y "$WP_RUN/php-fpm.conf" >>"$WP_RUN/php-fpm.log" 2>&1 &
WP_PIDS+=($!)
nginx -e "$WP_RUN/nginx-error.log" -p "$WP_RUN" -c "$WP_RUN/nginx.conf" >>"$WP_RUN/nginx-error.log" 2>&1 &
WP_PIDS+=($!)
deadline=$((SECONDS + 60))
until curl -fsS --max-time 10 -o /dev/null "$WP_URL/wp-login.php"; do
  if ((SECONDS >= deadline)); then
    echo "WordPress did not answer at $WP_URL" >&2
    tail -n 20 "$WP_RUN"/*.log >&2 || true
    exit 1
  fi
  sleep 0.3
done

rc=0
(cd web && WP_URL=$WP_URL WP_ADMIN_PASSWORD=$WP_ADMIN_PASSWORD WP_VERIFY_URL=$WP_VERIFY_URL \
  CHAPAR_URL=http://$HTTP_ADDR PANEL_URL=http://$HTTP_ADDR SIM_URL=http://$SIM_HTTP_ADDR \
  ${WP_TEST_CMD:-node --test --test-concurrency=1 e2e-wp/wordpress.test.mjs}) || rc=$?
if [ "$rc" != 0 ]; then
  for f in php-errors.log php-fpm.log nginx-error.log; do
    [ -s "$WP_RUN/$f" ] && { echo "== WordPress: $f (last lines)"; tail -n 20 "$WP_RUN/$f" | cut -c1-400; } >&2
  done
fi
exit "$rc"

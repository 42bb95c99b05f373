#!/usr/bin/env bash
# `make dist`: a versioned release of Chapar in dist/ (about a minute and a half on a
# quiet 2-core machine with warm caches: the panel's build, three Go binaries, nfpm).
#   dist/chapar-<version>-linux-amd64.tar.gz   bin/ (chapar-api with the panel and the
#       migrations embedded, chapar-worker, chapar-smpp-gateway), deploy/ (systemd units,
#       env examples, the .deb's scripts, the nginx example, Prometheus rules, Grafana dashboard),
#       docs/deployment.md, docs/configuration.md, licences
#   dist/chapar_<deb version>_amd64.deb        the same, packaged by nfpm (deploy/nfpm.yaml)
#   dist/SHA256SUMS
# The version is scripts/version.sh's. DIST_SKIP_WEB=1 uses web/dist as it is
# (already built). Prints the two files' paths last.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/toolchain.sh
NFPM_VERSION=v2.48.0 # github.com/goreleaser/nfpm/v2, pinned
version=$(bash scripts/version.sh)
ldflags="-s -w $(bash scripts/version.sh ldflags)"
name=chapar-$version-linux-amd64
out=dist/$name
log() { printf '[dist %s] %s\n' "$(date -u +%T)" "$*" >&2; }
log "chapar $version"

if [ -z "${DIST_SKIP_WEB:-}" ]; then
  log "the panel"
  (cd web && { [ -f node_modules/.package-lock.json ] && [ ! package-lock.json -nt node_modules/.package-lock.json ] ||
    npm ci --no-audit --no-fund; } && npm run build >/dev/null)
fi
[ -f web/dist/index.html ] || { log "web/dist/index.html missing: build the panel (make web)" >&2; exit 1; }

log "the binaries"
rm -rf "$out" && mkdir -p "$out/bin"
for b in api worker smpp-gateway; do
  CGO_ENABLED=0 GOOS=linux GOARCH=amd64 go build -trimpath -ldflags "$ldflags" -o "$out/bin/chapar-$b" "./cmd/$b"
done
"$out/bin/chapar-api" version | grep -qF " $version " || { log "chapar-api does not report $version"; exit 1; }

mkdir -p "$out/deploy" "$out/docs" "$out/licenses"
cp -r deploy/systemd deploy/env deploy/deb deploy/nginx deploy/prometheus deploy/grafana "$out/deploy/"
rm -f "$out"/deploy/prometheus/*_test.yml
cp docs/deployment.md docs/configuration.md docs/metrics.md "$out/docs/"
cp data/iran-geo/README.md "$out/licenses/iran-geo.md"
cp pkg/invoice/assets/OFL.txt "$out/licenses/vazirmatn-OFL.txt"
cat >"$out/README.md" <<TXT
# Chapar $version (linux-amd64)

bin/ holds the three services; chapar-api carries the panel and the database
migrations (\`chapar-api migrate up\`). Install and run them as docs/deployment.md
says (the .deb of the same release does it for you).
TXT
tar -C dist -czf "$out.tar.gz" --owner=0 --group=0 --sort=name "$name"

log "the tarball and the .deb"
# Debian orders a pre-release after "~": 0.25.0~dev.3+g1a2b3c4 < 0.25.0.
deb=dist/chapar_${version/-/\~}_amd64.deb
# nfpm packs the release tree's files (deploy/nfpm.yaml names them relative to it).
repo=$(pwd)
(cd "$out" && CHAPAR_VERSION=$version go run "github.com/goreleaser/nfpm/v2/cmd/nfpm@$NFPM_VERSION" package \
  --config "$repo/deploy/nfpm.yaml" --packager deb --target "$repo/$deb" >/dev/null)
(cd dist && sha256sum "$name.tar.gz" "$(basename "$deb")" >SHA256SUMS)
echo "$out.tar.gz"
echo "$deb"

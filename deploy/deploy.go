// Package deploy holds what an operator installs beside Chapar's binaries
// (docs/deployment.md): the systemd units (systemd/), the env file examples (env/),
// the nginx site with TLS (nginx/chapar.conf), the .deb's definition and scripts
// (nfpm.yaml, deb/), and, to watch it (docs/metrics.md), the Prometheus alert rules
// (prometheus/rules.yml, with their promtool unit tests) and the Grafana dashboard
// (grafana/chapar.json). Its tests check the units with systemd-analyze, the
// dashboard's shape and, given a running stack and Prometheus
// (scripts/metrics-test.sh), that every panel's query returns data; given the
// stack behind nginx (scripts/proxy-test.sh), that the live websocket works over TLS.
package deploy

import _ "embed"

// Dashboard is the Grafana dashboard's JSON.
//
//go:embed grafana/chapar.json
var Dashboard []byte

// Rules is the Prometheus alert rules file.
//
//go:embed prometheus/rules.yml
var Rules []byte

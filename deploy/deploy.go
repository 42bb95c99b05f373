// Package deploy holds what an operator loads beside Chapar's binaries to watch
// it (docs/metrics.md): the Prometheus alert rules (prometheus/rules.yml, with
// their promtool unit tests) and the Grafana dashboard (grafana/chapar.json). Its
// tests check the dashboard's shape and, given a running stack and Prometheus
// (scripts/metrics-test.sh), that every panel's query returns data.
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

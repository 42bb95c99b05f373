# Chapar — `make help` lists the targets.
SHELL := /bin/bash
.DEFAULT_GOAL := help
ENVFILE := .data/env
GO ?= go
BACKUP_N ?= 100000
WITH_ENV = set -a; . ./$(ENVFILE); set +a;
# Go and Node that fit the project first on PATH (installed under .data/ when missing).
TC = . scripts/toolchain.sh &&

.PHONY: help services web-deps web build run test test-go test-web e2e upgrade-test backup-test bench testbed chaos chaos-apps chaos-pg pooler-test replica-test migrate seed lint fmt clean dist proxy-test deb-test sdk-test wordpress-test

help: ## List the targets
	@grep -hE '^[a-z0-9-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  \033[36m%-10s\033[0m %s\n", $$1, $$2}'

services: ## Ensure PostgreSQL 15+ and Redis 7+ (reuse running ones, or start private ones under .data/)
	@bash scripts/services.sh

web-deps: ## Install the panel's npm packages when package-lock.json changed
	@$(TC) cd web && if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then npm ci --no-audit --no-fund; fi

web: web-deps ## Build the panel into web/dist (embedded by cmd/api)
	@$(TC) cd web && npm run build

build: web ## Build the panel and the binaries into bin/
	@$(TC) $(GO) build -ldflags "$$(bash scripts/version.sh ldflags)" -o bin/ ./cmd/...

dist: web-deps ## A versioned release in dist/: the binaries with the panel, units, examples, docs (tar.gz) and a .deb (nfpm)
	@bash scripts/dist.sh

proxy-test: services dist ## nginx with TLS (a self-signed certificate) in front of the release's stack: panel, API and websocket over HTTPS
	@bash scripts/proxy-test.sh

deb-test: dist ## The .deb on a clean Debian root booted with systemd-nspawn (root): docs/deployment.md step by step, a send, monitoring
	@bash scripts/deb-test.sh

migrate: services ## Apply the database migrations
	@$(TC) $(WITH_ENV) $(GO) run ./cmd/api migrate up

seed: migrate ## Seed the demo account
	@$(TC) $(WITH_ENV) $(GO) run ./cmd/api seed-demo

run: services build ## Run the whole product with the demo account (Ctrl-C stops it)
	@bash scripts/run.sh

test: services web-deps ## Run every test: Go unit + integration, vitest, Playwright end to end
	@bash scripts/test.sh

sdk-test: services web-deps ## The client libraries of sdk/ (Go, Python, JavaScript, PHP) against a stack of their own (docs/sdk.md)
	@bash scripts/sdk-test.sh

wordpress-test: services web-deps ## The WordPress plugin (integrations/wordpress) in Debian's WordPress 6.1 on nginx and php-fpm with MariaDB, driven in Chromium against a stack of its own
	@bash scripts/wordpress-test.sh

upgrade-test: services ## Rolling upgrade from deploy/previous-release: its binaries serve a send (UPGRADE_N recipients, 100,000) while the new schema applies, then each process rolls to the new one; 0 lost, 0 duplicates, the ledger exact
	@bash scripts/upgrade-test.sh

bench: services build ## Run the benchmarks (figures go to docs/benchmarks.md by hand)
	@bash scripts/bench.sh

testbed: ## Multi-host test bed: 2 api/worker/gateway pairs in network namespaces, a 10,000-recipient smoke send, then down
	@trap 'bash scripts/testbed.sh down' EXIT; bash scripts/testbed.sh up 2 && bash scripts/testbed.sh smoke 10000

chaos: ## The whole chaos suite: chaos-apps, then chaos-pg (docs/chaos.md)
	@$(MAKE) --no-print-directory chaos-apps && $(MAKE) --no-print-directory chaos-pg

chaos-apps: ## Chaos suite on a 2-pair test bed with Redis under Sentinel: a 100,000-recipient send per fault (kills, Redis restart and failover, binds down, throttling, a slow carrier, PostgreSQL restart, duplicated tasks, clock jumps), then a table
	@trap 'bash scripts/testbed.sh down' EXIT; export TESTBED_REDIS=sentinel TESTBED_EXTRA_ENV="SWEEP_ABANDONED=5s SWEEP_STALLED=10s SWEEP_NO_RECEIPT=60s"; \
		bash scripts/testbed.sh up 2 && bash scripts/testbed.sh chaos $(CHAOS_N)

chaos-pg: ## Chaos suite for PostgreSQL under Patroni (3 etcd, a primary and a synchronous standby): the primary's host killed and a switchover mid-send of 100,000, with the seconds to the first write accepted again
	@trap 'bash scripts/testbed.sh down' EXIT; export TESTBED_PG=patroni TESTBED_REDIS=sentinel TESTBED_EXTRA_ENV="SWEEP_ABANDONED=60s SWEEP_STALLED=10s SWEEP_NO_RECEIPT=60s" \
		CHAOS_FAULTS="$${CHAOS_FAULTS:-none kill-postgres-primary switchover}"; \
		bash scripts/testbed.sh up 2 && bash scripts/testbed.sh chaos $(CHAOS_N)

pooler-test: services ## The stack through Debian's PgBouncer in transaction mode: a 5,000-recipient send, exactly once, ledger exact; Go integration tests through it
	@bash scripts/pooler-test.sh

replica-test: services ## Reports from a real streaming replica (a private primary and its pg_basebackup), the fallback to the primary when it is behind or stopped
	@bash scripts/replica-test.sh

backup-test: services ## Backups: a base backup and a point-in-time restore during a send of BACKUP_N (100,000) recipients, then Redis flushed mid-send (docs/backups.md)
	@BACKUP_N=$(BACKUP_N) bash scripts/backup-test.sh

lint: web-deps ## gofmt, go vet, go.mod tidy, the TypeScript check and ESLint (panel boundaries, no import cycles)
	@$(TC) $(GO) mod tidy -diff || { echo "go.mod/go.sum are not tidy: run go mod tidy"; exit 1; }
	@$(TC) test -z "$$(gofmt -l $$(bash scripts/gofiles.sh))" || { echo "gofmt needed:"; gofmt -l $$(bash scripts/gofiles.sh); exit 1; }
	@$(TC) $(GO) vet ./...
	@$(TC) cd web && npx tsc --noEmit -p . && npm run --silent lint

fmt: ## Format the Go code
	@$(TC) gofmt -w $$(bash scripts/gofiles.sh)

clean: ## Remove build outputs (keeps .data)
	rm -rf bin dist web/dist/assets web/dist/index.html

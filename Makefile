# Chapar — `make help` lists the targets.
SHELL := /bin/bash
.DEFAULT_GOAL := help
ENVFILE := .data/env
GO ?= go
WITH_ENV = set -a; . ./$(ENVFILE); set +a;
# Go and Node that fit the project first on PATH (installed under .data/ when missing).
TC = . scripts/toolchain.sh &&

.PHONY: help services web-deps web build run test test-go test-web e2e bench testbed chaos migrate seed lint fmt clean dist proxy-test deb-test

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

bench: services build ## Run the benchmarks (figures go to docs/benchmarks.md by hand)
	@bash scripts/bench.sh

testbed: ## Multi-host test bed: 2 api/worker/gateway pairs in network namespaces, a 10,000-recipient smoke send, then down
	@trap 'bash scripts/testbed.sh down' EXIT; bash scripts/testbed.sh up 2 && bash scripts/testbed.sh smoke 10000

chaos: ## Chaos suite on a 2-pair test bed with Redis under Sentinel: a 100,000-recipient send per fault (kills, Redis restart and failover, binds down, throttling, a slow carrier, PostgreSQL restart, duplicated tasks, clock jumps), then a table
	@trap 'bash scripts/testbed.sh down' EXIT; export TESTBED_REDIS=sentinel TESTBED_EXTRA_ENV="SWEEP_ABANDONED=5s SWEEP_STALLED=10s SWEEP_NO_RECEIPT=60s"; \
		bash scripts/testbed.sh up 2 && bash scripts/testbed.sh chaos $(CHAOS_N)

lint: web-deps ## gofmt, go vet, go.mod tidy, the TypeScript check and ESLint (panel boundaries, no import cycles)
	@$(TC) $(GO) mod tidy -diff || { echo "go.mod/go.sum are not tidy: run go mod tidy"; exit 1; }
	@$(TC) test -z "$$(gofmt -l $$(bash scripts/gofiles.sh))" || { echo "gofmt needed:"; gofmt -l $$(bash scripts/gofiles.sh); exit 1; }
	@$(TC) $(GO) vet ./...
	@$(TC) cd web && npx tsc --noEmit -p . && npm run --silent lint

fmt: ## Format the Go code
	@$(TC) gofmt -w $$(bash scripts/gofiles.sh)

clean: ## Remove build outputs (keeps .data)
	rm -rf bin dist web/dist/assets web/dist/index.html

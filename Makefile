# Two commands for a fresh machine: `make run` and `make test`. Without DATABASE_URL both use the project's
# private PostgreSQL cluster (scripts/db.sh), installing PostgreSQL 15 from Debian's packages when missing.
SHELL := /bin/bash
.DEFAULT_GOAL := run

SWIFT_FLAGS ?=
BIN := .build/debug/chidian
# The cluster's URL unless the caller gave one.
DB_URL = $${DATABASE_URL:-$$(scripts/db.sh url)}

.PHONY: run test lint fuzz faults screenshots build swift-deps db-start db-stop db-reset migrate schema seed bench soak bench-insights bench-growth bench-places abuse coupon-rush clean cluster cluster-stop cluster-status cluster-test \
	backup deploy restore-test alert-test deploy-test

build: swift-deps
	swift build $(SWIFT_FLAGS) --product chidian

swift-deps:
	scripts/swift-deps.sh

run: db-start build
	DATABASE_URL=$(DB_URL) $(BIN) migrate
	DATABASE_URL=$(DB_URL) $(BIN) seed seed
	DATABASE_URL=$(DB_URL) $(BIN) serve --host 127.0.0.1 --port 8080

# Tests clone a migrated template database per test; bcrypt runs at cost 4 there. Before them: the lint, sql/schema.sql
# checked against the migrations (scripts/schema.sh), a short schemathesis run against a seeded server, a Python client generated from /openapi.json and called
# (scripts/client-test.sh), the Swift client package (ChidianClient/) built from openapi.json and walked through the
# app's screens against a seeded server (scripts/swift-client-test.sh), the web client's flows in headless Chromium
# (scripts/web-test.sh), the PostgreSQL outage/SIGTERM faults (docs/RELIABILITY.md), the cluster's faults, rolling
# deploys under load and a point-in-time restore (docs/OPERATIONS.md); the Swift suite runs twice, with CACHE=off and
# with the cache; every part runs, and a failure fails the target and names its parts on the last line (CI keeps only the tail).
test: db-start swift-deps
	@mkdir -p .test-logs && rm -f .test-logs/times.log
	scripts/test-step.sh build scripts/build-for-tests.sh $(SWIFT_FLAGS)
	@failed=""; \
	scripts/test-step.sh lint $(MAKE) --no-print-directory lint || failed="$$failed lint"; \
	DATABASE_URL=$(DB_URL) scripts/test-step.sh schema scripts/schema.sh --check || failed="$$failed schema"; \
	DATABASE_URL=$(DB_URL) scripts/test-step.sh fuzz scripts/fuzz.sh --short || failed="$$failed fuzz"; \
	DATABASE_URL=$(DB_URL) scripts/test-step.sh client-test scripts/client-test.sh || failed="$$failed client-test"; \
	DATABASE_URL=$(DB_URL) scripts/test-step.sh swift-client-test scripts/swift-client-test.sh || failed="$$failed swift-client-test"; \
	DATABASE_URL=$(DB_URL) scripts/test-step.sh web-test scripts/web-test.sh || failed="$$failed web-test"; \
	scripts/test-step.sh faults scripts/faults.sh || failed="$$failed faults"; \
	scripts/test-step.sh cluster-test scripts/cluster-test.sh || failed="$$failed cluster-test"; \
	scripts/test-step.sh deploy-test scripts/deploy-test.sh || failed="$$failed deploy-test"; \
	scripts/test-step.sh restore-test scripts/restore-test.sh || failed="$$failed restore-test"; \
	echo "swift tests with CACHE=off (reading PostgreSQL every time)"; \
	DATABASE_URL=$(DB_URL) CACHE=off BCRYPT_COST=4 scripts/test-step.sh swift-tests-cache-off scripts/swift-test.sh $(SWIFT_FLAGS) || failed="$$failed swift-tests-cache-off"; \
	echo "swift tests with the cache (the default)"; \
	DATABASE_URL=$(DB_URL) BCRYPT_COST=4 scripts/test-step.sh swift-tests-cache-on scripts/swift-test.sh $(SWIFT_FLAGS) || failed="$$failed swift-tests-cache-on"; \
	echo "time a part:"; cat .test-logs/times.log; \
	if [ -n "$$failed" ]; then scripts/test-step.sh --summary $$failed; fi

# No unexplained wall-clock wait or bound in the tests (scripts/lint-timing.py, docs/RELIABILITY.md), no statement
# that bypasses the closed-connection check (a lost statement waits for ever), then the
# toolchain's formatter, with the rules in .swift-format: `swift format format -i -r Sources Tests Package.swift
# Plugins` fixes what it reports (the same with the client package's ChidianClient/Package.swift, Sources, Tests).
lint:
	scripts/lint-timing.py
	scripts/lint-casts.py
	@! grep -rnE '(client|\$$0)\.query\(' Sources/ChidianCore Sources/ChidianAPI Sources/ChidianWeb Sources/ChidianApp || \
		{ echo "lint: statements go through Database or PostgresConnection.rows/run (whileOpen, docs/RELIABILITY.md)"; exit 1; }
	swift format lint --strict --recursive Sources Tests Package.swift Plugins
	swift format lint --strict --recursive ChidianClient/Package.swift ChidianClient/Sources ChidianClient/Tests

# schemathesis (installed into .venv/) against a freshly seeded server, every operation, anonymous and signed in.
fuzz: db-start swift-deps
	swift build $(SWIFT_FLAGS) --product chidian
	DATABASE_URL=$(DB_URL) scripts/fuzz.sh

# Every web page at a phone's and a desktop's size into docs/screenshots/ (headless Chromium, as the web tests).
screenshots: db-start build
	DATABASE_URL=$(DB_URL) scripts/screenshots.sh

# PostgreSQL stopped and restarted under load, SIGTERM with requests in flight (a throwaway cluster).
faults: build
	scripts/faults.sh

# Rewrites sql/schema.sql, today's schema in one file, from a freshly migrated database (`make test` checks it).
schema: db-start build
	DATABASE_URL=$(DB_URL) scripts/schema.sh

migrate: db-start build
	DATABASE_URL=$(DB_URL) $(BIN) migrate

# The production-scale benchmark against pgbench and raw COPY; writes docs/BENCHMARKS.md (see scripts/bench.sh).
bench: db-start swift-deps
	scripts/bench.sh

# Thirty minutes of the mixed scenario with every signal on (issue #44): RSS, errors and the signal queue, into
# docs/BENCHMARKS.md's soak section only (the 1M-review database of make bench, kept).
soak: db-start swift-deps
	BENCH_SCENARIOS=soak BENCH_SOAK_SECONDS=$${BENCH_SOAK_SECONDS:-1800} BENCH_CACHE_MODES=on BENCH_SKIP_IMPORT=1 \
		BENCH_SKIP_LIVE=1 BENCH_SKIP_INSIGHTS=1 scripts/bench.sh

# Insights' targets alone (scripts/bench-insights.sh; make bench runs them too), into docs/BENCHMARKS.md.
bench-insights: db-start swift-deps
	scripts/bench-insights.sh

# The same scenarios at 0.1M, 1M and 5M reviews and on 200,000 stores, side by side (docs/BENCHMARKS.md).
bench-growth: db-start swift-deps
	scripts/bench-growth.sh

bench-places: db-start swift-deps
	scripts/bench-places.sh

# The attacks of docs/RELIABILITY.md against a release server on the benchmark's 1M-review database (make bench
# first), with the protections off and on.
abuse: db-start swift-deps
	scripts/abuse.sh

# Issue #47's coupon rush: 10,000 users claim one coupon at once through nginx and two servers (stock 100 and
# 10,000), pgbench of the claim, and a server killed with claims in flight; `make bench` runs it as `coupon-rush`.
coupon-rush: db-start swift-deps
	scripts/coupon-rush.sh

db-start:
	@scripts/db.sh start

db-stop:
	@scripts/db.sh stop

db-reset:
	@scripts/db.sh reset

clean:
	rm -rf .build ChidianClient/.build

# The scaled-out topology on loopback (docs/SCALING.md, docs/OPERATIONS.md): Patroni + etcd, a primary and a
# synchronous replica archiving into pgBackRest, HAProxy, two servers from two working directories, nginx with TLS on
# https://127.0.0.1:8443 (http://127.0.0.1:8090 redirects), Prometheus with its exporters and alert rules.
cluster: build
	scripts/cluster.sh start

cluster-stop:
	scripts/cluster.sh stop

cluster-status:
	scripts/cluster.sh status

# The cluster under wrk load while a server, the replica and the primary fail in turn (its own ports and data).
cluster-test: build
	scripts/cluster-test.sh

# A backup of the running cluster (docs/OPERATIONS.md): `make backup` is incremental (full when none exists yet);
# `make backup TYPE=full` forces a full one.
backup:
	scripts/backup.sh $${TYPE:-incr}

# Replaces the cluster's servers one at a time with the freshly built binary, behind nginx, without failing a request.
deploy: build
	scripts/cluster.sh deploy

# Point-in-time recovery proven on a throwaway PostgreSQL: backup, writes, a destructive statement, restore to the
# time before it, the export compared (about a minute; also part of `make test`).
restore-test: build
	scripts/restore-test.sh

# Three alerts made to fire for real on a cluster of its own (replica stopped, listener frozen, archiving stopped).
alert-test: build
	scripts/alert-test.sh

# Two rolling deploys under wrk and API writers: 0 failed requests, 0 lost writes; TLS and nginx's own errors (also
# part of `make test`).
deploy-test: build
	scripts/deploy-test.sh

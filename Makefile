# Two commands for a fresh machine: `make run` and `make test`. Without DATABASE_URL both use the project's
# private PostgreSQL cluster (scripts/db.sh), installing PostgreSQL 15 from Debian's packages when missing.
SHELL := /bin/bash
.DEFAULT_GOAL := run

SWIFT_FLAGS ?=
BIN := .build/debug/chidian
# The cluster's URL unless the caller gave one.
DB_URL = $${DATABASE_URL:-$$(scripts/db.sh url)}

.PHONY: run test build db-start db-stop db-reset migrate seed bench clean

build:
	swift build $(SWIFT_FLAGS) --product chidian

run: db-start build
	DATABASE_URL=$(DB_URL) $(BIN) migrate
	DATABASE_URL=$(DB_URL) $(BIN) seed seed
	DATABASE_URL=$(DB_URL) $(BIN) serve --host 127.0.0.1 --port 8080

# Tests clone a migrated template database per test; bcrypt runs at cost 4 there.
test: db-start
	swift build $(SWIFT_FLAGS) --build-tests
	DATABASE_URL=$(DB_URL) BCRYPT_COST=4 swift test $(SWIFT_FLAGS) --skip-build

migrate: db-start build
	DATABASE_URL=$(DB_URL) $(BIN) migrate

db-start:
	@scripts/db.sh start

db-stop:
	@scripts/db.sh stop

db-reset:
	@scripts/db.sh reset

clean:
	rm -rf .build

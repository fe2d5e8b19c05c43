# Sourced by fuzz.sh and client-test.sh: a throwaway database on the local cluster (never a remote one) and a
# `chidian serve` on it, both removed on exit. The caller sets `bin`, `out` and `say` first.
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"

# throwaway_database PREFIX: creates and migrates PREFIX_<pid>, and exports DATABASE_URL for it.
throwaway_database() {
    local base_url=${DATABASE_URL:-$(scripts/db.sh url)}
    case "$base_url" in
        postgres://*@127.0.0.1:* | postgres://*@localhost:* | postgresql://*@127.0.0.1:* | postgresql://*@localhost:*) ;;
        *) say "refusing a non-local database: $base_url"; exit 1 ;;
    esac
    server_url=${base_url%/*}
    database="$1_$$"
    pid=""
    trap throwaway_cleanup EXIT
    psql -q "$server_url/postgres" -c "CREATE DATABASE \"$database\"" >/dev/null
    # Every request comes from one address: per-client rate limits would answer most of them 429 (RateLimitTests
    # covers the limits).
    export DATABASE_URL=$server_url/$database LOG_LEVEL=${LOG_LEVEL:-warning} BCRYPT_COST=4 RATE_LIMITS=off
    "$bin" migrate >/dev/null
}

throwaway_cleanup() {
    if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
    psql -q "$server_url/postgres" -c "DROP DATABASE IF EXISTS \"$database\" WITH (FORCE)" >/dev/null 2>&1 || true
}

# start_server FIRST_PORT: serves on the first free port from FIRST_PORT; sets `pid` and `api` once /health answers,
# however long a loaded machine takes (it fails only when the server exits).
start_server() {
    local port
    port=$(free_port "$1")
    "$bin" serve --host 127.0.0.1 --port "$port" >"$out/server.log" 2>&1 &
    pid=$!
    api="http://127.0.0.1:$port"
    while :; do
        curl -fsS -m 5 "$api/health" >/dev/null 2>&1 && return 0
        kill -0 "$pid" 2>/dev/null || { cat "$out/server.log" >&2; say "the server did not start"; exit 1; }
        sleep 0.1
    done
}

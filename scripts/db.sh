#!/usr/bin/env bash
# The project's private PostgreSQL 15 cluster, used when DATABASE_URL is not set.
#   scripts/db.sh start | stop | reset | url | status
# Data lives in .postgres/ (or, when the `postgres` user cannot enter this checkout, a per-checkout folder
# under the system temp directory). As root, the cluster runs as the `postgres` user: initdb refuses root.
set -euo pipefail

project=$(cd "$(dirname "$0")/.." && pwd)
state="$project/.postgres"
pgbin=/usr/lib/postgresql/15/bin
database=chidian

say() { echo "db: $*" >&2; }

if [ -n "${DATABASE_URL:-}" ] && [ "${1:-}" != "stop" ]; then
    say "DATABASE_URL is set; using it and managing no cluster"
    echo "DATABASE_URL=$DATABASE_URL"
    exit 0
fi

install_postgres() {
    # PostGIS: stores' positions are geography points with a GiST index (migration 017).
    [ -x "$pgbin/initdb" ] && [ -f /usr/share/postgresql/15/extension/pg_trgm.control ] \
        && [ -f /usr/share/postgresql/15/extension/postgis.control ] && return 0
    say "installing postgresql-15, postgresql-contrib and postgresql-15-postgis-3"
    "$project/scripts/lib/apt-install.sh" --no-install-recommends postgresql-15 postgresql-contrib postgresql-15-postgis-3
}

# Runs a command as the cluster's owner.
as_owner() {
    if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

# Where the cluster lives: inside the project when its owner can reach it and the socket path is short enough.
choose_root() {
    local root="$state"
    local reason=""
    if [ "$(id -u)" -eq 0 ] && ! runuser -u postgres -- test -x "$project"; then
        reason="the postgres user cannot enter $project"
    elif [ ${#root} -gt 80 ]; then
        reason="the socket path under $project would be too long"
    fi
    if [ -n "$reason" ]; then
        root="${TMPDIR:-/tmp}/chidian-pg-$(echo -n "$project" | sha256sum | cut -c1-12)"
        [ -f "$state/root" ] || say "$reason; the cluster lives in $root instead"
    fi
    echo "$root"
}

free_port() {
    local port=${1:-54329}
    while (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do port=$((port + 1)); done
    echo "$port"
}

is_running() { [ -f "$root/data/postmaster.pid" ] && as_owner "$pgbin/pg_ctl" -D "$root/data" status >/dev/null 2>&1; }

start() {
    install_postgres
    mkdir -p "$state"
    root=$(cat "$state/root" 2>/dev/null || choose_root)
    echo "$root" > "$state/root"
    mkdir -p "$root/run"
    [ "$(id -u)" -eq 0 ] && chown -R postgres:postgres "$root"
    if [ ! -f "$root/data/PG_VERSION" ]; then
        as_owner "$pgbin/initdb" -D "$root/data" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >/dev/null
    fi
    port=$(cat "$state/port" 2>/dev/null || true)
    if ! is_running; then
        # A remembered port taken by something else since: pick another.
        if [ -z "$port" ] || (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then port=$(free_port); fi
        # The probe sees listeners only, and 54329 is inside the ephemeral range: an outgoing connection can hold
        # the port at bind time (a CI run beside a test suite failed so), so a start that could not bind tries the
        # next free port.
        local attempt lines
        for attempt in 1 2 3 4 5; do
            echo "$port" > "$state/port"
            lines=0
            [ -f "$root/server.log" ] && lines=$(wc -l <"$root/server.log")
            # A private development cluster: durability traded for speed (fsync off). The suite's parallel tests
            # each have their own pools: 920 connections were open at once on an idle machine and a loaded one
            # passed 1,000 ("too many clients"), so the slots are three times that (about 60 MB of shared memory).
            # Buffers for the benchmark's 1M-review database (3.4 GB) whole: with the default 128 MB a post read
            # about 600 pages through the kernel and posted at half the rate. Pages are mapped as used, so the
            # test suite's small databases never take more than they touch.
            as_owner "$pgbin/pg_ctl" -D "$root/data" -l "$root/server.log" -w -t 30 \
                -o "-p $port -k $root/run -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=3000 -c shared_buffers=4GB" \
                start >/dev/null && break
            if [ "$attempt" -lt 5 ] && tail -n "+$((lines + 1))" "$root/server.log" | grep -q "could not bind"; then
                say "port $port was taken when PostgreSQL bound it; trying another"
                port=$(free_port $((port + 1)))
            else
                say "PostgreSQL did not start; its log: $root/server.log"
                exit 1
            fi
        done
        say "started PostgreSQL 15 on 127.0.0.1:$port (data in $root/data)"
    else
        say "reusing the running cluster on 127.0.0.1:$port"
    fi
    if ! as_owner "$pgbin/psql" -h "$root/run" -p "$port" -U postgres -Atqc "SELECT 1 FROM pg_database WHERE datname = '$database'" postgres | grep -q 1; then
        as_owner "$pgbin/createdb" -h "$root/run" -p "$port" -U postgres "$database"
    fi
    url="postgres://postgres@127.0.0.1:$port/$database"
    echo "$url" > "$state/database-url"
    echo "DATABASE_URL=$url"
}

stop() {
    root=$(cat "$state/root" 2>/dev/null || echo "$state")
    if is_running; then
        as_owner "$pgbin/pg_ctl" -D "$root/data" -m fast -w stop >/dev/null
        say "stopped"
    else
        say "not running"
    fi
}

case "${1:-start}" in
    start) start ;;
    stop) stop ;;
    reset)
        stop
        root=$(cat "$state/root" 2>/dev/null || echo "$state")
        rm -rf "$root/data" "$state/port" "$state/database-url"
        start
        ;;
    url) cat "$state/database-url" ;;
    status)
        root=$(cat "$state/root" 2>/dev/null || echo "$state")
        if is_running; then echo "running: $(cat "$state/database-url")"; else echo "stopped"; exit 1; fi
        ;;
    *) echo "usage: scripts/db.sh start|stop|reset|url|status" >&2; exit 2 ;;
esac

#!/usr/bin/env bash
# 10,000 idle notification streams on one server (issue #33): its RSS and CPU with them open, and whether other
# requests' latency moves. An open loop (scripts/bench/openloop.c) offers the same fixed rate of store pages and
# category lists three times: before the streams, with them open (past a heartbeat round), and after they closed;
# the two baselines bracket the machine's noise. The streams' client (scripts/bench/stream_idle.py) shares the
# cores, so its CPU is reported too.
#   DATABASE_URL (a migrated, seeded database), CHIDIAN_BIN (default the release build), STREAMS (10000),
#   IDLE_RATE (requests/s, 1000), IDLE_SECONDS (20 per round), IDLE_PORT (18395).
set -euo pipefail
project=$(cd "$(dirname "$0")/../.." && pwd)
cd "$project"
: "${DATABASE_URL:?a migrated, seeded database}"
bin=${CHIDIAN_BIN:-.build-release/release/chidian}
streams=${STREAMS:-10000}
rate=${IDLE_RATE:-1000}
seconds=${IDLE_SECONDS:-20}
port=${IDLE_PORT:-18395}
work=$(mktemp -d)
pids=()
name="idle$(date +%s)"
# Its user goes with it (sessions cascade), as the insights bench's store does: the data set stays the data set.
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    psql -qAt "$DATABASE_URL" -c "DELETE FROM users WHERE name = '$name'" >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT
say() { echo "stream-idle: $*" >&2; }
# Each side holds one descriptor a stream: the hard limit (20,000 here) is enough for either process.
ulimit -n "$(ulimit -Hn)"

cc -O2 -Wall -o "$work/openloop" scripts/bench/openloop.c
PORT=$port RATE_LIMITS=off LOG_LEVEL=warning STREAMS_PER_USER=$streams STREAMS_MAX=$((streams * 2)) \
    "$bin" serve --host 127.0.0.1 --port "$port" >"$work/server.log" 2>&1 &
server=$!
pids+=($server)
for _ in $(seq 1 150); do curl -fs "http://127.0.0.1:$port/health" >/dev/null && break; sleep 0.2; done
curl -fs "http://127.0.0.1:$port/health" >/dev/null || { cat "$work/server.log"; exit 1; }

token=$(curl -fsS -X POST -H 'Content-Type: application/json' \
    -d "{\"name\":\"$name\",\"password\":\"idle streams password\"}" "http://127.0.0.1:$port/v1/auth/register" |
    grep -o '"token":"[^"]*"' | cut -d'"' -f4)
[ -n "$token" ] || { say "could not register"; exit 1; }
# The other requests: anonymous store pages and the category list (the walk repeats).
{
    printf 'GET\t/v1/categories\t0\n'
    psql -qAt "$DATABASE_URL" -c "SELECT id FROM stores WHERE archived_at IS NULL ORDER BY id LIMIT 200" |
        while read -r id; do printf 'GET\t/v1/stores/%s\t0\nGET\t/v1/stores?limit=20\t0\n' "$id"; done
} >"$work/lines"

rss() { awk '/^VmRSS/ { printf "%.0f", $2 / 1024 }' "/proc/$1/status"; }
# cpu PID SECONDS: the process's CPU over SECONDS, in % of one core.
cpu() {
    local a b
    a=$(awk '{ print $14 + $15 }' "/proc/$1/stat")
    sleep "$2"
    b=$(awk '{ print $14 + $15 }' "/proc/$1/stat")
    awk -v a="$a" -v b="$b" -v s="$2" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.1f", (b - a) / hz / s * 100 }'
}
round() {
    # A short warm-up, then the measured run.
    "$work/openloop" -a "127.0.0.1:$port" -r "$rate" -d 3 -c 64 -f "$work/lines" >/dev/null 2>&1
    "$work/openloop" -a "127.0.0.1:$port" -r "$rate" -d "$seconds" -c 64 -f "$work/lines" 2>/dev/null
}

say "baseline: $rate requests/s for ${seconds}s"
echo "server RSS before: $(rss "$server") MB; idle CPU: $(cpu "$server" 5) %"
echo "before: $(round)"
say "opening $streams streams"
mkfifo "$work/hold"
python3 scripts/bench/stream_idle.py 127.0.0.1 "$port" "$token" "$streams" <"$work/hold" >"$work/idle.out" 2>&1 &
client=$!
pids+=($client)
exec 3>"$work/hold"
for _ in $(seq 1 600); do grep -q '^open=' "$work/idle.out" && break; sleep 0.5; done
grep -q "^open=$streams" "$work/idle.out" || { cat "$work/idle.out"; exit 1; }
# Past one heartbeat round (every 15 s), so the measured runs include heartbeats.
sleep 16
echo "streams open: $streams; server RSS: $(rss "$server") MB; server CPU idle with them: $(cpu "$server" 15) %"
echo "with streams: $(round)"
echo "client RSS: $(rss "$client") MB; client CPU idle: $(cpu "$client" 5) %"
exec 3>&-
wait "$client" 2>/dev/null || true
sleep 3
echo "after: $(round)"
echo "server RSS after closing: $(rss "$server") MB"
echo "server log: $(wc -l <"$work/server.log") lines; the last: $(tail -1 "$work/server.log" | cut -c1-300)"

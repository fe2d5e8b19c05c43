#!/usr/bin/env bash
# `make abuse`: the attacks of docs/RELIABILITY.md against a release server on the benchmark's 1M-review database
# (`make bench` creates it; BENCH_DB, default chidian_bench), each run three times: "before" with the protections
# off (RATE_LIMITS=off, no statement deadline, an unlimited search budget and gate, a 1-hour idle timeout, an
# unbounded bcrypt queue), "bounded" with the defaults but RATE_LIMITS=off (what bounds each request's work, alone:
# every attacker here shares one address, so the rate limits would refuse most of it), and "after" with the
# defaults. Prints a markdown table of what the other routes saw; also writes it to .bench/abuse.md.
#   1. worst-case searches at one connection (frequent review phrases that are not dishes, common characters in
#      an order nothing has, 64 characters);
#   2. store pages idle, then while 16 connections loop those searches, at 4 connections and at 1;
#   3. a registration flood (16 connections, a new name each time) while one account signs in;
#   4. 300 connections that send half a header and stall, while store pages are read; how many are closed.
# ABUSE_DURATION (seconds per run, 15). Every server this starts is stopped.
set -euo pipefail

project=$(cd "$(dirname "$0")/.." && pwd)
cd "$project"
BIN=${ABUSE_BIN:-.build-release/release/chidian}
BENCH_DB=${BENCH_DB:-chidian_bench}
DURATION=${ABUSE_DURATION:-15}
out=.bench
say() { echo "abuse: $*" >&2; }

[[ "$BENCH_DB" =~ ^[a-z_][a-z0-9_]*$ ]] || { say "BENCH_DB must be a plain identifier"; exit 1; }
. scripts/lib/common.sh
need_package wrk wrk
if [ ! -x "$BIN" ]; then
    say "building the release binary"
    swift build -c release --scratch-path .build-release --product chidian >/dev/null
fi
base=$(scripts/db.sh url)
url=${base%/*}/$BENCH_DB
comments=$(psql -qAtX "$url" -c "SELECT count(*) FROM comments" 2>/dev/null || echo 0)
[ "$comments" -gt 0 ] || { say "no data in $BENCH_DB: run make bench first"; exit 1; }
mkdir -p "$out"
DATABASE_URL=$url "$BIN" migrate >/dev/null
DATABASE_URL=$url BCRYPT_COST=12 "$BIN" user create --name abuse-login --password "abuse login password" \
    --role user >/dev/null 2>&1 || true

encode() { /usr/bin/python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1]))' "$1"; }
searches=()
for q in 很好吃 味道一般 下次还来 环境一般 上菜有点慢 中规中矩 道味吃好 般一错不 来还次下很 \
    "$(printf '好吃%.0s' $(seq 1 32))"; do
    searches+=("/v1/search?q=$(encode "$q")")
done
stores=()
while read -r id; do stores+=("/v1/stores/$id"); done < <(psql -qAtX "$url" -c "SELECT id FROM stores ORDER BY md5(id) LIMIT 50")

pid=""
port=""
stop_server() { if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; pid=""; fi; }
trap 'stop_server; kill $(jobs -p) 2>/dev/null || true' EXIT

start_server() {
    port=$(free_port 18600)
    env DATABASE_URL="$url" LOG_LEVEL=error "$@" "$BIN" serve --host 127.0.0.1 --port "$port" >"$out/abuse-server.log" 2>&1 &
    pid=$!
    for _ in $(seq 1 100); do curl -fsS -m 1 "http://127.0.0.1:$port/health" >/dev/null 2>&1 && return 0; sleep 0.1; done
    say "the server did not start"; cat "$out/abuse-server.log" >&2; exit 1
}

# wrk_run CONNECTIONS SCRIPT [PATHS...]: prints "p95 ms / non-2xx / errors" from the script's figures line.
wrk_run() {
    local connections=$1 script=$2
    shift 2
    wrk -t1 -c"$connections" -d"${DURATION}s" --timeout 10s -s "scripts/abuse/$script" "http://127.0.0.1:$port" -- "$@" \
        | sed -n 's/^figures: //p'
}
field() { sed -n "s/.*$1=\([0-9.]*\).*/\1/p" <<<"$2"; }
summary() { echo "p95 $(field p95 "$1") ms, $(field rps "$1")/s, non-2xx $(field non2xx "$1"), errors $(field errors "$1")"; }

declare -A result
for phase in before bounded after; do
    # Each phase starts with no client throttled or limited by an earlier one.
    psql -qAtX "$url" -c "TRUNCATE rate_buckets, rate_tokens" >/dev/null
    case $phase in
        before)
            start_server RATE_LIMITS=off STATEMENT_TIMEOUT_MS=600000 READ_STATEMENT_TIMEOUT_MS=600000 \
                SEARCH_ROW_BUDGET=100000000 SEARCH_CONCURRENCY=256 IDLE_TIMEOUT_SECONDS=3600 BCRYPT_QUEUE=100000 ;;
        bounded) start_server RATE_LIMITS=off ;;
        after) start_server ;;
    esac
    say "$phase: worst-case searches at one connection"
    result[$phase,search1]=$(wrk_run 1 measure.lua "${searches[@]}")
    say "$phase: store pages idle"
    result[$phase,idle]=$(wrk_run 4 measure.lua "${stores[@]}")
    say "$phase: store pages under 16 looping worst-case searches"
    wrk -t1 -c16 -d"$((DURATION + 4))s" --timeout 10s -s scripts/abuse/measure.lua "http://127.0.0.1:$port" -- "${searches[@]}" \
        | sed -n 's/^figures: //p' >"$out/abuse-flood.txt" &
    flood=$!
    sleep 2
    result[$phase,loaded]=$(wrk_run 4 measure.lua "${stores[@]}")
    wait "$flood" || true
    result[$phase,searchflood]=$(cat "$out/abuse-flood.txt")
    say "$phase: one store-page reader, idle and under 16 looping worst-case searches"
    result[$phase,idle1]=$(wrk_run 1 measure.lua "${stores[@]}")
    wrk -t1 -c16 -d"$((DURATION + 4))s" --timeout 10s -s scripts/abuse/measure.lua "http://127.0.0.1:$port" -- "${searches[@]}" \
        >/dev/null &
    flood=$!
    sleep 2
    result[$phase,loaded1]=$(wrk_run 1 measure.lua "${stores[@]}")
    wait "$flood" || true
    say "$phase: sign-in idle, then under a registration flood"
    result[$phase,login]=$(wrk_run 1 login.lua)
    wrk -t1 -c16 -d"$((DURATION + 4))s" --timeout 10s -s scripts/abuse/register.lua "http://127.0.0.1:$port" \
        | sed -n 's/^figures: //p' >"$out/abuse-flood.txt" &
    flood=$!
    sleep 2
    result[$phase,loginflood]=$(wrk_run 1 login.lua)
    wait "$flood" || true
    result[$phase,register]=$(cat "$out/abuse-flood.txt")
    say "$phase: store pages while 300 connections stall half a header"
    /usr/bin/python3 scripts/abuse/stall.py "$port" 300 20 65 >"$out/abuse-stall.txt" 2>&1 &
    stall=$!
    sleep 3
    result[$phase,stalled]=$(wrk_run 4 measure.lua "${stores[@]}")
    wait "$stall" || true
    result[$phase,closed]=$(tail -1 "$out/abuse-stall.txt" | sed 's/^stall: //')
    stop_server
done

{
    row() { echo "| $1 | $2 | $3 | $(summary "${result[before,$4]}") | $(summary "${result[bounded,$4]}") | $(summary "${result[after,$4]}") |"; }
    echo "| Attack | Load | What was measured | Before (protections off) | Bounded work (RATE_LIMITS=off) | After (defaults) |"
    echo "|---|---|---|---|---|---|"
    row "Worst-case search texts" "1 connection" "the searches" search1
    row "(baseline)" "4 connections" "store pages, idle" idle
    row "Worst-case search texts" "16 connections looping" "store pages (4 connections)" loaded
    row "" "" "the searches themselves" searchflood
    row "(baseline)" "1 connection" "store pages, idle" idle1
    row "Worst-case search texts" "16 connections looping" "store pages (1 connection)" loaded1
    row "(baseline)" "1 connection" "sign-in, idle" login
    row "Registration flood" "16 connections, new names" "sign-in (1 connection)" loginflood
    row "" "" "the registrations themselves" register
    row "300 stalled half-headers" "300 idle sockets" "store pages (4 connections)" stalled
    echo "| | | stalled connections closed | ${result[before,closed]} | ${result[bounded,closed]} | ${result[after,closed]} |"
} | tee "$out/abuse.md"

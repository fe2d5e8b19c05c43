#!/usr/bin/env bash
# Insights' targets (issue #32), on the benchmark's 1M-review database with the release server:
#   A. the store page (Zipf) with counting on against counting off (INSIGHTS=off), cache on, alternated on/off,
#      off/on, … over BENCH_INSIGHTS_ROUNDS (4) rounds in one run; and whether every request served was counted (views written / requests wrk completed);
#   B. two servers behind nginx (round robin): 10,000 views of one store by 5,000 distinct visitors, spread over
#      both; the insights must say 10,000 views after the flush, and visitors within the stated error;
#   C. GET /v1/stores/{id}/insights for 366 days of the store with the most reviews, given 1M counted events
#      (365 closed days and an open one whose visitors are estimated): p95 for one manager (one connection, the
#      target) and at 16 connections, against pgbench running the same SQL.
# `make bench` runs it (its table lands in docs/BENCHMARKS.md between the "insights" markers); alone it is
# `make bench-insights`. Knobs: BENCH_DB, BENCH_BIN, BENCH_DURATION (s per run), DATABASE_URL as for `make bench`.
set -euo pipefail

project=$(cd "$(dirname "$0")/.." && pwd)
cd "$project"
say() { echo "bench-insights: $*" >&2; }
die() { say "$*"; exit 1; }

BIN=${BENCH_BIN:-.build-release/release/chidian}
DB=${BENCH_DB:-chidian_bench}
DURATION=${BENCH_DURATION:-15}
DOC=${BENCH_DOC:-docs/BENCHMARKS.md}
OUT=${BENCH_INSIGHTS_OUT:-.bench/INSIGHTS.md}
base=${DATABASE_URL:-$(scripts/db.sh url)}
url=${base%/*}/$DB
pgbin=/usr/lib/postgresql/15/bin
here=scripts/bench
work=.bench/insights
mkdir -p "$work"
[ -x "$BIN" ] || die "$BIN is missing: swift build -c release --product chidian --build-path .build-release"
. scripts/lib/common.sh
need_package wrk wrk
need_package /usr/sbin/nginx nginx
sql() { "$pgbin/psql" -X -q -At -v ON_ERROR_STOP=1 "$url" -c "$1"; }
sql "SELECT 1" >/dev/null || die "no database $DB at ${base%/*}: run make bench first (it imports 1M reviews)"
DATABASE_URL=$url "$BIN" migrate >/dev/null

pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null || true
    # Its store goes with it: make bench checks that every store is one of the data set's.
    [ -n "${store_b:-}" ] && sql "DELETE FROM stores WHERE id = '$store_b'" >/dev/null 2>&1 || true
}
trap cleanup EXIT
# start PORT LOG ENV…: a release server; returns once /health answers.
start() {
    local port=$1 log=$2
    shift 2
    env "$@" DATABASE_URL="$url" RATE_LIMITS=off LOG_LEVEL=warning "$BIN" serve --host 127.0.0.1 --port "$port" \
        >"$log" 2>&1 &
    pids+=($!)
    for _ in $(seq 1 120); do curl -fsS "http://127.0.0.1:$port/health" >/dev/null 2>&1 && return 0; sleep 0.5; done
    tail -20 "$log" >&2
    die "the server on $port did not start"
}
stop_all() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    pids=()
}
login() {
    curl -fsS -X POST -H 'Content-Type: application/json' -d "{\"name\":\"$1\",\"password\":\"bench insights 1\"}" \
        "http://127.0.0.1:$2/v1/auth/login" | grep -o '"token":"[^"]*"' | cut -d'"' -f4
}
wrk_field() { sed -n "s/^$2=//p" "$1"; }

# Users: a manager for part B's store, an admin for part C's reads.
for who in benchinsightsmanager:manager benchinsightsadmin:admin; do
    name=${who%%:*} role=${who#*:}
    if [ -z "$(sql "SELECT 1 FROM users WHERE lower(name) = '$name'")" ]; then
        DATABASE_URL=$url "$BIN" user create --name "$name" --password "bench insights 1" --role "$role" >/dev/null
    fi
done

# A. The store page, counting on and off.
port=$(free_port 18480)
sql "SELECT id FROM stores WHERE archived_at IS NULL" >"$work/stores"
python3 "$here/workload.py" --seed 1 --n 200000 zipf --items "$work/stores" --prefix /v1/stores/ --stream store \
    --out "$work/store-paths" >/dev/null
declare -A rps p95 counted served
# Rounds alternate the order (on/off, off/on, …) so a drift of the machine's load weighs on both modes alike.
ROUNDS=${BENCH_INSIGHTS_ROUNDS:-4}
for round in $(seq 1 "$ROUNDS"); do
    order="on off"
    [ $((round % 2)) = 0 ] && order="off on"
    for mode in $order; do
        start "$port" "$work/server-a.$mode.log" INSIGHTS="$mode"
        before=$(sql "SELECT coalesce(sum(views), 0) FROM store_days")
        # A short warm-up: the cache fills, so both modes are measured warm.
        BENCH_PATHS=$work/store-paths BENCH_OUT=$work/warm.wrk timeout 60 wrk -t2 -c64 -d3s -s "$here/wrk.lua" \
            "http://127.0.0.1:$port" >/dev/null 2>&1 || true
        say "store page, counting $mode (round $round, ${DURATION}s)"
        BENCH_PATHS=$work/store-paths BENCH_OUT=$work/store.$mode.$round.wrk timeout $((DURATION + 60)) \
            wrk -t2 -c64 -d"${DURATION}s" --timeout 10s --latency -s "$here/wrk.lua" "http://127.0.0.1:$port" \
            >"$work/store.$mode.$round.log" 2>&1 || say "wrk exited with $?"
        stop_all   # a clean stop flushes what is pending
        after=$(sql "SELECT coalesce(sum(views), 0) FROM store_days")
        rps[$mode.$round]=$(wrk_field "$work/store.$mode.$round.wrk" rps)
        p95[$mode.$round]=$(wrk_field "$work/store.$mode.$round.wrk" p95)
        # Every request (the warm-up's too) is an anonymous view of a live store.
        served[$mode.$round]=$(($(wrk_field "$work/store.$mode.$round.wrk" requests) + $(wrk_field "$work/warm.wrk" requests)))
        counted[$mode.$round]=$((after - before))
    done
done
# list MODE KEY: the rounds' values of one mode, comma-separated.
list() {
    local mode=$1 key=$2 out="" r
    for r in $(seq 1 "$ROUNDS"); do
        local -n table=$key
        out+="${out:+, }${table[$mode.$r]}"
    done
    echo "$out"
}
mean() { tr ',' '\n' | awk '{ s += $1; n++ } END { printf "%.0f", s / n }'; }
on=$(list on rps | mean)
off=$(list off rps | mean)
ratio=$(awk -v a="$on" -v b="$off" 'BEGIN { printf "%.3f", a / b }')

# B. Two servers behind nginx.
p1=$(free_port 18490)
p2=$(free_port $((p1 + 1)))
front=$(free_port $((p2 + 1)))
store_b=$(sql "INSERT INTO stores (name, category_id, manager_id)
    SELECT 'insights bench ' || now()::text, (SELECT id FROM categories ORDER BY id LIMIT 1),
        (SELECT id FROM users WHERE lower(name) = 'benchinsightsmanager') RETURNING id")
start "$p1" "$work/server-b1.log" INSIGHTS_FLUSH_SECONDS=2
start "$p2" "$work/server-b2.log" INSIGHTS_FLUSH_SECONDS=2
cat >"$work/nginx.conf" <<EOF
daemon on;
pid $project/$work/nginx.pid;
error_log $project/$work/nginx.error.log warn;
worker_processes 1;
events { worker_connections 1024; }
http {
    log_format upstream '\$upstream_addr';
    access_log $project/$work/nginx.access.log upstream;
    upstream chidian { server 127.0.0.1:$p1; server 127.0.0.1:$p2; keepalive 32; }
    server {
        listen 127.0.0.1:$front;
        location / {
            proxy_pass http://chidian;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host \$host;
        }
    }
}
EOF
rm -f "$work/nginx.access.log"
/usr/sbin/nginx -c "$project/$work/nginx.conf" -p "$project/$work" 2>>"$work/nginx.error.log" || die "nginx did not start"
say "10,000 views of one store through nginx over two servers"
spread=$(python3 - "$front" "$store_b" <<'EOF'
import http.client, sys, threading
front, store = int(sys.argv[1]), sys.argv[2]
counts, lock = {}, threading.Lock()
def worker(k):
    conn = http.client.HTTPConnection("127.0.0.1", front, timeout=30)
    for i in range(k, 10_000, 8):
        conn.request("GET", f"/v1/stores/{store}", headers={"X-Visitor-Id": f"bench-visitor-{i % 5000:05d}"})
        response = conn.getresponse()
        response.read()
        with lock:
            counts[response.status] = counts.get(response.status, 0) + 1
threads = [threading.Thread(target=worker, args=(k,)) for k in range(8)]
for t in threads: t.start()
for t in threads: t.join()
print(" ".join(f"{k}:{v}" for k, v in sorted(counts.items())))
EOF
)
sleep 5   # more than twice the flush interval
token=$(login benchinsightsmanager "$front")
curl -fsS -H "Authorization: Bearer $token" "http://127.0.0.1:$front/v1/stores/$store_b/insights" >"$work/b.json"
read -r views visitors < <(python3 -c '
import json, sys
t = json.load(open(sys.argv[1]))["totals"]
print(t["views"], t["visitors"])' "$work/b.json")
err=$(awk -v v="$visitors" 'BEGIN { printf "%.1f", (v - 5000) / 50 }')
# Each server's share, from nginx's log of the upstream that answered.
share1=$(grep -c ":$p1\$" "$work/nginx.access.log" || true)
share2=$(grep -c ":$p2\$" "$work/nginx.access.log" || true)
kill "$(cat "$work/nginx.pid")" 2>/dev/null || true
stop_all
sql "UPDATE stores SET archived_at = now() WHERE id = '$store_b'" >/dev/null

# C. 366 days of insights for the store with the most reviews, 1M events.
store_c=$(sql "SELECT store_id FROM comments WHERE kind = 'review' GROUP BY store_id ORDER BY count(*) DESC LIMIT 1")
reviews_c=$(sql "SELECT count(*) FROM comments WHERE store_id = '$store_c' AND kind = 'review' AND created_at > now() - interval '366 days'")
sql "DELETE FROM store_days WHERE store_id = '$store_c'" >/dev/null
# 1,000,000 events over 366 days (views, impressions and clicks), the open day with 2,000 visitor hashes (sketched).
sql "INSERT INTO store_days (store_id, day, views, imp_daily, imp_feed, imp_search, imp_near, imp_pick,
        clk_daily, clk_feed, clk_search, clk_near, clk_pick, visitor_rows, visitors)
    SELECT '$store_c', (now() AT TIME ZONE s.time_zone)::date - n, 600, 900, 600, 400, 150, 50, 30, 20, 20, 5, 7, 0,
        CASE WHEN n > 0 THEN 420 END
    FROM generate_series(0, 365) n, stores s WHERE s.id = '$store_c'" >/dev/null
sql "INSERT INTO store_day_visitors (store_id, day, h)
    SELECT '$store_c', (now() AT TIME ZONE s.time_zone)::date, g * 4611686018427387 - 9223372036854775807
    FROM generate_series(1, 2000) g, stores s WHERE s.id = '$store_c'" >/dev/null
sql "UPDATE store_days d SET visitor_rows = 2000,
        visitor_cut = (SELECT h FROM store_day_visitors x WHERE x.store_id = d.store_id AND x.day = d.day ORDER BY h OFFSET 999 LIMIT 1)
    WHERE d.store_id = '$store_c' AND d.visitors IS NULL" >/dev/null
events=$(sql "SELECT sum(views + imp_daily + imp_feed + imp_search + imp_near + imp_pick + clk_daily + clk_feed + clk_search + clk_near + clk_pick) FROM store_days WHERE store_id = '$store_c'")
zone=$(sql "SELECT time_zone FROM stores WHERE id = '$store_c'")
to=$(TZ=$zone date +%F)
from=$(TZ=$zone date -d "$to - 365 days" +%F)
port=$(free_port 18480)
start "$port" "$work/server-c.log"
token=$(login benchinsightsadmin "$port")
[ -n "$token" ] || die "could not sign benchinsightsadmin in"
printf '%s\n' "/v1/stores/$store_c/insights?from=$from&to=$to" >"$work/insights-paths"
curl -fsS -H "Authorization: Bearer $token" "http://127.0.0.1:$port/v1/stores/$store_c/insights?from=$from&to=$to" \
    | python3 -c 'import json, sys; b = json.load(sys.stdin); assert len(b["days"]) == 366, len(b["days"])' \
    || die "the insights answer is not 366 days"
# A manager opening the page (one connection: the target), and sixteen at once (the machine's limit).
for c in 1 16; do
    say "insights, 366 days (${DURATION}s at $c connections)"
    BENCH_PATHS=$work/insights-paths BENCH_TOKEN=$token BENCH_OUT=$work/insights.$c.wrk timeout $((DURATION + 60)) \
        wrk -t1 -c"$c" -d"${DURATION}s" --timeout 10s --latency -s "$here/wrk.lua" "http://127.0.0.1:$port" \
        >"$work/insights.$c.log" 2>&1 || say "wrk exited with $?"
done
stop_all
say "pgbench, the same SQL"
# The server's own statement, taken from its source ($1…$4 become pgbench's variables), so the two never differ.
python3 - Sources/ChidianCore/Insights/InsightStatements.swift >"$work/insights.sql" <<'PY'
import sys, textwrap
source = open(sys.argv[1], encoding="utf-8").read()
sql = source.split('static let name = "insight_store_days"', 1)[1].split('"""', 2)[1]
sql = textwrap.dedent(sql).strip().replace("\\\\n", "\\n")
for n, name in enumerate(["store", "from", "to", "zone"], 1):
    sql = sql.replace(f"${n}", f":{name}")
print(sql + ";")
PY
timeout $((DURATION + 60)) "$pgbin/pgbench" -n -M prepared -c 16 -j 2 -T "$DURATION" -f "$work/insights.sql" \
    -D store="$store_c" -D from="$from" -D to="$to" -D zone="$zone" "$url" >"$work/insights.pgbench.log" 2>&1 \
    || say "pgbench exited with $?"
tps=$(grep -oP 'tps = \K[0-9.]+(?= \(without)' "$work/insights.pgbench.log" | awk '{ printf "%.0f", $1 }')
irps=$(wrk_field "$work/insights.16.wrk" rps)
ip95=$(wrk_field "$work/insights.16.wrk" p95)
orps=$(wrk_field "$work/insights.1.wrk" rps)
op95=$(wrk_field "$work/insights.1.wrk" p95)

verdict() { awk -v v="$1" -v t="$2" -v dir="$3" 'BEGIN { if (v == "") print "?"; else if ((dir == ">=" && v + 0 >= t) || (dir == "<=" && v + 0 <= t)) print "met"; else print "**missed**" }'; }
{
    echo '<!-- insights:begin -->'
    echo "Measured $(date -u '+%Y-%m-%d %H:%M UTC') at $(git rev-parse --short HEAD) by \`scripts/bench-insights.sh\` ($DB, ${DURATION} s runs, release build, cache on)."
    echo
    echo "| Measurement | Figure | Target |"
    echo "|---|---:|---|"
    echo "| Store page (Zipf, 64 connections), counting on: req/s (rounds 1–$ROUNDS) | $(list on rps) (p95 $(list on p95) ms) | |"
    echo "| Store page, counting off (INSIGHTS=off): req/s (rounds 1–$ROUNDS) | $(list off rps) (p95 $(list off p95) ms) | |"
    echo "| Counting on ÷ off (means) | $ratio | ≥ 0.95: $(verdict "$ratio" 0.95 ">=") |"
    echo "| Views written / requests served with counting on (rounds 1–$ROUNDS; warm-ups included) | $(list on counted) / $(list on served) | exact |"
    echo "| … with counting off | $(list off counted) / $(list off served) | nothing written |"
    echo "| Two servers behind nginx: responses | $spread (server 1: $share1, server 2: $share2) | spread over both |"
    echo "| … views in the insights after the flush | $views | 10,000: $([ "$views" = 10000 ] && echo met || echo '**missed**') |"
    echo "| … visitors (5,000 distinct sent) | $visitors (error ${err} %) | within ±3 × 3.2 %: $(verdict "$(awk -v e="$err" 'BEGIN { print (e < 0 ? -e : e) }')" 9.6 "<=") |"
    echo "| Insights, 366 days, $events events, store with the most reviews ($reviews_c in the range), one connection: req/s, p95 | $orps, ${op95} ms | p95 ≤ 20 ms: $(verdict "$op95" 20 "<=") |"
    echo "| … 16 connections: req/s, p95 | $irps, ${ip95} ms | |"
    echo "| … pgbench, the same SQL (16 clients): tps; server ÷ pgbench | $tps; $(awk -v a="$irps" -v b="$tps" 'BEGIN { if (b > 0) printf "%.2f", a / b }') | |"
    echo '<!-- insights:end -->'
} >"$OUT"
if [ -z "${BENCH_INSIGHTS_OUT:-}" ] && grep -q '<!-- insights:begin -->' "$DOC"; then
    awk -v block="$(cat "$OUT")" '
        /<!-- insights:begin -->/ { print block; skip = 1; next }
        /<!-- insights:end -->/ { skip = 0; next }
        !skip { print }
    ' "$DOC" >"$DOC.tmp" && mv "$DOC.tmp" "$DOC"
    say "wrote the insights table into $DOC"
fi
cat "$OUT"

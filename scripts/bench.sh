#!/usr/bin/env bash
# `make bench`: the production-scale benchmark, measured against the database's own limit.
#
#   1. builds the release binary (its own scratch path, so it never fights the debug build);
#   2. generates (or reuses) the data set and imports it into a dedicated database, timing the import against
#      a raw COPY of the same rows into an empty migrated database;
#   3. starts the release server on a free port and drives each scenario with wrk, and each read scenario's
#      SQL with pgbench (same statements, same order, same row counts);
#   4. imports the same data set into a second, live database (BENCH_DB_live: the demo seed/ with a server on it)
#      while wrk reads its store pages, against the same pages read idle;
#   5. writes docs/BENCHMARKS.md from scripts/bench/BENCHMARKS.md.in.
#
# Knobs (environment): BENCH_STORES, BENCH_USERS, BENCH_COMMENTS (20000 / 100000 / 1000000), BENCH_DURATION
# (seconds per run, 15), BENCH_CONNECTIONS (64), BENCH_DB (chidian_bench), BENCH_LOG_LEVEL (warning),
# BENCH_DOC (docs/BENCHMARKS.md),
# BENCH_BIN (a prebuilt binary instead of the release build), BENCH_SKIP_IMPORT (1: reuse the bench database),
# BENCH_SKIP_LIVE (1: leave out the import into a live database), BENCH_LIVE_CONNECTIONS (16) and
# BENCH_LIVE_DELAY_MS (10): the live import's read load, each connection pausing between requests.
# Data and results go to .bench/ (git-ignored).
# Every wait is bounded and the server this script starts is always stopped.
set -euo pipefail

project=$(cd "$(dirname "$0")/.." && pwd)
cd "$project"
here=scripts/bench
out=.bench
STORES=${BENCH_STORES:-20000}
USERS=${BENCH_USERS:-100000}
COMMENTS=${BENCH_COMMENTS:-1000000}
DURATION=${BENCH_DURATION:-15}
CONNECTIONS=${BENCH_CONNECTIONS:-64}
THREADS=2
BENCH_DB=${BENCH_DB:-chidian_bench}
COPY_DB=${BENCH_DB}_copy
LIVE_DB=${BENCH_DB}_live
LIVE_CONNECTIONS=${BENCH_LIVE_CONNECTIONS:-16}
LIVE_DELAY_MS=${BENCH_LIVE_DELAY_MS:-10}
LOG_LEVEL=${BENCH_LOG_LEVEL:-warning}
DOC=${BENCH_DOC:-docs/BENCHMARKS.md}
pgbin=/usr/lib/postgresql/15/bin
BIN=${BENCH_BIN:-.build-release/release/chidian}
res=$out/results
started=$(date +%s)

say() { echo "bench: $*" >&2; }
die() { say "$*"; exit 1; }
now() { date +%s.%N; }
seconds_since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

[[ "$BENCH_DB" =~ ^[a-z_][a-z0-9_]*$ ]] || die "BENCH_DB must be a plain lower-case identifier"
[ "$BENCH_DB" != chidian ] || die "refusing to use the development database 'chidian'"

# --- Tools -------------------------------------------------------------------------------------------------
if ! command -v wrk >/dev/null; then
    say "installing wrk"
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq wrk >/dev/null
fi
for tool in curl perl "$pgbin/pgbench" "$pgbin/psql"; do command -v "$tool" >/dev/null || die "missing $tool"; done

# --- Database URLs -----------------------------------------------------------------------------------------
main_url=${DATABASE_URL:-$(scripts/db.sh url)}
base=${main_url%/*}
[ "${main_url##*/}" != "$BENCH_DB" ] || die "BENCH_DB must not be the database in DATABASE_URL"
bench_url=$base/$BENCH_DB
copy_url=$base/$COPY_DB
live_url=$base/$LIVE_DB
psql() { "$pgbin/psql" -X -q -v ON_ERROR_STOP=1 "$@"; }
sql() { psql -At "$1" -c "$2"; }

# --- Release build -----------------------------------------------------------------------------------------
if [ -z "${BENCH_BIN:-}" ]; then
    say "building release (scratch path .build-release)"
    # SwiftPM ends with "Build of product 'chidian' complete!"; a failed build fails the pipeline (pipefail).
    swift build -c release --product chidian --scratch-path .build-release 2>&1 | { grep -E "error|complete" || true; } | tail -3 >&2
fi
[ -x "$BIN" ] || die "release build failed"

mkdir -p "$out" "$res"
rm -f "$res"/*

# --- Data set ----------------------------------------------------------------------------------------------
data=$out/data-$STORES-$USERS-$COMMENTS
if [ -f "$data/.complete" ]; then
    say "reusing $data"
    generate_s=reused
else
    rm -rf "$data"
    say "generating $data"
    t=$(now)
    "$BIN" generate "$data" --stores "$STORES" --users "$USERS" --comments "$COMMENTS" --seed 1 >&2
    generate_s=$(seconds_since "$t")
    touch "$data/.complete"
fi

recreate() {
    psql "$base/postgres" -c "DROP DATABASE IF EXISTS $1 WITH (FORCE)" -c "CREATE DATABASE $1" >/dev/null
    DATABASE_URL=$base/$1 "$BIN" migrate >/dev/null
}

if [ "${BENCH_SKIP_IMPORT:-}" = 1 ] && [ "$(sql "$base/postgres" "SELECT count(*) FROM pg_database WHERE datname = '$BENCH_DB'")" = 1 ]; then
    say "BENCH_SKIP_IMPORT=1: reusing $BENCH_DB as it is; import and COPY not measured"
    import_s=skipped copy_s=skipped copy_rows=skipped
else
    # --- Import, timed
    say "importing into $BENCH_DB"
    recreate "$BENCH_DB"
    t=$(now)
    DATABASE_URL=$bench_url "$BIN" seed "$data" >"$res/import.log" 2>&1 || { tail -20 "$res/import.log" >&2; die "import failed"; }
    import_s=$(seconds_since "$t")
    say "import took ${import_s}s"
    psql "$bench_url" -c "VACUUM ANALYZE" >/dev/null

    # --- Raw COPY of the same rows, timed
    # The tables the import fills, in foreign-key order. Generated columns are left out (COPY cannot write them).
    # Search's per-store summaries are rows the importer writes too (SearchIndex.refreshAfterImport); the name
    # grams, store keys and pinyin queue come from the stores' triggers in both loads.
    tables="image_blobs images users categories stores store_images favorites promotions comments comment_images"
    tables+=" search_review_grams search_dish_stores"
    columns() {
        sql "$bench_url" "SELECT string_agg(quote_ident(column_name), ', ' ORDER BY ordinal_position)
            FROM information_schema.columns WHERE table_schema = 'public' AND table_name = '$1' AND is_generated = 'NEVER'"
    }
    say "exporting the imported rows for the raw COPY baseline"
    mkdir -p "$out/copy"
    script=$out/copy/load.sql
    {
        echo "SET client_min_messages = warning;"
        echo "BEGIN;"
        echo "TRUNCATE ${tables// /, } CASCADE;"
        # As the importer does: the comments' row triggers skip this transaction's rows (migration 005), so the
        # store totals and search summaries are not updated per row.
        echo "SET LOCAL chidian.bulk_import = 'on';"
    } >"$script"
    copy_rows=0
    for table in $tables; do
        cols=$(columns "$table")
        psql "$bench_url" -c "\\copy (SELECT $cols FROM $table) TO '$out/copy/$table.tsv'"
        copy_rows=$((copy_rows + $(wc -l <"$out/copy/$table.tsv")))
        echo "\\copy $table ($cols) FROM '$out/copy/$table.tsv'" >>"$script"
    done
    echo "COMMIT;" >>"$script"
    recreate "$COPY_DB"
    t=$(now)
    psql "$copy_url" -f "$script" >/dev/null
    copy_s=$(seconds_since "$t")
    say "raw COPY of $copy_rows rows took ${copy_s}s"
    psql "$base/postgres" -c "DROP DATABASE IF EXISTS $COPY_DB WITH (FORCE)" >/dev/null
fi

# --- Benchmark viewers -------------------------------------------------------------------------------------
password=bench-password-1
create_user() {
    local id
    id=$(sql "$bench_url" "SELECT id FROM users WHERE lower(name) = '$1'")
    [ -n "$id" ] && { echo "$id"; return; }
    DATABASE_URL=$bench_url "$BIN" user create --name "$1" --password "$password" --role user | sed -E 's/.*\((.*)\)$/\1/'
}
viewer_id=$(create_user benchviewer)
writer_id=$(create_user benchwriter)
# The viewer has clicked in the 10 categories with the most reviews, the biggest first.
psql "$bench_url" -c "DELETE FROM viewer_interests WHERE viewer = 'u:$viewer_id'" -c "
    INSERT INTO viewer_interests (viewer, category_id, score, score_at, clicks)
    SELECT 'u:$viewer_id', category_id, 11 - rank, now(), 3 * (11 - rank) FROM (
        SELECT category_id, row_number() OVER (ORDER BY count(*) DESC, category_id) AS rank
        FROM comments WHERE kind = 'review' GROUP BY category_id
    ) ranked WHERE rank <= 10" >/dev/null
[ "$(sql "$bench_url" "SELECT count(*) FROM stores WHERE id !~ '^s[0-9]{6}$'")" = 0 ] \
    || die "store ids are not s + 6 digits; store.sql and reviews.sql build them that way"

# --- Request paths -----------------------------------------------------------------------------------------
paths=$out/paths
mkdir -p "$paths"
sql "$bench_url" "SELECT '/v1/stores/' || id FROM stores WHERE archived_at IS NULL ORDER BY random()" >"$paths/store"
sed 's|$|/comments|' "$paths/store" >"$paths/reviews"
sql "$bench_url" "SELECT '/v1/comments/' || id FROM comments WHERE kind = 'review' ORDER BY random() LIMIT 50000" >"$paths/click"
echo /v1/feed/featured >"$paths/feed"
echo /v1/promotions/daily >"$paths/daily"
urlencode() { printf %s "$1" | od -An -tx1 | tr -d ' \n' | sed 's/../%&/g'; }
search_queries=("1-char Chinese:鱼" "2-char Chinese:火锅" "3-char Chinese:水煮鱼" "pinyin:huoguo" "English:noodles")
for i in "${!search_queries[@]}"; do
    echo "/v1/search?q=$(urlencode "${search_queries[$i]#*:}")" >"$paths/search$i"
done

# --- Server ------------------------------------------------------------------------------------------------
free_port() {
    local port=18080
    while (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do port=$((port + 1)); done
    echo "$port"
}
port=$(free_port)
server_pid=""
stop_server() {
    if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
        kill "$server_pid" 2>/dev/null || true
        for _ in $(seq 1 50); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.2; done
        kill -9 "$server_pid" 2>/dev/null || true
    fi
}
trap stop_server EXIT
# The image scenario's baseline: the same bytes as a plain file, served by the same server (STATIC_DIR).
mkdir -p "$out/static"
perl -e 'print "\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR\0\0\x02\x80\0\0\x01\xe0\x08\x02\0\0\0\0\0\0\0";
    srand(7); print pack("C*", map { int(rand(256)) } 1 .. 204800 - 33)' >"$out/static/bench.png"
DATABASE_URL=$bench_url LOG_LEVEL=$LOG_LEVEL RATE_LIMITS=off STATIC_DIR=$out/static "$BIN" serve --host 127.0.0.1 --port "$port" \
    >"$res/server.log" 2>&1 &
server_pid=$!
api=http://127.0.0.1:$port
for _ in $(seq 1 120); do curl -fsS "$api/health" >/dev/null 2>&1 && break; sleep 0.5; done
curl -fsS "$api/health" >/dev/null || { tail -20 "$res/server.log" >&2; die "the server did not start"; }
say "server $server_pid on port $port"

login() {
    curl -fsS -X POST -H 'Content-Type: application/json' -d "{\"name\":\"$1\",\"password\":\"$password\"}" \
        "$api/v1/auth/login" | grep -o '"token":"[^"]*"' | cut -d'"' -f4
}
viewer_token=$(login benchviewer)
writer_token=$(login benchwriter)
[ -n "$viewer_token" ] && [ -n "$writer_token" ] || die "could not sign the benchmark users in"
search_status=$(curl -s -o /dev/null -w '%{http_code}' "$api$(cat "$paths/search0")")
image_id=$(curl -fsS -X POST -H "Authorization: Bearer $writer_token" -H 'Content-Type: image/png' \
    --data-binary @"$out/static/bench.png" "$api/v1/images" | grep -o '"id":"[^"]*"' | cut -d'"' -f4)
[ -n "$image_id" ] || die "could not upload the benchmark image"
echo "/v1/images/$image_id" >"$paths/image"
echo "/static/bench.png" >"$paths/static"
cmp -s <(curl -fsS "$api/v1/images/$image_id") "$out/static/bench.png" || die "the served image differs from the file"

# --- pgbench variables: the binds the endpoints send -------------------------------------------------------
token_hash='\x'$(printf %s "$viewer_token" | sha256sum | cut -c1-64)
category=$(sql "$bench_url" "SELECT category_id FROM viewer_interests WHERE viewer = 'u:$viewer_id' ORDER BY score DESC, category_id LIMIT 1")
feed_ids="{$(sql "$bench_url" "SELECT c.id FROM comments c
    WHERE c.category_id = '$category' AND c.kind = 'review' AND c.hidden_at IS NULL AND NOT c.store_archived
    ORDER BY c.created_at DESC, c.id DESC LIMIT 20" | paste -sd,)}"
promo_ids="{$(sql "$bench_url" "SELECT s.id FROM stores s WHERE s.archived_at IS NULL AND s.ad_spend > 0
    ORDER BY s.ad_spend DESC, s.created_at, s.id LIMIT 10" | paste -sd,)}"
sample_store=$(sql "$bench_url" "SELECT substr(id, 2)::int FROM stores ORDER BY rating_count DESC, id LIMIT 1")
declare -A vars=(
    [lifetime]=2592000 [token_hash]="$token_hash" [viewer]="u:$viewer_id" [viewer_id]="$viewer_id" [category]="$category"
    [feed_ids]="$feed_ids" [promo_ids]="$promo_ids" [stores]="$STORES" [n]="$sample_store"
)
pgbench_defines=()
for key in lifetime token_hash viewer viewer_id category feed_ids promo_ids stores; do pgbench_defines+=(-D "$key=${vars[$key]}"); done

# --- Runs --------------------------------------------------------------------------------------------------
# run_wrk NAME PATHS TOKEN METHOD BODY [CONNECTIONS THREADS SECONDS]
run_wrk() {
    local name=$1 c=${6:-$CONNECTIONS} th=${7:-$THREADS} d=${8:-$DURATION}
    say "wrk $name (-t$th -c$c ${d}s)"
    BENCH_PATHS=$2 BENCH_TOKEN=$3 BENCH_METHOD=$4 BENCH_BODY=$5 BENCH_OUT=$res/$name.wrk \
        timeout $((d + 60)) wrk -t"$th" -c"$c" -d"${d}s" --timeout 10s --latency -s "$here/wrk.lua" "$api" \
        >"$res/$name.wrk.log" 2>&1 || say "wrk $name exited with $?"
}
run_pgbench() {
    local name=$1
    say "pgbench $name (-c$CONNECTIONS -j$THREADS ${DURATION}s)"
    timeout $((DURATION + 120)) "$pgbin/pgbench" -n -M prepared -c "$CONNECTIONS" -j "$THREADS" -T "$DURATION" \
        -f "$here/$name.sql" "${pgbench_defines[@]}" "$bench_url" >"$res/$name.pgbench.log" 2>&1 \
        || say "pgbench $name exited with $?"
}
get() { sed -n "s/^$2=//p" "$res/$1.wrk" 2>/dev/null || true; }
tps() { grep -oP 'tps = \K[0-9.]+(?= \(without)' "$res/$1.pgbench.log" 2>/dev/null | awk '{ printf "%.1f", $1 }' || true; }

run_wrk feed "$paths/feed" "$viewer_token" GET ""
run_pgbench feed
run_wrk store "$paths/store" "" GET ""
run_pgbench store
# The web client's pages as HTML, beside the JSON routes they draw from (anonymous: a new visitor each request).
sed 's|^/v1||' "$paths/store" >"$paths/store-html"
echo / >"$paths/home-html"
run_wrk store-html "$paths/store-html" "" GET ""
run_wrk home-html "$paths/home-html" "" GET ""
run_wrk reviews "$paths/reviews" "" GET ""
run_pgbench reviews
run_wrk daily "$paths/daily" "" GET ""
run_pgbench daily
short=$((DURATION / 3 > 3 ? DURATION / 3 : 3))
for i in "${!search_queries[@]}"; do
    run_wrk "search$i" "$paths/search$i" "" GET ""
    run_wrk "search$i-c1" "$paths/search$i" "" GET "" 1 1 "$short"
done
run_wrk image "$paths/image" "" GET ""
run_wrk static "$paths/static" "" GET ""
run_wrk post "$paths/reviews" "$writer_token" POST '{"rating":4,"body":"bench review %n: 水煮鱼很嫩，火锅底料香。"}'
run_wrk click "$paths/click" "$viewer_token" GET ""

rss_peak=$(awk '/VmHWM/ { printf "%.0f", $2 / 1024 }' "/proc/$server_pid/status")
rss_now=$(awk '/VmRSS/ { printf "%.0f", $2 / 1024 }' "/proc/$server_pid/status")
stop_server
server_pid=""

# --- EXPLAIN (ANALYZE, BUFFERS) of the hot queries ---------------------------------------------------------
# Each statement of the pgbench scripts with the variables as literals (store: the most-reviewed store).
explain() {
    local exports=()
    for key in "${!vars[@]}"; do exports+=("BENCH_VAR_$key=${vars[$key]}"); done
    env "${exports[@]}" perl "$here/explain.pl" "$here/$1.sql" >"$res/$1.explain.sql"
    psql "$bench_url" -P pager=off -f "$res/$1.explain.sql" >"$res/$1.explain.txt" 2>&1 || true
}
for name in feed store reviews daily; do explain "$name"; done

# Search builds its SQL from the query (SearchPlan), so its plans are taken from the running server instead:
# auto_explain on the benchmark database only, one request per query class, plans read from the private
# cluster's log. Best effort: skipped when the log is not ours to read (DATABASE_URL given).
search_plans() {
    local log
    log="$(cat .postgres/root 2>/dev/null)/server.log"
    [ -z "${DATABASE_URL:-}" ] && [ -r "$log" ] || { echo "(not captured: the cluster's log is not readable here)"; return; }
    psql "$base/postgres" -c "ALTER DATABASE $BENCH_DB SET session_preload_libraries = 'auto_explain'" \
        -c "ALTER DATABASE $BENCH_DB SET auto_explain.log_min_duration = 0" \
        -c "ALTER DATABASE $BENCH_DB SET auto_explain.log_analyze = on" \
        -c "ALTER DATABASE $BENCH_DB SET auto_explain.log_buffers = on" \
        -c "ALTER DATABASE $BENCH_DB SET auto_explain.log_nested_statements = on" >/dev/null
    DATABASE_URL=$bench_url LOG_LEVEL=$LOG_LEVEL RATE_LIMITS=off "$BIN" serve --host 127.0.0.1 --port "$port" \
        >>"$res/server.log" 2>&1 &
    server_pid=$!
    for _ in $(seq 1 120); do curl -fsS "$api/health" >/dev/null 2>&1 && break; sleep 0.5; done
    for i in "${!search_queries[@]}"; do
        curl -s -o /dev/null "$api$(cat "$paths/search$i")"   # warm: the first request may refresh caches
        local size
        size=$(stat -c %s "$log")
        curl -s -o /dev/null "$api$(cat "$paths/search$i")"
        sleep 0.5
        echo "#### Search ${search_queries[$i]%%:*} \`${search_queries[$i]#*:}\`"
        echo
        echo '```'
        tail -c +"$((size + 1))" "$log" | awk '
            /^[0-9][0-9][0-9][0-9]-/ { capture = ($0 ~ /LOG:  duration: .* plan:/) }
            capture { sub(/^[0-9-]+ [0-9:.]+ [A-Z]+ \[[0-9]+\] LOG:  /, ""); print }'
        echo '```'
        echo
    done
    stop_server
    server_pid=""
    psql "$base/postgres" -c "ALTER DATABASE $BENCH_DB RESET ALL" >/dev/null
}
search_plans >"$res/SEARCH_PLANS.md" 2>&1 || true

# --- Import into a live database ---------------------------------------------------------------------------
# A second database holding the demo seed/ with the release server on it. wrk reads its store pages idle, then
# again for exactly as long as `chidian seed` loads the generated data set into it: wrk stops at SIGINT and still
# reports, so its figures cover the import and nothing else. The load is paced (BENCH_LIVE_DELAY_MS between a
# connection's requests): a saturating load would starve the import of the 2 cores, and the same offered load
# idle and during the import makes the two latencies comparable. The demo users are renamed first: the generated
# names include some of theirs, which the import would rightly refuse.
live_import_s=skipped
live_import() {
    say "live import: $LIVE_DB holding the demo seed"
    recreate "$LIVE_DB"
    DATABASE_URL=$live_url "$BIN" seed seed >"$res/live-demo.log" 2>&1 \
        || { tail -5 "$res/live-demo.log" >&2; say "the demo seed failed"; return 1; }
    psql "$live_url" -c "UPDATE users SET name = 'demo-' || id" -c "VACUUM ANALYZE" >/dev/null
    sql "$live_url" "SELECT '/v1/stores/' || id FROM stores WHERE archived_at IS NULL ORDER BY id" >"$paths/live-store"
    live_stores=$(wc -l <"$paths/live-store")
    DATABASE_URL=$live_url LOG_LEVEL=$LOG_LEVEL RATE_LIMITS=off "$BIN" serve --host 127.0.0.1 --port "$port" \
        >"$res/live-server.log" 2>&1 &
    server_pid=$!
    for _ in $(seq 1 120); do curl -fsS "$api/health" >/dev/null 2>&1 && break; sleep 0.5; done
    curl -fsS "$api/health" >/dev/null || { tail -20 "$res/live-server.log" >&2; say "the live server did not start"; return 1; }
    BENCH_DELAY_MS=$LIVE_DELAY_MS run_wrk live-idle "$paths/live-store" "" GET "" "$LIVE_CONNECTIONS"

    say "live import: seeding $data into $LIVE_DB while wrk reads store pages"
    local limit=3600 import_pid wrk_pid status=0 t
    t=$(now)
    DATABASE_URL=$live_url timeout "$limit" "$BIN" seed "$data" >"$res/live-import.log" 2>&1 &
    import_pid=$!
    BENCH_PATHS=$paths/live-store BENCH_TOKEN="" BENCH_METHOD=GET BENCH_BODY="" BENCH_OUT=$res/live-import.wrk \
        BENCH_DELAY_MS=$LIVE_DELAY_MS wrk -t"$THREADS" -c"$LIVE_CONNECTIONS" -d"$((limit + 60))s" --timeout 10s --latency -s "$here/wrk.lua" "$api" \
        >"$res/live-import.wrk.log" 2>&1 &
    wrk_pid=$!
    wait "$import_pid" || status=$?
    live_import_s=$(seconds_since "$t")
    kill -INT "$wrk_pid" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$wrk_pid" 2>/dev/null || break; sleep 0.2; done
    kill -9 "$wrk_pid" 2>/dev/null || true
    wait "$wrk_pid" 2>/dev/null || true
    live_rss=$(awk '/VmHWM/ { printf "%.0f", $2 / 1024 }' "/proc/$server_pid/status")
    stop_server
    server_pid=""
    if [ "$status" != 0 ]; then
        tail -5 "$res/live-import.log" >&2
        live_import_s="failed (exit $status)"
        return 1
    fi
    live_comments=$(sql "$live_url" "SELECT count(*) FROM comments")
    say "live import took ${live_import_s}s; $live_comments comments in $LIVE_DB"
    psql "$base/postgres" -c "DROP DATABASE IF EXISTS $LIVE_DB WITH (FORCE)" >/dev/null
}
live_stores=n/a live_comments=n/a live_rss=n/a
if [ "${BENCH_SKIP_LIVE:-}" = 1 ]; then
    say "BENCH_SKIP_LIVE=1: no import into a live database"
else
    live_import || say "the live import scenario failed"
fi

# --- Report ------------------------------------------------------------------------------------------------
say "writing $DOC"
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a !~ /^[0-9.]+$/ || b !~ /^[0-9.]+$/ || b == 0) print "n/a"; else printf "%.2f", a / b }'; }
verdict() { awk -v v="$1" -v t="$2" -v dir="$3" 'BEGIN { if (v == "n/a" || v == "") print "?"; else if ((dir == ">=" && v + 0 >= t) || (dir == "<=" && v + 0 <= t)) print "met"; else print "**missed**" }'; }
import_ratio=$(ratio "$copy_s" "$import_s")
{
    echo "| Scenario | Requests/s | p50 ms | p95 ms | p99 ms | Non-2xx | pgbench tps | Endpoint / pgbench | Target |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|---|"
    row() {
        local name=$1 label=$2 pg=${3:-} target=${4:-}
        local r=n/a
        [ -n "$pg" ] && r=$(ratio "$(get "$name" rps)" "$pg")
        echo "| $label | $(get "$name" rps) | $(get "$name" p50) | $(get "$name" p95) | $(get "$name" p99) | $(get "$name" non2xx) | ${pg:-–} | $r | $target |"
    }
    row feed "Featured feed (signed in, 10 categories)" "$(tps feed)" "≥ 0.5× pgbench: $(verdict "$(ratio "$(get feed rps)" "$(tps feed)")" 0.5 ">=")"
    row store "Store page" "$(tps store)" "≥ 0.5× pgbench: $(verdict "$(ratio "$(get store rps)" "$(tps store)")" 0.5 ">=")"
    row reviews "Store reviews page" "$(tps reviews)" "≥ 0.5× pgbench: $(verdict "$(ratio "$(get reviews rps)" "$(tps reviews)")" 0.5 ">=")"
    row daily "Daily promotions" "$(tps daily)" ""
    row store-html "Store page as HTML (\`/stores/{id}\`: the store and its first 20 reviews)" "" ""
    echo "| Store page HTML ÷ JSON store page | | | | | | | **$(ratio "$(get store-html rps)" "$(get store rps)")** | |"
    row home-html "Home page as HTML (\`/\`: daily promotions and the featured feed, a new visitor)" "" ""
    echo "| Home page HTML ÷ JSON daily promotions | | | | | | | **$(ratio "$(get home-html rps)" "$(get daily rps)")** | |"
    for i in "${!search_queries[@]}"; do
        label=${search_queries[$i]%%:*}; q=${search_queries[$i]#*:}
        row "search$i" "Search $label \`$q\` (c$CONNECTIONS)" "" "p95 ≤ 20 ms: $(verdict "$(get "search$i" p95)" 20 "<=")"
        row "search$i-c1" "Search $label \`$q\` (1 connection)" "" "p95 ≤ 20 ms: $(verdict "$(get "search$i-c1" p95)" 20 "<=")"
    done
    row image "A 200 kB image from PostgreSQL (\`/v1/images/{id}\`)" "" ""
    row static "The same 200 kB as a plain file (\`/static/\`, the same server)" "" ""
    echo "| Image ÷ plain file | | | | | | | **$(ratio "$(get image rps)" "$(get static rps)")** | |"
    row post "Post a review" "" ""
    row click "Open a review (click recorded)" "" ""
} >"$res/RESULTS.md"
{
    echo "| Store page (\`GET /v1/stores/{id}\`, the $live_stores demo stores; $LIVE_CONNECTIONS connections, ${LIVE_DELAY_MS} ms apart) | Requests/s | p50 ms | p95 ms | p99 ms | Max ms | Non-2xx | Socket errors |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|"
    for name in live-idle live-import; do
        label="Idle, before the import"
        [ "$name" = live-import ] && label="While \`chidian seed\` imports the data set (**$live_import_s s**)"
        echo "| $label | $(get "$name" rps) | $(get "$name" p50) | $(get "$name" p95) | $(get "$name" p99) | $(get "$name" max) | $(get "$name" non2xx) | $(get "$name" socket_errors) |"
    done
    echo
    fresh="into the empty \`$BENCH_DB\` above: $import_s s"
    [[ "$import_s" =~ ^[0-9.]+$ ]] || fresh="the import into the empty \`$BENCH_DB\` was not measured in this run"
    echo "The import into the live database took $live_import_s s ($fresh) and"
    echo "left $live_comments comments there; the live server's peak RSS was $live_rss MB."
} >"$res/LIVE.md"
{
    echo "| | Seconds | Rows | COPY / import |"
    echo "|---|---:|---:|---|"
    echo "| \`chidian seed\` (JSON → database, one transaction) | $import_s | $STORES stores, $USERS users, $COMMENTS comments | |"
    echo "| Raw \`COPY\` of the imported rows into an empty migrated database | $copy_s | $copy_rows | **$import_ratio** (target ≥ 0.5: $(verdict "$import_ratio" 0.5 ">=")) |"
    echo
    if [ "$generate_s" = reused ]; then echo "The data set was reused from an earlier run (\`$data\`)."
    else echo "Generating the data set took ${generate_s} s."; fi
} >"$res/IMPORT.md"
{
    echo "- Machine: $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)), $(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo) memory, Linux $(uname -r)"
    echo "- Date: $(date -u '+%Y-%m-%d %H:%M UTC'); the whole run took $(( $(date +%s) - started )) s"
    echo "- Command: \`make bench\` with BENCH_STORES=$STORES BENCH_USERS=$USERS BENCH_COMMENTS=$COMMENTS BENCH_DURATION=$DURATION BENCH_CONNECTIONS=$CONNECTIONS"
    echo "- wrk: \`wrk -t$THREADS -c$CONNECTIONS -d${DURATION}s --latency -s scripts/bench/wrk.lua\`; pgbench: \`pgbench -n -M prepared -c $CONNECTIONS -j $THREADS -T $DURATION -f scripts/bench/<scenario>.sql\`"
    echo "- Server: release build, default pool (DB_POOL_SIZE 16), LOG_LEVEL=$LOG_LEVEL; PostgreSQL $(sql "$bench_url" "SHOW server_version"), $(sql "$bench_url" "SHOW shared_buffers") shared_buffers, fsync off (the private cluster)"
    echo "- Server memory: peak RSS (VmHWM) **$rss_peak MB** after every scenario, $rss_now MB at the end (target ≤ 150 MB: $(verdict "$rss_peak" 150 "<="))"
    echo "- Search endpoint answered HTTP $search_status before the runs"
} >"$res/MACHINE.md"
{
    for name in feed store reviews daily; do
        echo "#### $name (\`scripts/bench/$name.sql\`)"
        echo
        echo '```'
        cat "$res/$name.explain.txt"
        echo '```'
        echo
    done
} >"$res/EXPLAIN.md"
RES=$res perl -pe 'if (/^@@(\w+)@@$/) { local $/; open my $f, "<", "$ENV{RES}/$1.md" or die "$1: $!"; $_ = <$f> }' \
    "$here/BENCHMARKS.md.in" >"$DOC.tmp"
mv "$DOC.tmp" "$DOC"
say "done in $(( $(date +%s) - started )) s: $DOC"

#!/usr/bin/env bash
# `make bench`: the production-scale benchmark, measured against the database's own limit.
#
#   1. builds the release binary (its own scratch path, so it never fights the debug build);
#   2. generates (or reuses) the data set and imports it into a dedicated database, timing the import against
#      a raw COPY of the same rows into an empty migrated database;
#   3. writes the request sequences (scripts/bench/workload.py): store and comment pages drawn Zipf over every
#      store, a Zipf mix of 10,000 real search texts, and the mixed scenario's lines;
#   4. starts the release server on a free port once per cache mode (issue #22: on, then CACHE=off) and drives
#      every scenario with wrk, and each read scenario's SQL once with pgbench (same statements, same order, same
#      row counts); during the mixed scenario scripts/bench/ryw.py checks that writes are read back at once; after
#      it, scripts/bench/openloop.c offers the mixed lines at a fixed rate (50 % and 80 % of what wrk reached);
#   5. imports the same data set into a second, live database (BENCH_DB_live: the demo seed/ with a server on it)
#      while wrk reads its store pages, against the same pages read idle;
#   6. writes docs/BENCHMARKS.md from scripts/bench/BENCHMARKS.md.in.
#
# Knobs (environment): BENCH_STORES, BENCH_USERS, BENCH_COMMENTS (20000 / 100000 / 1000000), BENCH_DURATION
# (seconds per run, 15), BENCH_CONNECTIONS (64), BENCH_DB (chidian_bench), BENCH_LOG_LEVEL (warning),
# BENCH_DOC (docs/BENCHMARKS.md),
# BENCH_BIN (a prebuilt binary instead of the release build), BENCH_SKIP_IMPORT (1: reuse the bench database, only
# migrated; the data set is then generated only for the live import), BENCH_SKIP_LIVE (1: leave out the import into
# a live database), BENCH_LIVE_CONNECTIONS (16) and BENCH_LIVE_DELAY_MS (10): the live import's read load, each
# connection pausing between requests; BENCH_LIVE_CACHE (off: its server's CACHE); BENCH_CACHE_MODES ("on off":
# the server's cache modes, in order); BENCH_MIX_USERS (32: signed-in users of the mixed scenario); BENCH_LINES
# (200000: lines per generated request file); BENCH_SEED (1: the popularity rankings and draws); BENCH_SCENARIOS
# (all: or the scenarios to run, by name — health, near, pick, copy, mixed, ryw, … — for a focused run written to
# another BENCH_DOC, since the template's other rows stay empty); BENCH_CLOCK (an ISO 8601 time with its offset: the
# server's clock starts there, CLOCK_START, and near.sql and pick.sql read it for "open now"; scripts/bench-places.sh
# measures noon and 04:00 in Shanghai this way); BENCH_WARM (0: seconds of an unmeasured run of near me and the pick
# before each is measured, as on a server up a while; scripts/bench-places.sh sets 15).
# Data and results go to .bench/ (git-ignored; BENCH_OUT_DIR for results and request files elsewhere, as
# scripts/bench-growth.sh does per data set).
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
LIVE_CACHE=${BENCH_LIVE_CACHE:-off}
MODES=${BENCH_CACHE_MODES:-on off}
MIX_USERS=${BENCH_MIX_USERS:-32}
LINES=${BENCH_LINES:-200000}
SEED=${BENCH_SEED:-1}
LOG_LEVEL=${BENCH_LOG_LEVEL:-warning}
CLOCK=${BENCH_CLOCK:-}
DOC=${BENCH_DOC:-docs/BENCHMARKS.md}
pgbin=/usr/lib/postgresql/15/bin
BIN=${BENCH_BIN:-.build-release/release/chidian}
res=${BENCH_OUT_DIR:-$out}/results
started=$(date +%s)

say() { echo "bench: $*" >&2; }
SCENARIOS=${BENCH_SCENARIOS:-all}
# want NAME: whether the scenario NAME (a run's name before its cache mode) is to run.
want() { [ "$SCENARIOS" = all ] || [[ " $SCENARIOS " == *" $1 "* ]]; }
die() { say "$*"; exit 1; }
now() { date +%s.%N; }
seconds_since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

[[ "$BENCH_DB" =~ ^[a-z_][a-z0-9_]*$ ]] || die "BENCH_DB must be a plain lower-case identifier"
[ "$BENCH_DB" != chidian ] || die "refusing to use the development database 'chidian'"
for mode in $MODES $LIVE_CACHE; do [[ "$mode" =~ ^(on|off)$ ]] || die "cache modes are on and off, not '$mode'"; done

# --- Tools -------------------------------------------------------------------------------------------------
. scripts/lib/common.sh
need_package pgrep procps
need_package wrk wrk
# scripts/bench/openloop.c is built each run.
need_package cc gcc
for tool in curl perl python3 "$pgbin/pgbench" "$pgbin/psql"; do command -v "$tool" >/dev/null || die "missing $tool"; done

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
# The open-loop generator (wrk2 is not in Debian; see scripts/bench/openloop.c): libc only, built each run.
if want open50 || want open80 || want open100 || want routes-open50; then
    cc -O2 -Wall -o "$out/openloop" "$here/openloop.c" || die "could not build scripts/bench/openloop.c"
fi

# --- Data set ----------------------------------------------------------------------------------------------
# Reusing the bench database (BENCH_SKIP_IMPORT=1) needs no data set; the live import still does.
reuse=0
if [ "${BENCH_SKIP_IMPORT:-}" = 1 ] && [ "$(sql "$base/postgres" "SELECT count(*) FROM pg_database WHERE datname = '$BENCH_DB'")" = 1 ]; then
    reuse=1
fi
data=$out/data-$STORES-$USERS-$COMMENTS
generate_s="not needed"
if [ "$reuse" = 1 ] && [ "${BENCH_SKIP_LIVE:-}" = 1 ]; then
    say "the data set is not needed (the database is reused, no live import)"
elif [ -f "$data/.complete" ]; then
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

if [ "$reuse" = 1 ]; then
    say "BENCH_SKIP_IMPORT=1: reusing $BENCH_DB; import and COPY not measured"
    import_s=skipped copy_s=skipped copy_rows=skipped
    # The server refuses a schema behind its binary; a migration edited after it was applied fails here instead.
    DATABASE_URL=$bench_url "$BIN" migrate 2>&1 | sed 's/^/bench: migrate: /' >&2 \
        || die "could not migrate $BENCH_DB; run without BENCH_SKIP_IMPORT=1 to import it afresh"
else
    # --- Import, timed
    say "importing into $BENCH_DB"
    recreate "$BENCH_DB"
    t=$(now)
    # Generated reviews are not judged (TRUST=off): the bench measures serving, not the judge (docs/TRUST.md).
    DATABASE_URL=$bench_url TRUST=off "$BIN" seed "$data" >"$res/import.log" 2>&1 || { tail -20 "$res/import.log" >&2; die "import failed"; }
    import_s=$(seconds_since "$t")
    say "import took ${import_s}s"
    psql "$bench_url" -c "VACUUM ANALYZE" >/dev/null

    # --- Raw COPY of the same rows, timed
    want copy || copy_s=skipped copy_rows=skipped
    want copy && {
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
    }
fi

# A server that has been up a while has its database in memory: every table and index read into PostgreSQL's buffers
# (pg_prewarm, from PostgreSQL's contrib), so the first scenario after an import or a restart is not measuring a
# cold cache (posts ran at 35/s against 290/s warm).
t=$(now)
sql "$bench_url" "CREATE EXTENSION IF NOT EXISTS pg_prewarm" >/dev/null
pages=$(sql "$bench_url" "SELECT sum(pg_prewarm(c.oid)) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relkind IN ('r', 'i', 'm')")
say "prewarmed $pages pages in $(seconds_since "$t")s"

# --- Benchmark users ---------------------------------------------------------------------------------------
password=bench-password-1
create_user() {
    local id
    id=$(sql "$bench_url" "SELECT id FROM users WHERE lower(name) = '$1'")
    [ -n "$id" ] && { echo "$id"; return; }
    DATABASE_URL=$bench_url "$BIN" user create --name "$1" --password "$password" --role user | sed -E 's/.*\((.*)\)$/\1/'
}
viewer_id=$(create_user benchviewer)
writer_id=$(create_user benchwriter)
# The read-your-writes client's own user, and the mixed scenario's signed-in users (writes spread over them).
ryw_id=$(create_user benchryw)
mix_names=()
for i in $(seq 1 "$MIX_USERS"); do create_user "benchmix$i" >/dev/null; mix_names+=("benchmix$i"); done
# The viewer has clicked in the 10 categories with the most reviews, the biggest first.
psql "$bench_url" -c "DELETE FROM viewer_interests WHERE viewer = 'u:$viewer_id'" -c "
    INSERT INTO viewer_interests (viewer, category_id, score, score_at, clicks)
    SELECT 'u:$viewer_id', category_id, 11 - rank, now(), 3 * (11 - rank) FROM (
        SELECT category_id, row_number() OVER (ORDER BY count(*) DESC, category_id) AS rank
        FROM comments WHERE kind = 'review' GROUP BY category_id
    ) ranked WHERE rank <= 10" >/dev/null
# Also-viewed and 猜你喜欢 read co-visits: 30 neighbours per live store (md5 order, so the same data gives the
# same pairs) with 1–40 shared viewers, unless the data has some; and the viewer's 20 most recent store opens.
if [ "$(sql "$bench_url" "SELECT count(*) FROM store_covisits")" = 0 ]; then
    psql "$bench_url" -c "
        WITH n AS (SELECT id, row_number() OVER (ORDER BY md5(id)) AS k, count(*) OVER () AS total
                   FROM stores WHERE archived_at IS NULL)
        INSERT INTO store_covisits (store_id, other_id, viewers)
        SELECT a.id, b.id, 1 + (a.k * 7 + g * 13) % 40
        FROM n a CROSS JOIN generate_series(1, 30) g JOIN n b ON b.k = (a.k + g * 37) % a.total + 1
        WHERE a.id <> b.id
        ON CONFLICT DO NOTHING" >/dev/null
fi
psql "$bench_url" -c "DELETE FROM viewer_store_opens WHERE viewer = 'u:$viewer_id'" -c "
    INSERT INTO viewer_store_opens (viewer, store_id, opened_at)
    SELECT 'u:$viewer_id', id, now() - make_interval(mins => (row_number() OVER (ORDER BY md5(id)))::int)
    FROM stores WHERE archived_at IS NULL ORDER BY md5(id) LIMIT 20" >/dev/null
# The following feed's two extremes (issue #33), additive rows: `benchfollows1000` follows the 1,000 authors with the
# most reviews; the author with the most reviews is followed by 100,000 users (the first by id), one of them
# `benchfan`, who follows nobody else. Written with triggers off (a seed-like bulk load: no notifications, one
# transaction instead of 100,000), then the counts on users set from the rows, as the triggers keep them.
follow_many_id=$(create_user benchfollows1000)
follow_fan_id=$(create_user benchfan)
# Never a bench user: benchwriter's posts pile up over runs, and once it was the author with the most reviews every
# post it made told 100,000 followers, a fan-out backlog that took a core from every scenario after it.
celeb_id=$(sql "$bench_url" "SELECT c.author_id FROM comments c JOIN users u ON u.id = c.author_id
    WHERE c.kind = 'review' AND c.hidden_at IS NULL AND u.name NOT LIKE 'bench%'
    GROUP BY c.author_id ORDER BY count(*) DESC, c.author_id LIMIT 1")
if [ "$(sql "$bench_url" "SELECT count(*) FROM follows f JOIN users u ON u.id = f.followee_id
    WHERE u.name LIKE 'bench%'")" != 0 ]; then
    say "following: the bench users' followers go (a bench user once became the 100,000-follower author)"
    psql -q "$bench_url" -v ON_ERROR_STOP=1 -c "BEGIN" -c "
        DELETE FROM follows WHERE followee_id IN (SELECT id FROM users WHERE name LIKE 'bench%')" -c "
        DELETE FROM notification_fanout WHERE comment_id IN (SELECT c.id FROM comments c JOIN users u
            ON u.id = c.author_id WHERE u.name LIKE 'bench%')" -c "
        UPDATE users u SET follower_count = (SELECT count(*) FROM follows f WHERE f.followee_id = u.id)
        WHERE u.name LIKE 'bench%'" -c "COMMIT" >/dev/null
fi
if [ "$(sql "$bench_url" "SELECT count(*) FROM follows WHERE followee_id = '$celeb_id'")" -lt 100000 ]; then
    say "following: 1,000 follows for benchfollows1000, 100,000 followers for $celeb_id"
    psql -q "$bench_url" -v ON_ERROR_STOP=1 -c "BEGIN" -c "SET LOCAL session_replication_role = replica" -c "
        INSERT INTO follows (follower_id, followee_id)
        SELECT '$follow_many_id', author_id FROM comments WHERE kind = 'review' AND hidden_at IS NULL
            AND author_id <> '$follow_many_id'
        GROUP BY author_id ORDER BY count(*) DESC, author_id LIMIT 1000
        ON CONFLICT DO NOTHING" -c "
        INSERT INTO follows (follower_id, followee_id)
        SELECT id, '$celeb_id' FROM users WHERE id NOT IN ('$celeb_id', '$follow_many_id')
        ORDER BY id = '$follow_fan_id' DESC, id LIMIT 100000
        ON CONFLICT DO NOTHING" -c "
        UPDATE users u SET follower_count = (SELECT count(*) FROM follows f WHERE f.followee_id = u.id),
            following_count = (SELECT count(*) FROM follows f WHERE f.follower_id = u.id)
        WHERE u.id IN (SELECT follower_id FROM follows UNION SELECT followee_id FROM follows)" -c "COMMIT" \
        >/dev/null
fi
[ "$(sql "$bench_url" "SELECT count(*) FROM stores WHERE id !~ '^s[0-9]{6}$'")" = 0 ] \
    || die "store ids are not s + 6 digits; store.sql and reviews.sql build them that way"

# --- Request paths -----------------------------------------------------------------------------------------
paths=${BENCH_OUT_DIR:-$out}/paths
rm -rf "$paths"
mkdir -p "$paths/pool"
workload() { python3 "$here/workload.py" --seed "$SEED" --n "$LINES" "$@"; }
# Store and comment pages: a store per request, Zipf-drawn (s = 0.99) over every live store ranked by a seeded
# shuffle; the comment pages follow the same sequence. Posting keeps today's uniform walk of every store.
sql "$bench_url" "SELECT id FROM stores WHERE archived_at IS NULL ORDER BY id" >"$paths/pool/stores"
workload zipf --items "$paths/pool/stores" --prefix /v1/stores/ --stream store --out "$paths/store" >"$res/zipf-stores.txt"
sed 's|$|/comments|' "$paths/store" >"$paths/reviews"
sql "$bench_url" "SELECT '/v1/stores/' || id || '/comments' FROM stores WHERE archived_at IS NULL ORDER BY random()" \
    >"$paths/post"
sql "$bench_url" "SELECT '/v1/comments/' || id FROM comments WHERE kind = 'review' ORDER BY random() LIMIT 50000" >"$paths/click"
echo /health >"$paths/health"
echo /v1/feed/following >"$paths/following"
echo /v1/feed/featured >"$paths/feed"
echo /v1/promotions/daily >"$paths/daily"
# Near me and 今天吃点啥: positions within about 5 km of the generator's city centres (GeneratedPlaces), fixed seed.
awk -v n=2000 'BEGIN {
    srand(29)
    k = split("30.6598,104.0633 23.1291,113.2644 28.2282,112.9388 29.5630,106.5516 31.2304,121.4737 39.9087,116.3975 " \
        "22.5431,114.0579 30.2741,120.1551 34.2658,108.9541 32.0603,118.7969 41.8057,123.4315 30.5928,114.3055", c, " ")
    for (i = 0; i < n; i++) {
        split(c[int(rand() * k) + 1], p, ",")
        printf "%.5f,%.5f\n", p[1] + (rand() - 0.5) * 0.09, p[2] + (rand() - 0.5) * 0.104
    }
}' >"$paths/near-points"
sed 's|^|/v1/stores?radius=3000\&open=now\&sort=distance\&near=|' "$paths/near-points" >"$paths/near"
sed 's|^|/v1/pick?near=|' "$paths/near-points" >"$paths/pick"
# Recommendations: also-viewed on the Zipf store sequence; 猜你喜欢 for the signed-in viewer, and near the positions.
sed 's|$|/also-viewed|' "$paths/store" >"$paths/also"
echo /v1/feed/stores >"$paths/foryou"
sed 's|^|/v1/feed/stores?near=|' "$paths/near-points" >"$paths/foryou-near"
urlencode() { printf %s "$1" | od -An -tx1 | tr -d ' \n' | sed 's/../%&/g'; }
search_queries=("1-char Chinese:鱼" "2-char Chinese:火锅" "3-char Chinese:水煮鱼" "pinyin:huoguo" "English:noodles")
for i in "${!search_queries[@]}"; do
    echo "/v1/search?q=$(urlencode "${search_queries[$i]#*:}")" >"$paths/search$i"
done
# The search mix: 10,000 real texts of the database in classes (workload.py), drawn Zipf. Review bodies are a
# fixed sample (md5 order), so the same data gives the same texts.
pool=$paths/pool
sql "$bench_url" "SELECT name FROM search_dishes ORDER BY name" >"$pool/dishes"
sql "$bench_url" "SELECT name FROM categories ORDER BY name" >"$pool/categories"
sql "$bench_url" "SELECT DISTINCT name FROM stores WHERE archived_at IS NULL ORDER BY name" >"$pool/names"
psql -At -F $'\t' "$bench_url" -c "SELECT syllables, initials FROM search_pinyin WHERE ready AND syllables <> '' ORDER BY source" \
    >"$pool/pinyin"
sql "$bench_url" "SELECT body FROM comments WHERE kind = 'review' AND hidden_at IS NULL ORDER BY md5(id) LIMIT 5000" \
    | tr '\t' ' ' >"$pool/bodies"
workload search-texts --pool "$pool" --out "$paths/search-texts" --summary "$res/search-mix.md"
workload search-paths --texts "$paths/search-texts" --out "$paths/search-zipf"
# Reviews the mixed scenario likes and opens: each store's first page (what a reader of it sees), none by a
# benchmark user (liking one's own review is refused).
psql -At -F $'\t' "$bench_url" -c "SELECT s.id, c.id FROM stores s CROSS JOIN LATERAL (
        SELECT c.id FROM comments c
        WHERE c.store_id = s.id AND c.kind = 'review' AND c.hidden_at IS NULL AND NOT c.store_archived
          AND c.author_id NOT IN (SELECT id FROM users WHERE name LIKE 'bench%')
        ORDER BY c.created_at DESC, c.id DESC LIMIT 20) c
    WHERE s.archived_at IS NULL ORDER BY 1, 2" >"$pool/first-pages"

# --- Server ------------------------------------------------------------------------------------------------
port=$(free_port 18080)
api=http://127.0.0.1:$port
server_pid=""
stop_server() {
    if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
        kill "$server_pid" 2>/dev/null || true
        for _ in $(seq 1 50); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.2; done
        if kill -0 "$server_pid" 2>/dev/null; then
            say "the server did not stop within 10 s of SIGTERM; killing it"
            kill -9 "$server_pid" 2>/dev/null || true
        fi
        wait "$server_pid" 2>/dev/null || true   # reaped here, so bash reports no "Killed" job
    fi
    server_pid=""
}
trap stop_server EXIT
# start_server CACHE-MODE DATABASE-URL LOG: the release server with rate limits off, the cache on (CACHE unset:
# what production runs) or off (CACHE=off); returns once /health answers, or fails after 60 s.
start_server() {
    local cache=(-u CACHE)
    [ "$1" = off ] && cache=(CACHE=off)
    [ -n "$CLOCK" ] && cache+=(CLOCK_START="$CLOCK")
    env "${cache[@]}" DATABASE_URL="$2" LOG_LEVEL="$LOG_LEVEL" RATE_LIMITS=off STATIC_DIR="$out/static" \
        "$BIN" serve --host 127.0.0.1 --port "$port" >>"$3" 2>&1 &
    server_pid=$!
    for _ in $(seq 1 120); do curl -fsS "$api/health" >/dev/null 2>&1 && break; sleep 0.5; done
    curl -fsS "$api/health" >/dev/null || { tail -20 "$3" >&2; return 1; }
    say "server $server_pid on port $port (cache $1)"
}
# The image scenario's baseline: the same bytes as a plain file, served by the same server (STATIC_DIR).
mkdir -p "$out/static"
perl -e 'print "\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR\0\0\x02\x80\0\0\x01\xe0\x08\x02\0\0\0\0\0\0\0";
    srand(7); print pack("C*", map { int(rand(256)) } 1 .. 204800 - 33)' >"$out/static/bench.png"

login() {
    curl -fsS -X POST -H 'Content-Type: application/json' -d "{\"name\":\"$1\",\"password\":\"$password\"}" \
        "$api/v1/auth/login" | grep -o '"token":"[^"]*"' | cut -d'"' -f4 || true   # empty on failure: the caller says so
}
# Once, on the first server: sign the users in (sessions outlive the server), upload the benchmark image, write
# the mixed scenario's lines (they name the image) and the pgbench binds.
viewer_token=""
prepare() {
    viewer_token=$(login benchviewer)
    writer_token=$(login benchwriter)
    ryw_token=$(login benchryw)
    follow_many_token=$(login benchfollows1000)
    follow_fan_token=$(login benchfan)
    [ -n "$viewer_token" ] && [ -n "$writer_token" ] && [ -n "$ryw_token" ] || die "could not sign the benchmark users in"
    : >"$paths/tokens"
    for name in "${mix_names[@]}"; do
        local token
        token=$(login "$name")
        [ -n "$token" ] || die "could not sign $name in"
        echo "$token" >>"$paths/tokens"
    done
    search_status=$(curl -s -o /dev/null -w '%{http_code}' "$api$(cat "$paths/search0")")
    image_id=$(curl -fsS -X POST -H "Authorization: Bearer $writer_token" -H 'Content-Type: image/png' \
        --data-binary @"$out/static/bench.png" "$api/v1/images" | grep -o '"id":"[^"]*"' | cut -d'"' -f4 || true)
    [ -n "$image_id" ] || die "could not upload the benchmark image"
    echo "/v1/images/$image_id" >"$paths/image"
    echo "/static/bench.png" >"$paths/static"
    cmp -s <(curl -fsS "$api/v1/images/$image_id") "$out/static/bench.png" || die "the served image differs from the file"
    workload mixed --stores "$pool/stores" --reviews "$pool/first-pages" --texts "$paths/search-texts" \
        --image "/v1/images/$image_id" --users "$MIX_USERS" --out "$paths/mixed" --summary "$res/mixed-mix.md"

    # pgbench variables: the binds the endpoints send.
    token_hash='\x'$(printf %s "$viewer_token" | sha256sum | cut -c1-64)
    category=$(sql "$bench_url" "SELECT category_id FROM viewer_interests WHERE viewer = 'u:$viewer_id' ORDER BY score DESC, category_id LIMIT 1")
    clicked="{$(sql "$bench_url" "SELECT string_agg(category_id, ',' ORDER BY score DESC, category_id) FROM viewer_interests WHERE viewer = 'u:$viewer_id'")}"
    # The top three clicked: what 猜你喜欢 draws its categories' best stores from (foryou.sql).
    top_categories="{$(sql "$bench_url" "SELECT string_agg(t.category_id, ',' ORDER BY t.score DESC, t.category_id) FROM (
        SELECT category_id, score FROM viewer_interests WHERE viewer = 'u:$viewer_id' ORDER BY score DESC, category_id
        LIMIT 3) t")}"
    # Three categories with reviews the viewer has not shown: what the feed explores on every first page.
    explore="{$(sql "$bench_url" "SELECT string_agg(x.id, ',' ORDER BY x.id) FROM (SELECT k.id FROM categories k
        WHERE k.id <> ALL('$clicked'::text[]) AND EXISTS (SELECT 1 FROM comments c WHERE c.category_id = k.id
        AND c.kind = 'review') ORDER BY k.id LIMIT 3) x")}"
    feed_ids="{$(sql "$bench_url" "SELECT c.id FROM comments c
        WHERE c.category_id = '$category' AND c.kind = 'review' AND c.hidden_at IS NULL AND NOT c.store_archived
        ORDER BY c.created_at DESC, c.id DESC LIMIT 20" | paste -sd,)}"
    promo_ids="{$(sql "$bench_url" "SELECT s.id FROM stores s WHERE s.archived_at IS NULL AND s.ad_spend > 0
        ORDER BY s.ad_spend DESC, s.created_at, s.id LIMIT 10" | paste -sd,)}"
    sample_store=$(sql "$bench_url" "SELECT substr(id, 2)::int FROM stores ORDER BY rating_count DESC, id LIMIT 1")
    # The first page's 21 ids of each following extreme, for the cached path's SQL (following-*-cards.sql).
    following_ids() {
        echo "{$(sql "$bench_url" "SELECT c.id FROM follows f JOIN comments c ON c.author_id = f.followee_id
            WHERE f.follower_id = '$1' AND c.kind = 'review' AND c.hidden_at IS NULL AND NOT c.store_archived
            ORDER BY c.created_at DESC, c.id DESC LIMIT 21" | paste -sd,)}"
    }
    follow_many_ids=$(following_ids "$follow_many_id")
    follow_fan_ids=$(following_ids "$follow_fan_id")
    vars=(
        [lifetime]=2592000 [token_hash]="$token_hash" [viewer]="u:$viewer_id" [viewer_id]="$viewer_id" [category]="$category"
        [feed_ids]="$feed_ids" [promo_ids]="$promo_ids" [stores]="$STORES" [n]="$sample_store" [clicked]="$clicked" [top_categories]="$top_categories"
        [explore]="$explore" [dlat]=0 [dlng]=0 [follow_many]="$follow_many_id" [follow_fan]="$follow_fan_id"
        [follow_many_ids]="$follow_many_ids" [follow_fan_ids]="$follow_fan_ids"
        [clock]="${CLOCK:-now}" [writer]="$writer_id"
    )
    pgbench_defines=()
    for key in lifetime token_hash viewer viewer_id category feed_ids promo_ids stores clicked top_categories explore follow_many \
        follow_fan follow_many_ids follow_fan_ids clock writer; do pgbench_defines+=(-D "$key=${vars[$key]}"); done
}
declare -A vars=()
pgbench_defines=()

# --- Runs --------------------------------------------------------------------------------------------------
# run_wrk NAME PATHS TOKEN METHOD BODY [CONNECTIONS THREADS SECONDS]
run_wrk() {
    local name=$1 c=${6:-$CONNECTIONS} th=${7:-$THREADS} d=${8:-$DURATION} server0 db0
    want "${name%%.*}" || return 0
    say "wrk $name (-t$th -c$c ${d}s)"
    server0=$(ticks "$server_pid")
    db0=$(db_ticks)
    BENCH_PATHS=$2 BENCH_TOKEN=$3 BENCH_METHOD=$4 BENCH_BODY=$5 BENCH_OUT=$res/$name.wrk \
        timeout $((d + 60)) wrk -t"$th" -c"$c" -d"${d}s" --timeout 10s --latency -s "$here/wrk.lua" "$api" \
        >"$res/$name.wrk.log" 2>&1 || say "wrk $name exited with $?"
    cpu_per_request "$name" "$server0" "$db0"
}
# warm_wrk NAME PATHS: BENCH_WARM seconds of the same requests, not measured, so that the run after it measures the
# cache as a server up a while holds it rather than its first fill (at 200,000 stores near me's first 15 s gave
# 853/s one run and 2,007/s another).
warm_wrk() {
    local warm=${BENCH_WARM:-0}
    want "$1" && [ "$warm" -gt 0 ] || return 0
    say "wrk $1: ${warm}s to warm it (not measured)"
    BENCH_PATHS=$2 BENCH_TOKEN="" BENCH_METHOD=GET BENCH_BODY="" BENCH_OUT=/dev/null \
        timeout $((warm + 60)) wrk -t"$THREADS" -c"$CONNECTIONS" -d"${warm}s" --timeout 10s -s "$here/wrk.lua" "$api" \
        >/dev/null 2>&1 || say "wrk $1 warm-up exited with $?"
}
# CPU a request took (user + system, µs): the server's and PostgreSQL's (the bench cluster's postmaster and its
# children, which the server's pooled connections outlive a run in), appended to NAME.wrk as server_cpu_us= and,
# when the cluster runs on this machine, db_cpu_us=. On these shared cores a route's rate moves by ±30 % from one
# run to the next while its CPU per request moves far less, so ratios between routes are also given by it
# (docs/BENCHMARKS.md).
ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo 0; }
# Empty when the cluster is not this machine's (or its settings are not ours to read): no db_cpu_us then.
db_postmaster=$(head -1 "$(sql "$base/postgres" 'SHOW data_directory' 2>/dev/null)/postmaster.pid" 2>/dev/null || true)
db_ticks() {
    [ -n "$db_postmaster" ] || return 0
    local total pid
    total=$(ticks "$db_postmaster")
    for pid in $(pgrep -P "$db_postmaster"); do total=$((total + $(ticks "$pid"))); done
    echo "$total"
}
cpu_per_request() {
    local name=$1 requests db
    requests=$(get "$name" requests)
    [[ "$requests" =~ ^[0-9]+$ ]] && [ "$requests" -gt 0 ] || return 0
    db=$(db_ticks)
    awk -v s="$(($(ticks "$server_pid") - $2))" -v n="$requests" -v hz="$(getconf CLK_TCK)" \
        'BEGIN { printf "server_cpu_us=%.1f\n", s * 1e6 / hz / n }' >>"$res/$name.wrk"
    [ -n "$db" ] && [ -n "$3" ] || return 0
    awk -v d="$((db - $3))" -v n="$requests" -v hz="$(getconf CLK_TCK)" \
        'BEGIN { printf "db_cpu_us=%.1f\n", d * 1e6 / hz / n }' >>"$res/$name.wrk"
}
# pgbench runs once per read scenario (the database's limit does not depend on the server's cache), right after
# the first mode's wrk of the same scenario.
run_pgbench() {
    local name=$1
    want "$name" || return 0
    [ -f "$res/$name.pgbench.log" ] && return
    say "pgbench $name (-c$CONNECTIONS -j$THREADS ${DURATION}s)"
    timeout $((DURATION + 120)) "$pgbin/pgbench" -n -M prepared -c "$CONNECTIONS" -j "$THREADS" -T "$DURATION" \
        -f "$here/$name.sql" "${pgbench_defines[@]}" "$bench_url" >"$res/$name.pgbench.log" 2>&1 \
        || say "pgbench $name exited with $?"
}
# run_ryw NAME SECONDS: the read-your-writes client (scripts/bench/ryw.py) for about SECONDS, bounded by timeout.
run_ryw() {
    # Named itself, or as part of the mixed scenario it runs beside.
    want ryw || want "${1%%.*}" || return 0
    sql "$bench_url" "SELECT DISTINCT store_id FROM comments WHERE author_id = '$ryw_id'" >"$paths/ryw-reviewed"
    # `--token=`: a token may start with "-", which argparse would take for an option.
    timeout $(($2 + 60)) python3 "$here/ryw.py" --api "$api" --token="$ryw_token" --user "$ryw_id" \
        --stores "$paths/store" --reviewed "$paths/ryw-reviewed" --seconds "$2" --seed "$1" \
        --out "$res/$1.ryw" --log "$res/$1.ryw.log" 2>>"$res/$1.ryw.log" || say "ryw $1 exited with $?"
}
# run_mixed MODE: wrk with scripts/bench/mixed.lua, and ryw.py alongside for the same time.
run_mixed() {
    local name=mixed.$1 ryw_pid
    want mixed || return 0
    # A server that has been up a while has served the mix: its stores' pages and the signed-in viewers' pieces
    # are filled, as its searches were by the warm-up. This run is not measured.
    say "wrk $name: ${short}s of the mix first, not measured"
    BENCH_MIXED=$paths/mixed BENCH_TOKENS=$paths/tokens BENCH_OUT=$res/$name.prime.wrk \
        timeout $((short + 60)) wrk -t"$THREADS" -c"$CONNECTIONS" -d"${short}s" --timeout 10s \
        -s "$here/mixed.lua" "$api" >"$res/$name.prime.wrk.log" 2>&1 || say "wrk $name (first) exited with $?"
    run_ryw "$name" "$DURATION" &
    ryw_pid=$!
    say "wrk $name (-t$THREADS -c$CONNECTIONS ${DURATION}s) with ryw.py alongside"
    BENCH_MIXED=$paths/mixed BENCH_TOKENS=$paths/tokens BENCH_OUT=$res/$name.wrk \
        timeout $((DURATION + 60)) wrk -t"$THREADS" -c"$CONNECTIONS" -d"${DURATION}s" --timeout 10s --latency \
        -s "$here/mixed.lua" "$api" >"$res/$name.wrk.log" 2>&1 || say "wrk $name exited with $?"
    wait "$ryw_pid" || true
}
# run_open MODE: the open loop over the mixed scenario's lines at 50 %, 80 % and 100 % of the rate its wrk run just
# reached (constant rate, every request timed from when it was due), then the same schedule as the 100 % run
# against /health for a third of the time: the generator's own latency and CPU on these cores.
run_open() {
    local m=$1 mixed_rps pct rate="" name
    want open50 || want open80 || want open100 || return 0
    mixed_rps=$(get "mixed.$m" rps)
    [[ "$mixed_rps" =~ ^[0-9.]+$ ]] || { say "open loop (cache $m): no mixed rate to start from; run mixed too"; return 0; }
    for pct in 50 80 100; do
        want "open$pct" || continue
        name=open$pct.$m
        rate=$(awk -v r="$mixed_rps" -v p="$pct" 'BEGIN { printf "%.0f", r * p / 100 }')
        say "openloop $name ($rate requests/s for ${DURATION}s, up to $CONNECTIONS connections)"
        # A counter base of its own, so review bodies differ from the mixed run's.
        timeout $((DURATION + 60)) "$out/openloop" -a "127.0.0.1:$port" -r "$rate" -d "$DURATION" -c "$CONNECTIONS" \
            -f "$paths/mixed" -t "$paths/tokens" -n "$(date +%s)000" -T "$res/$name.timeline" 2>"$res/$name.log" \
            | tr ' ' '\n' >"$res/$name.open" \
            || say "openloop $name exited with $?"
    done
    printf 'GET\t/health\t0\n' >"$paths/open-health"
    say "openloop open-health.$m ($rate requests/s for ${short}s: the generator's own cost)"
    timeout $((short + 60)) "$out/openloop" -a "127.0.0.1:$port" -r "$rate" -d "$short" -c "$CONNECTIONS" \
        -f "$paths/open-health" 2>"$res/open-health.$m.log" | tr ' ' '\n' >"$res/open-health.$m.open" \
        || say "openloop open-health.$m exited with $?"
}
# run_open_routes MODE: the open loop at 50 % of each composed route's closed-loop rate from this run (issue #45:
# near me, the pick, 猜你喜欢 near and not, the featured feed signed in and not, the following feed's two readers,
# the home page, also viewed), over the same paths; BENCH_SCENARIOS takes routes-open50 beside them.
OPEN_ROUTES="near pick foryou-near foryou foryou-anon feed feed-anon following-many following-fan home-html also"
run_open_routes() {
    local m=$1 route rps rate user source
    want routes-open50 || return 0
    printf '%s\n' "$viewer_token" "$follow_many_token" "$follow_fan_token" >"$paths/open-tokens"
    for route in $OPEN_ROUTES; do
        rps=$(get "$route.$m" rps)
        [[ "$rps" =~ ^[0-9.]+$ ]] || { say "open loop $route (cache $m): no closed-loop rate; run $route too"; continue; }
        rate=$(awk -v r="$rps" 'BEGIN { printf "%.0f", r / 2 }')
        user=0 source=$route
        case $route in
            feed | foryou) user=1 ;;
            feed-anon) source=feed ;;
            foryou-anon) source=foryou ;;
            following-many) user=2 source=following ;;
            following-fan) user=3 source=following ;;
        esac
        awk -v u="$user" '{ print "GET\t" $0 "\t" u }' "$paths/$source" >"$paths/open-$route"
        # The same schedule for 5 s first, unmeasured: the routes before this one have filled the shared cache with
        # their own entries, and a route met cold queues its misses for a second or more (its p99 reported beside).
        say "openloop $route-open50.$m: 5 s to warm it"
        timeout 65 "$out/openloop" -a "127.0.0.1:$port" -r "$rate" -d 5 -c "$CONNECTIONS" -t "$paths/open-tokens" \
            -f "$paths/open-$route" 2>/dev/null | tr ' ' '\n' >"$res/$route-open50-cold.$m.open" \
            || say "openloop $route warm-up exited with $?"
        say "openloop $route-open50.$m ($rate requests/s for ${DURATION}s)"
        timeout $((DURATION + 60)) "$out/openloop" -a "127.0.0.1:$port" -r "$rate" -d "$DURATION" -c "$CONNECTIONS" \
            -t "$paths/open-tokens" -f "$paths/open-$route" 2>"$res/$route-open50.$m.log" \
            | tr ' ' '\n' >"$res/$route-open50.$m.open" || say "openloop $route-open50.$m exited with $?"
    done
}
# run_soak MODE: the mixed scenario for BENCH_SOAK_SECONDS (make soak: 1800) with every signal on, the server's RSS
# and the signal queue (length, oldest event's age) sampled every 30 s into soak.MODE.tsv (issue #44).
run_soak() {
    local m=$1 seconds=${BENCH_SOAK_SECONDS:-0} name=soak.$1 sampler
    want soak && [ "$seconds" -gt 0 ] || return 0
    say "wrk $name (-t$THREADS -c$CONNECTIONS ${seconds}s), sampled every 30 s"
    printf 'second\trss_mb\tqueued\toldest_s\n' >"$res/$name.tsv"
    (
        start=$(date +%s)
        while sleep 30; do
            printf '%s\t%s\t%s\n' "$(($(date +%s) - start))" "$(rss VmRSS)" \
                "$(sql "$bench_url" "SELECT count(*) || E'\t' || coalesce(round(extract(epoch FROM now() - min(at)))::text, '0') FROM viewer_event_queue")"
        done >>"$res/$name.tsv"
    ) &
    sampler=$!
    BENCH_MIXED=$paths/mixed BENCH_TOKENS=$paths/tokens BENCH_OUT=$res/$name.wrk \
        timeout $((seconds + 120)) wrk -t"$THREADS" -c"$CONNECTIONS" -d"${seconds}s" --timeout 10s --latency \
        -s "$here/mixed.lua" "$api" >"$res/$name.wrk.log" 2>&1 || say "wrk $name exited with $?"
    kill "$sampler" 2>/dev/null || true
    wait "$sampler" 2>/dev/null || true
}
get() { sed -n "s/^$2=//p" "$res/$1.wrk" 2>/dev/null || true; }
oget() { sed -n "s/^$2=//p" "$res/$1.open" 2>/dev/null || true; }
tps() { grep -oP 'tps = \K[0-9.]+(?= \(without)' "$res/$1.pgbench.log" 2>/dev/null | awk '{ printf "%.1f", $1 }' || true; }
ryw() { grep -oP "(?<=\b$2=)[0-9]+" "$res/$1.ryw" 2>/dev/null || true; }
rss() { awk -v key="$1:" '$1 == key { printf "%.0f", $2 / 1024 }' "/proc/$server_pid/status"; }

# With the cache, one read of each distinct search text first (a server that has run a while has them), so the Zipf
# run measures a warm cache instead of 10,000 first reads queued at the search gate. Bounded; timed for the report.
# Once per server: the mixed scenario, whose searches draw from the same texts, runs on it warm as well.
warm_s=n/a
warmed=""
warm_search() {
    [ "$warmed" = "$server_pid" ] && return
    warmed=$server_pid
    local distinct t
    distinct=$(sort -u "$paths/search-zipf" | wc -l)
    say "warming the cache: one read of each of the $distinct distinct search texts"
    t=$(now)
    sort -u "$paths/search-zipf" | sed "s|^|$api|" | timeout 900 xargs -P 8 -n 1 curl -s -o /dev/null || say "warm-up ended early"
    warm_s=$(seconds_since "$t")
    echo "$distinct" >"$res/warm-distinct"
}

declare -A rss_peak=() rss_now=()
short=$((DURATION / 3 > 3 ? DURATION / 3 : 3))
# Every scenario against one server of the given cache mode; results are NAME.MODE.wrk.
run_mode() {
    local m=$1
    say "--- cache $m"
    start_server "$m" "$bench_url" "$res/server.$m.log" || die "the server (cache $m) did not start"
    [ -n "$viewer_token" ] || prepare
    # The HTTP limit: the cheapest route, nothing behind it.
    run_wrk "health.$m" "$paths/health" "" GET ""
    run_wrk "feed.$m" "$paths/feed" "$viewer_token" GET ""
    run_pgbench feed
    # One page first: with the cache on, a reader's first page reads their followees' timelines in one statement
    # (1,000 authors: about 60 ms), which 64 connections of the same reader would otherwise all do at once.
    for token in "$follow_many_token" "$follow_fan_token"; do
        curl -fsS -o /dev/null -H "Authorization: Bearer $token" "$api/v1/feed/following" || true
    done
    run_wrk "following-many.$m" "$paths/following" "$follow_many_token" GET ""
    run_pgbench following-many
    run_pgbench following-many-cards
    run_wrk "following-fan.$m" "$paths/following" "$follow_fan_token" GET ""
    run_pgbench following-fan
    run_pgbench following-fan-cards
    run_wrk "store.$m" "$paths/store" "" GET ""
    run_pgbench store
    # The web client's pages as HTML, beside the JSON routes they draw from (anonymous: a new visitor each request),
    # asked for as Chromium asks (gzip accepted).
    sed 's|^/v1||' "$paths/store" >"$paths/store-html"
    echo / >"$paths/home-html"
    BENCH_BROWSER=1 run_wrk "store-html.$m" "$paths/store-html" "" GET ""
    BENCH_BROWSER=1 run_wrk "home-html.$m" "$paths/home-html" "" GET ""
    # The JSON parts of a new visitor's home page as an anonymous client asks for them (issue #45); their combined
    # rate (`combine`, with the daily promotions' run below) is the page's yardstick.
    run_wrk "feed-anon.$m" "$paths/feed" "" GET ""
    run_wrk "foryou-anon.$m" "$paths/foryou" "" GET ""
    run_wrk "reviews.$m" "$paths/reviews" "" GET ""
    run_pgbench reviews
    run_wrk "daily.$m" "$paths/daily" "" GET ""
    run_pgbench daily
    warm_wrk near "$paths/near"
    run_wrk "near.$m" "$paths/near" "" GET ""
    run_pgbench near
    warm_wrk pick "$paths/pick"
    run_wrk "pick.$m" "$paths/pick" "" GET ""
    run_pgbench pick
    run_wrk "also.$m" "$paths/also" "" GET ""
    run_pgbench also
    run_wrk "foryou.$m" "$paths/foryou" "$viewer_token" GET ""
    run_pgbench foryou
    run_wrk "foryou-near.$m" "$paths/foryou-near" "" GET ""
    for i in "${!search_queries[@]}"; do
        run_wrk "search$i.$m" "$paths/search$i" "" GET ""
        run_wrk "search$i-c1.$m" "$paths/search$i" "" GET "" 1 1 "$short"
    done
    [ "$m" = on ] && { want search-zipf || want search-html; } && warm_search
    run_wrk "search-zipf.$m" "$paths/search-zipf" "" GET ""
    # The search page as HTML over the same texts, after the same warm-up.
    sed 's|^/v1||' "$paths/search-zipf" >"$paths/search-html"
    BENCH_BROWSER=1 run_wrk "search-html.$m" "$paths/search-html" "" GET ""
    run_wrk "image.$m" "$paths/image" "" GET ""
    run_wrk "static.$m" "$paths/static" "" GET ""
    run_wrk "post.$m" "$paths/post" "$writer_token" POST '{"rating":4,"body":"bench review %n: 水煮鱼很嫩，火锅底料香。"}'
    run_pgbench post
    # pgbench's reviews leave the judge's queue: judging them would take PostgreSQL from the scenarios after.
    [ -f "$res/post.pgbench.log" ] && sql "$bench_url" "DELETE FROM trust_queue q USING comments c
        WHERE c.id = q.comment_id AND c.author_id = '$writer_id' AND c.body LIKE 'pgbench review %'" >/dev/null
    run_wrk "click.$m" "$paths/click" "$viewer_token" GET ""
    # Read-your-writes: a quick pass on the otherwise idle server, then the timed run alongside the mixed load.
    say "ryw quick pass (cache $m)"
    run_ryw "ryw-quick.$m" 3
    # The mixed scenario as on a server up a while: its searches warm (issue #44).
    [ "$m" = on ] && { want mixed || want soak; } && warm_search
    # The caches' counters around the mixed run: how often its searches and pages hit (docs/BENCHMARKS.md).
    curl -s "$api/metrics" >"$res/metrics-before-mixed.$m.txt" || true
    run_mixed "$m"
    curl -s "$api/metrics" >"$res/metrics-after-mixed.$m.txt" || true
    run_open "$m"
    run_open_routes "$m"
    run_soak "$m"
    rss_peak[$m]=$(rss VmHWM)
    rss_now[$m]=$(rss VmRSS)
    stop_server
    combine "home-parts.$m" "daily.$m" "feed-anon.$m" "foryou-anon.$m"
    combine "store-html-parts.$m" "store.$m" "reviews.$m" "also.$m"
}
# combine NAME PART...: NAME's rate is 1 / Σ 1/rate of the parts (what a page drawing once on each could reach);
# nothing when a part did not run.
combine() {
    local name=$1 part rate sum=0
    shift
    for part in "$@"; do
        rate=$(get "$part" rps)
        [[ "$rate" =~ ^[0-9.]+$ ]] || return 0
        sum=$(awk -v s="$sum" -v r="$rate" 'BEGIN { printf "%.12f", s + 1 / r }')
    done
    awk -v s="$sum" 'BEGIN { printf "rps=%.1f\n", 1 / s }' >"$res/$name.wrk"
}
for mode in $MODES; do run_mode "$mode"; done

# --- EXPLAIN (ANALYZE, BUFFERS) of the hot queries ---------------------------------------------------------
# Each statement of the pgbench scripts with the variables as literals (store: the most-reviewed store).
explain() {
    local exports=()
    for key in "${!vars[@]}"; do exports+=("BENCH_VAR_$key=${vars[$key]}"); done
    env "${exports[@]}" perl "$here/explain.pl" "$here/$1.sql" >"$res/$1.explain.sql"
    psql "$bench_url" -P pager=off -f "$res/$1.explain.sql" >"$res/$1.explain.txt" 2>&1 || true
}
for name in feed store reviews daily near pick; do explain "$name"; done

# PostGIS or earthdistance (docs/PLACES.md): near.sql's query on earthdistance's cube index, the same rows and
# positions; the extensions and the index exist for this run only.
if want earthdistance; then
    say "earthdistance: near.sql's query on a cube index"
    psql "$bench_url" -c "CREATE EXTENSION IF NOT EXISTS cube" -c "CREATE EXTENSION IF NOT EXISTS earthdistance" \
        -c "CREATE INDEX bench_stores_earth ON stores USING gist
            (ll_to_earth(ST_Y(location::geometry), ST_X(location::geometry))) WHERE archived_at IS NULL" \
        -c "ANALYZE stores" >/dev/null
    run_pgbench earthdistance
    explain earthdistance
    psql "$bench_url" -c "DROP EXTENSION earthdistance CASCADE" -c "DROP EXTENSION cube CASCADE" >/dev/null
fi

# Search builds its SQL from the query (SearchPlan), so its plans are taken from the running server instead:
# auto_explain on the benchmark database only, one request per query class, plans read from the private
# cluster's log. Best effort: skipped when the log is not ours to read (DATABASE_URL given). The server's cache is
# off, so the measured request reaches PostgreSQL after the warm-up one.
search_plans() {
    local log
    log="$(cat .postgres/root 2>/dev/null)/server.log"
    [ -z "${DATABASE_URL:-}" ] && [ -r "$log" ] || { echo "(not captured: the cluster's log is not readable here)"; return; }
    psql "$base/postgres" -c "ALTER DATABASE $BENCH_DB SET session_preload_libraries = 'auto_explain'" \
        -c "ALTER DATABASE $BENCH_DB SET auto_explain.log_min_duration = 0" \
        -c "ALTER DATABASE $BENCH_DB SET auto_explain.log_analyze = on" \
        -c "ALTER DATABASE $BENCH_DB SET auto_explain.log_buffers = on" \
        -c "ALTER DATABASE $BENCH_DB SET auto_explain.log_nested_statements = on" >/dev/null
    start_server off "$bench_url" "$res/server.plans.log" || echo "(not captured: the server did not start)"
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
    # The cache off by default (BENCH_LIVE_CACHE): this measures readers against the import in the database, and a
    # cache of the 36 demo stores would answer nearly every read without asking PostgreSQL.
    start_server "$LIVE_CACHE" "$live_url" "$res/live-server.log" || { say "the live server did not start"; return 1; }
    BENCH_DELAY_MS=$LIVE_DELAY_MS run_wrk live-idle "$paths/live-store" "" GET "" "$LIVE_CONNECTIONS"

    say "live import: seeding $data into $LIVE_DB while wrk reads store pages"
    local limit=3600 import_pid wrk_pid status=0 t
    t=$(now)
    DATABASE_URL=$live_url TRUST=off timeout "$limit" "$BIN" seed "$data" >"$res/live-import.log" 2>&1 &
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
    live_rss=$(rss VmHWM)
    stop_server
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

# --- Coupon rush (issue #47): its own database, two servers and nginx; its table lands in .bench/coupon-rush.md
if want coupon-rush; then
    say "coupon rush"
    RUSH_BIN=$BIN scripts/coupon-rush.sh >"$res/coupon-rush.md" 2>"$res/coupon-rush.log" || say "the coupon rush failed"
fi

# --- Report ------------------------------------------------------------------------------------------------
say "writing $DOC"
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a !~ /^[0-9.]+$/ || b !~ /^[0-9.]+$/ || b == 0) print "n/a"; else printf "%.2f", a / b }'; }
verdict() { awk -v v="$1" -v t="$2" -v dir="$3" 'BEGIN { if (v == "n/a" || v == "") print "?"; else if ((dir == ">=" && v + 0 >= t) || (dir == "<=" && v + 0 <= t)) print "met"; else print "**missed**" }'; }
import_ratio=$(ratio "$copy_s" "$import_s")
# Targets, each "<mode> <what>: <verdict>" for the Target column. NAME is the scenario without its mode.
t_pg() { echo "$1 ≥ $3× pgbench: $(verdict "$(ratio "$(get "$2.$1" rps)" "$(tps "$2")")" "$3" ">=")"; }
t_health() { echo "$1 ≥ $3× /health: $(verdict "$(ratio "$(get "$2.$1" rps)" "$(get "health.$1" rps)")" "$3" ">=")"; }
t_p95() { echo "$1 p95 ≤ $3 ms: $(verdict "$(get "$2.$1" p95)" "$3" "<=")"; }
# Stale reads of a read-your-writes run: any is missed; a run that did not report, or had errors, is unknown.
t_stale() {
    local stale errors
    stale=$(ryw "$2.$1" stale) errors=$(ryw "$2.$1" errors)
    if [ -z "$stale" ]; then echo "$1 0 stale reads: ?"
    elif [ "$stale" != 0 ]; then echo "$1 0 stale reads: **missed** ($stale)"
    elif [ "$errors" != 0 ]; then echo "$1 0 stale reads: ? ($errors errors)"
    else echo "$1 0 stale reads: met"; fi
}
{
    echo "| Scenario | Cache on: requests/s | p50 ms | p95 ms | p99 ms | Non-2xx | Cache off: requests/s | p50 ms | p95 ms | p99 ms | Non-2xx | pgbench tps | On ÷ pgbench | Off ÷ pgbench | On ÷ /health | Off ÷ /health | Target |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
    # row NAME LABEL [PGBENCH-SCRIPT] [TARGET] [HEALTH-RATIO: yes|no]
    row() {
        local name=$1 label=$2 pg=${3:-} target=${4:-} vs_health=${5:-yes} line m tps_value=""
        [ -n "$pg" ] && tps_value=$(tps "$pg")
        line="| $label"
        for m in on off; do
            line+=" | $(get "$name.$m" rps) | $(get "$name.$m" p50) | $(get "$name.$m" p95) | $(get "$name.$m" p99) | $(get "$name.$m" non2xx)"
        done
        line+=" | ${tps_value:-–}"
        for m in on off; do
            if [ -n "$pg" ]; then line+=" | $(ratio "$(get "$name.$m" rps)" "$tps_value")"; else line+=" | –"; fi
        done
        for m in on off; do
            if [ "$vs_health" = yes ]; then line+=" | $(ratio "$(get "$name.$m" rps)" "$(get "health.$m" rps)")"; else line+=" | –"; fi
        done
        echo "$line | $target |"
    }
    # quotient LABEL A B: A's rate ÷ B's rate in each mode, in the requests/s columns.
    # With MIN, the Target column says whether both modes reach it (with a fifth argument "on", only the cache's).
    quotient() {
        local on off target=""
        on=$(ratio "$(get "$2.on" rps)" "$(get "$3.on" rps)") off=$(ratio "$(get "$2.off" rps)" "$(get "$3.off" rps)")
        [ -n "${4:-}" ] && target="on ≥ $4×: $(verdict "$on" "$4" ">=")"
        [ -n "${4:-}" ] && [ "${5:-}" != on ] && target+="; off ≥ $4×: $(verdict "$off" "$4" ">=")"
        echo "| $1 | **$on** | | | | | **$off** | | | | | | | | | | $target |"
    }
    cached() { echo "$(t_pg on "$1" 1.0); $(t_health on "$1" 0.6); $(t_pg off "$1" 0.5)"; }
    row health "\`GET /health\` (the HTTP limit)" "" ""
    row feed "Featured feed (signed in, 10 categories)" feed "$(t_p95 on feed 20); $(t_pg off feed 0.8)"
    row following-many "Following feed, following 1,000 authors (\`/v1/feed/following\`, signed in)" following-many "$(t_p95 on following-many 20); $(t_pg off following-many 0.8)"
    row following-fan "Following feed, a follower of an author followed by 100,000" following-fan "$(t_p95 on following-fan 20); $(t_pg off following-fan 0.8)"
    row following-many "Following 1,000: ratios against the cached path's SQL (the page's cards by id)" following-many-cards "" no
    row following-fan "Follower of the 100,000-follower author: ratios against the cached path's SQL" following-fan-cards "" no
    row store "Store page (Zipf)" store "$(cached store)"
    row reviews "Store reviews page (\`/v1/stores/{id}/comments\`, Zipf)" reviews "$(cached reviews)"
    row daily "Daily promotions" daily "$(cached daily)"
    row near "Near me (3 km, open now, nearest first; random positions in 12 cities)" near "$(t_p95 on near 20); $(t_pg on near 0.5); $(t_pg off near 0.8)"
    row pick "今天吃点啥 (\`GET /v1/pick?near=\`, the same positions)" pick "$(t_p95 on pick 20); $(t_pg on pick 0.5); $(t_pg off pick 0.8)"
    row also "Also viewed (\`/v1/stores/{id}/also-viewed\`, Zipf)" also "$(t_p95 on also 20); $(t_pg off also 0.8)"
    row foryou "猜你喜欢 (\`/v1/feed/stores\`, signed in: 20 recent stores, 10 categories)" foryou "$(t_p95 on foryou 20); $(t_pg off foryou 0.8)"
    row foryou-near "猜你喜欢 near (\`?near=\`, the near-me positions, anonymous)" "" "$(t_p95 on foryou-near 20)"
    row store-html "Store page as HTML (\`/stores/{id}\`: the store and its first 20 reviews, Zipf)" "" "$(t_p95 on store-html 20); $(t_p95 off store-html 20)"
    quotient "Store page HTML ÷ JSON store page" store-html store 0.5
    quotient "Store page HTML ÷ JSON store reviews page" store-html reviews 0.5
    quotient "Store page HTML ÷ JSON also-viewed (the slowest route it draws from)" store-html also 0.5
    quotient "Store page HTML ÷ its JSON parts combined (1 / Σ 1/rate: store, reviews, also viewed; issue #45)" store-html store-html-parts 0.5
    row home-html "Home page as HTML (\`/\`: daily promotions, 猜你喜欢 and the featured feed, a new visitor)" "" "$(t_p95 on home-html 20); $(t_p95 off home-html 20)"
    quotient "Home page HTML ÷ JSON daily promotions" home-html daily 0.5
    row feed-anon "Featured feed, anonymous (the home page's feed as a JSON client asks for it)" "" ""
    row foryou-anon "猜你喜欢, anonymous (\`/v1/feed/stores\`)" "" ""
    quotient "Home page HTML ÷ its JSON parts combined (1 / Σ 1/rate: daily, featured and 猜你喜欢, anonymous)" home-html home-parts 0.5
    for i in "${!search_queries[@]}"; do
        label=${search_queries[$i]%%:*}; q=${search_queries[$i]#*:}
        row "search$i" "Search $label \`$q\` (c$CONNECTIONS)" "" "$(t_p95 on "search$i" 20); $(t_p95 off "search$i" 20)"
        row "search$i-c1" "Search $label \`$q\` (1 connection)" "" "$(t_p95 on "search$i-c1" 20); $(t_p95 off "search$i-c1" 20)" no
    done
    row search-zipf "Search, Zipf mix of $(wc -l <"$paths/search-texts") texts (c$CONNECTIONS; cache on: after one read of each of the run's $(cat "$res/warm-distinct" 2>/dev/null || echo '?') distinct texts, $warm_s s)" "" "$(t_p95 on search-zipf 20)"
    row search-html "Search page as HTML (\`/search?q=\`, the same Zipf texts after the same warm-up)" "" "$(t_p95 on search-html 20); $(t_p95 off search-html 20)"
    quotient "Search page HTML ÷ JSON search" search-html search-zipf 0.5
    row image "A 200 kB image from PostgreSQL (\`/v1/images/{id}\`)"
    row static "The same 200 kB as a plain file (\`/static/\`, the same server)"
    quotient "Image ÷ plain file" image static 0.9 on
    row post "Post a review (every store in turn)" post "$(t_health on post 0.02); on ≥ 600/s: $(verdict "$(get post.on rps)" 600 ">="); $(t_pg on post 0.8)"
    row click "Open a review (click recorded)" "" "$(t_health on click 0.05); on ≥ 1,500/s: $(verdict "$(get click.on rps)" 1500 ">=")"
    row mixed "Mixed traffic (5 % writes, ~30 % of reads signed in; cache on: searches warm)" "" "$(t_p95 on mixed 50); on 0 non-2xx: $(verdict "$(get mixed.on non2xx)" 0 "<="); $(t_stale on mixed); $(t_stale off mixed)"
    echo
    echo "| Read-your-writes (\`scripts/bench/ryw.py\`, its own user) | Cache on | Cache off |"
    echo "|---|---|---|"
    for name in ryw-quick mixed; do
        label="Quick pass, the server otherwise idle (3 s)"
        [ "$name" = mixed ] && label="During the mixed scenario (${DURATION} s)"
        line="| $label"
        for m in on off; do
            if [ -f "$res/$name.$m.ryw" ]; then
                line+=" | $(ryw "$name.$m" checks) checks, **$(ryw "$name.$m" stale) stale** ($(ryw "$name.$m" cycles) cycles, $(ryw "$name.$m" skipped) skipped, $(ryw "$name.$m" errors) errors): $(t_stale "$m" "$name" | sed 's/.*: //')"
            else
                line+=" | not run"
            fi
        done
        echo "$line |"
    done
} >"$res/RESULTS.md"
{
    echo "| Open loop (\`scripts/bench/openloop.c\`, timed from when each request was due) | Cache | Offered requests/s | Achieved requests/s | p50 ms | p95 ms | p99 ms | Max ms | Non-2xx | Errors | Unanswered | Generator CPU % | Target |"
    echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
    for m in $MODES; do
        for spec in "open50:50 % of the mixed scenario's rate:25" "open80:80 % of the mixed scenario's rate:50" "open100:100 % of the mixed scenario's rate:" "open-health:\`GET /health\` at the highest rate above (the generator's own cost):"; do
            IFS=: read -r name label limit <<<"$spec"
            target=""
            [ -n "$limit" ] && target="p99 ≤ $limit ms: $(verdict "$(oget "$name.$m" p99)" "$limit" "<=")"
            [ "$name" = open100 ] && target="0 non-2xx: $(verdict "$(oget "$name.$m" non2xx)" 0 "<=")"
            echo "| $label | $m | $(oget "$name.$m" offered) | $(oget "$name.$m" achieved) | $(oget "$name.$m" p50) | $(oget "$name.$m" p95) | $(oget "$name.$m" p99) | $(oget "$name.$m" max) | $(oget "$name.$m" non2xx) | $(oget "$name.$m" errors) | $(oget "$name.$m" unanswered) | $(oget "$name.$m" cpu_pct) | $target |"
        done
        # Issue #45's routes, each at half its own closed-loop rate.
        for route in $OPEN_ROUTES; do
            [ -s "$res/$route-open50.$m.open" ] || continue
            name=$route-open50
            target="p99 ≤ 25 ms: $(verdict "$(oget "$name.$m" p99)" 25 "<=")"
            cold=$(oget "$name-cold.$m" p99)
            [ -n "$cold" ] && target="$target (its 5 s warm-up, met cold: p99 $cold ms)"
            echo "| \`$route\` at 50 % of its closed-loop rate | $m | $(oget "$name.$m" offered) | $(oget "$name.$m" achieved) | $(oget "$name.$m" p50) | $(oget "$name.$m" p95) | $(oget "$name.$m" p99) | $(oget "$name.$m" max) | $(oget "$name.$m" non2xx) | $(oget "$name.$m" errors) | $(oget "$name.$m" unanswered) | $(oget "$name.$m" cpu_pct) | $target |"
        done
    done
    # Where the tail comes from: the 80 % run per route (openloop's stderr), in the first cache mode.
    m=${MODES%% *}
    if [ -s "$res/open80.$m.log" ]; then
        echo
        echo "Per route, 80 % of the mixed rate, cache $m (ids as \`{id}\`):"
        echo
        echo "| Route | Requests | p50 ms | p99 ms | Max ms | Non-2xx |"
        echo "|---|---:|---:|---:|---:|---:|"
        awk -F'\t' 'NR > 1 && NF == 6 { printf "| `%s` | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6 }' "$res/open80.$m.log"
    fi
    # When the tail came: each second of the 80 % run's schedule, its worst time and the requests over 50 ms.
    if [ -s "$res/open80.$m.timeline" ]; then
        echo
        echo "Second by second, 80 % of the mixed rate, cache $m (\`second:worst ms:requests over 50 ms\`):"
        echo
        awk -F'\t' 'NR > 1 && $2 > 0 { printf "%s%s:%s:%s", sep, $1, $3, $4; sep = ", " } END { print "." }' \
            "$res/open80.$m.timeline"
    fi
} >"$res/OPEN.md"
# The soak (make soak): summarised when it ran, else carried over from the document as it stands.
if [ -s "$res/soak.on.tsv" ]; then
    {
        echo '<!-- soak:begin -->'
        awk -F'\t' -v rps="$(get soak.on rps)" -v p95="$(get soak.on p95)" -v p99="$(get soak.on p99)" \
            -v non2xx="$(get soak.on non2xx)" -v sock="$(get soak.on socket_errors)" -v seconds="${BENCH_SOAK_SECONDS:-0}" '
            NR == 1 { next }
            { last = $2; if ($2 > peak) peak = $2; if ($3 > queued) queued = $3; if ($4 > oldest) oldest = $4 }
            $1 >= 300 && base == "" { base = $2 }
            END {
                drift = base > 0 ? (last - base) * 100 / base : 0
                printf "Mixed traffic for %d s at 64 connections, cache on, every signal batched (`make soak`): %s requests/s, p95 %s ms, p99 %s ms, **%s non-2xx, %s socket errors**.\n\n", seconds, rps, p95, p99, non2xx, sock
                printf "| RSS after 5 min | RSS at the end | Peak RSS | Drift | Signals queued at most | Oldest queued event at most | Target |\n|---:|---:|---:|---:|---:|---:|---|\n"
                ok = (drift <= 10 && drift >= -10 && non2xx == 0 && sock == 0) ? "met" : "**missed**"
                printf "| %s MB | %s MB | %s MB | %+.1f %% | %d | %d s | RSS within 10 %% of its 5-minute value, 0 errors: %s |\n", base, last, peak, drift, queued, oldest, ok
            }' "$res/soak.on.tsv"
        echo
        echo "Samples every 30 s (\`second rss_mb queued oldest_s\`): $(awk -F'\t' 'NR > 1 { printf "%s%s/%s/%s/%s", sep, $1, $2, $3, $4; sep = ", " }' "$res/soak.on.tsv")."
        echo '<!-- soak:end -->'
    } >"$res/SOAK.md"
elif grep -q '<!-- soak:begin -->' "$DOC" 2>/dev/null; then
    sed -n '/<!-- soak:begin -->/,/<!-- soak:end -->/p' "$DOC" >"$res/SOAK.md"
else
    printf '%s\n' '<!-- soak:begin -->' 'Not measured yet: `make soak`.' '<!-- soak:end -->' >"$res/SOAK.md"
fi
# `make soak` alone rewrites only its own section of the document.
if [ "$SCENARIOS" = soak ] && grep -q '<!-- soak:begin -->' "$DOC" 2>/dev/null; then
    SOAK=$res/SOAK.md perl -0pi -e 'local $/; open my $f, "<", $ENV{SOAK} or die; my $s = <$f>; chomp $s;
        s/<!-- soak:begin -->.*?<!-- soak:end -->/$s/s' "$DOC"
    say "soak section of $DOC rewritten"
    exit 0
fi
{
    echo "Stores: $(cat "$res/zipf-stores.txt"). Every store page and store reviews page scenario, the mixed scenario"
    echo "and the read-your-writes client draw from this ranking; posting walks every store in turn, as before."
    echo
    echo "Search texts (\`search-zipf\`, and the mixed scenario's searches), in the order the classes were filled:"
    echo
    cat "$res/search-mix.md"
    echo
    echo "The mixed scenario's $(wc -l <"$paths/mixed") lines (\`.bench/paths/mixed\`), signed in as one of $MIX_USERS users"
    echo "(\`benchmix1\`…) drawn uniformly:"
    echo
    cat "$res/mixed-mix.md"
} >"$res/WORKLOAD.md"
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
    echo "left $live_comments comments there; the live server (cache $LIVE_CACHE) had a peak RSS of $live_rss MB."
} >"$res/LIVE.md"
{
    echo "| | Seconds | Rows | COPY / import |"
    echo "|---|---:|---:|---|"
    echo "| \`chidian seed\` (JSON → database, one transaction) | $import_s | $STORES stores, $USERS users, $COMMENTS comments | |"
    echo "| Raw \`COPY\` of the imported rows into an empty migrated database | $copy_s | $copy_rows | **$import_ratio** (target ≥ 0.5: $(verdict "$import_ratio" 0.5 ">=")) |"
    echo
    if [ "$generate_s" = reused ]; then echo "The data set was reused from an earlier run (\`$data\`)."
    elif [ "$generate_s" = "not needed" ]; then echo "The data set was not needed (the database reused, no live import)."
    else echo "Generating the data set took ${generate_s} s."; fi
} >"$res/IMPORT.md"
{
    echo "- Machine: $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)), $(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo) memory, Linux $(uname -r)"
    echo "- Date: $(date -u '+%Y-%m-%d %H:%M UTC'); the whole run took $(( $(date +%s) - started )) s"
    echo "- Command: \`make bench\` with BENCH_STORES=$STORES BENCH_USERS=$USERS BENCH_COMMENTS=$COMMENTS BENCH_DURATION=$DURATION BENCH_CONNECTIONS=$CONNECTIONS"
    echo "- wrk: \`wrk -t$THREADS -c$CONNECTIONS -d${DURATION}s --latency -s scripts/bench/wrk.lua\` (the mixed scenario: \`-s scripts/bench/mixed.lua\`); open loop: \`openloop -r <50 % or 80 % of the mixed rate> -d $DURATION -c $CONNECTIONS -f .bench/paths/mixed\`; pgbench: \`pgbench -n -M prepared -c $CONNECTIONS -j $THREADS -T $DURATION -f scripts/bench/<scenario>.sql\`"
    echo "- Server: release build, default pool (DB_POOL_SIZE 16), LOG_LEVEL=$LOG_LEVEL, RATE_LIMITS=off; cache modes, in order: $MODES (on: \`CACHE\` unset, the default; off: \`CACHE=off\`); PostgreSQL $(sql "$bench_url" "SHOW server_version"), $(sql "$bench_url" "SHOW shared_buffers") shared_buffers, fsync off (the private cluster)"
    for m in $MODES; do
        echo "- Server memory, cache $m: peak RSS (VmHWM) **${rss_peak[$m]:-?} MB** after every scenario, ${rss_now[$m]:-?} MB at the end (target ≤ 150 MB: $(verdict "${rss_peak[$m]:-}" 150 "<="))"
    done
    echo "- Search endpoint answered HTTP ${search_status:-?} before the runs"
} >"$res/MACHINE.md"
{
    for name in feed store reviews daily near pick; do
        echo "#### $name (\`scripts/bench/$name.sql\`)"
        echo
        echo '```'
        cat "$res/$name.explain.txt"
        echo '```'
        echo
    done
} >"$res/EXPLAIN.md"
# The insights' targets (scripts/bench-insights.sh), on the same database and binary once the modes are done; a
# focused run that leaves them out carries the last table over from the document.
if want insights && [ -z "${BENCH_SKIP_INSIGHTS:-}" ]; then
    BENCH_INSIGHTS_OUT="$res/INSIGHTS.md" BENCH_BIN="$BIN" BENCH_DB="$BENCH_DB" BENCH_DURATION="$DURATION" \
        DATABASE_URL="$bench_url" scripts/bench-insights.sh >"$res/insights.log" 2>&1 \
        || { say "bench-insights failed (its log: $res/insights.log)"; rm -f "$res/INSIGHTS.md"; }
fi
if [ ! -s "$res/INSIGHTS.md" ]; then
    if grep -q '<!-- insights:begin -->' "$DOC" 2>/dev/null; then
        sed -n '/<!-- insights:begin -->/,/<!-- insights:end -->/p' "$DOC" >"$res/INSIGHTS.md"
    else
        printf '%s\n' '<!-- insights:begin -->' 'Not measured yet: `make bench-insights`.' '<!-- insights:end -->' \
            >"$res/INSIGHTS.md"
    fi
fi
# The growth table (scripts/bench-growth.sh) is measured apart: carried over from the document as it stands.
if grep -q '<!-- growth:begin -->' "$DOC" 2>/dev/null; then
    sed -n '/<!-- growth:begin -->/,/<!-- growth:end -->/p' "$DOC" >"$res/GROWTH.md"
elif [ -f "$out/GROWTH.md" ]; then
    cp "$out/GROWTH.md" "$res/GROWTH.md"
else
    printf '%s\n' '<!-- growth:begin -->' 'Not measured yet: `make bench-growth`.' '<!-- growth:end -->' >"$res/GROWTH.md"
fi
# So is the places table (scripts/bench-places.sh).
if grep -q '<!-- places:begin -->' "$DOC" 2>/dev/null; then
    sed -n '/<!-- places:begin -->/,/<!-- places:end -->/p' "$DOC" >"$res/PLACES.md"
else
    printf '%s\n' '<!-- places:begin -->' 'Not measured yet: `make bench-places`.' '<!-- places:end -->' >"$res/PLACES.md"
fi
RES=$res perl -pe 'if (/^@@(\w+)@@$/) { local $/; open my $f, "<", "$ENV{RES}/$1.md" or die "$1: $!"; $_ = <$f> }' \
    "$here/BENCHMARKS.md.in" >"$DOC.tmp"
mv "$DOC.tmp" "$DOC"
say "done in $(( $(date +%s) - started )) s: $DOC"

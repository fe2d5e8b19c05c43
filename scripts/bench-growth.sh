#!/usr/bin/env bash
# How cost grows with data (`make bench-growth`): the same scenarios against data sets of 0.1M, 1M and 5M reviews
# over 20,000 stores, and the 200,000-store set of the places benchmark, each in its own benchmark database
# (imported once, then reused), with the cache on. Each size is one scripts/bench.sh run; the rates and p95 of
# every size land side by side in docs/BENCHMARKS.md between the "growth" markers (the rest of the file is left
# alone), so "flat as data grows" is a measurement.
#
# Knobs: BENCH_GROWTH_SETS ("stores:reviews:database" triples; default below), BENCH_GROWTH_SCENARIOS,
# BENCH_GROWTH_KEEP (databases whose results are already there), and
# scripts/bench.sh's own (BENCH_DURATION, BENCH_CONNECTIONS, BENCH_BIN, …). DATABASE_URL as for `make bench`.
set -euo pipefail

project=$(cd "$(dirname "$0")/.." && pwd)
cd "$project"
say() { echo "bench-growth: $*" >&2; }

SETS=${BENCH_GROWTH_SETS:-"20000:100000:chidian_bench_100k 20000:1000000:chidian_bench 20000:5000000:chidian_bench_5m 200000:1000000:chidian_bench200k"}
# Search and the mixed scenario are left out by default: with the cache on they first read each of 10,000 texts
# (2–4 minutes a set), and the full `make bench` measures them.
SCENARIOS=${BENCH_GROWTH_SCENARIOS:-"health store reviews daily feed near pick post click"}
DOC=docs/BENCHMARKS.md
base=${DATABASE_URL:-$(scripts/db.sh url)}
base=${base%/*}

for set in $SETS; do
    IFS=: read -r stores reviews db <<<"$set"
    # BENCH_GROWTH_KEEP: data sets whose results are already in .bench/growth-<database>/results (a full
    # `make bench` of the same binary, linked there), not run again.
    if [[ " ${BENCH_GROWTH_KEEP:-} " == *" $db "* ]]; then
        say "$db: keeping the results in .bench/growth-$db/results"
        continue
    fi
    exists=$(psql "$base/postgres" -Atc "SELECT count(*) FROM pg_database WHERE datname = '$db'")
    say "$stores stores, $reviews reviews in $db ($([ "$exists" = 1 ] && echo reused || echo imported))"
    skip=$([ "$exists" = 1 ] && echo 1 || echo "")
    BENCH_DB=$db BENCH_STORES=$stores BENCH_COMMENTS=$reviews BENCH_SKIP_IMPORT=$skip BENCH_SKIP_LIVE=1 \
        BENCH_CACHE_MODES=on BENCH_SCENARIOS="$SCENARIOS" BENCH_OUT_DIR=".bench/growth-$db" \
        BENCH_DOC=".bench/growth-$db.md" scripts/bench.sh
done

# One row per scenario, one column pair (requests/s with its share of the same run's /health rate, p95 ms) per
# data set: the runs are minutes apart on a shared machine, and the share is what the data changed.
get() { sed -n "s/^$3=//p" ".bench/growth-$1/results/$2.on.wrk" 2>/dev/null || true; }
labels=(
    "health:GET /health" "store:Store page (Zipf)" "reviews:Store reviews page (Zipf)" "daily:Daily promotions"
    "feed:Featured feed (signed in)" "near:Near me (3 km, open now)" "pick:今天吃点啥 near"
    "search-zipf:Search, Zipf mix of texts" "post:Post a review" "click:Open a review (click)"
    "mixed:Mixed traffic (5 % writes)"
)
table=$(
    header="| Scenario (cache on, ${BENCH_CONNECTIONS:-64} connections)"
    rule="|---"
    for set in $SETS; do
        IFS=: read -r stores reviews db <<<"$set"
        header+=" | $(awk -v s="$stores" -v r="$reviews" 'BEGIN { printf "%gk stores, %gM reviews: req/s | p95 ms", s / 1000, r / 1e6 }')"
        rule+="|---:|---:"
    done
    echo "$header |"
    echo "$rule|"
    for entry in "${labels[@]}"; do
        name=${entry%%:*}
        [[ " $SCENARIOS " == *" $name "* ]] || continue
        line="| ${entry#*:}"
        for set in $SETS; do
            IFS=: read -r _ _ db <<<"$set"
            rps=$(get "$db" "$name" rps) health=$(get "$db" health rps)
            share=$(awk -v a="$rps" -v b="$health" 'BEGIN { if (a ~ /^[0-9.]+$/ && b + 0 > 0) printf " (%.2f)", a / b }')
            line+=" | $rps$share | $(get "$db" "$name" p95)"
        done
        echo "$line |"
    done
)
stamp="Measured $(date -u '+%Y-%m-%d %H:%M UTC') at $(git rev-parse --short HEAD) by \`make bench-growth\`."
# Kept in .bench/GROWTH.md too: `make bench` takes the block from there when the document has none yet.
printf '%s\n' '<!-- growth:begin -->' "$stamp" '' "$table" '<!-- growth:end -->' >.bench/GROWTH.md
if scripts/bench/doc-block.sh growth .bench/GROWTH.md "$DOC"; then
    say "wrote the growth table into $DOC"
else
    say "wrote the growth table into .bench/GROWTH.md (the next make bench puts it into $DOC)"
fi

#!/usr/bin/env bash
# Near me and the pick, dense and closed (`make bench-places`, issue #45): the 20,000-store and the 200,000-store data
# sets (1M reviews each, each in its own benchmark database, imported once and reused), each with the server's clock
# set to noon and to 04:00 in Shanghai (BENCH_CLOCK, CLOCK_START), when most of the generated stores are open and
# when almost none is. Each is one scripts/bench.sh run with the cache on, near me and the pick each measured after
# 15 s of the same requests unmeasured (BENCH_WARM); the table lands in docs/BENCHMARKS.md
# between the "places" markers (the rest of the file is left alone).
#
# Knobs: BENCH_PLACES_SETS ("stores:database" pairs), BENCH_PLACES_DATE (the day in Shanghai, YYYY-MM-DD; today's by
# default), BENCH_PLACES_KEEP ("database:HH" runs whose results in .bench/ are kept, not run again), and
# scripts/bench.sh's own (BENCH_DURATION, BENCH_CONNECTIONS, BENCH_BIN, …).
set -euo pipefail

project=$(cd "$(dirname "$0")/.." && pwd)
cd "$project"
say() { echo "bench-places: $*" >&2; }

SETS=${BENCH_PLACES_SETS:-"20000:chidian_bench 200000:chidian_bench200k"}
DAY=${BENCH_PLACES_DATE:-$(TZ=Asia/Shanghai date +%F)}
HOURS="12:00 04:00"
SCENARIOS="health store near pick"
DOC=docs/BENCHMARKS.md
base=${DATABASE_URL:-$(scripts/db.sh url)}
base=${base%/*}
dir() { echo ".bench/places-$1-${2%%:*}"; }

for set in $SETS; do
    IFS=: read -r stores db <<<"$set"
    for hour in $HOURS; do
        if [[ " ${BENCH_PLACES_KEEP:-} " == *" $db:${hour%%:*} "* ]]; then
            say "$db at $hour: keeping the results in $(dir "$db" "$hour")"
            continue
        fi
        exists=$(psql "$base/postgres" -Atc "SELECT count(*) FROM pg_database WHERE datname = '$db'")
        say "$stores stores in $db ($([ "$exists" = 1 ] && echo reused || echo imported)), $DAY $hour in Shanghai"
        skip=$([ "$exists" = 1 ] && echo 1 || echo "")
        BENCH_DB=$db BENCH_STORES=$stores BENCH_COMMENTS=1000000 BENCH_SKIP_IMPORT=$skip BENCH_SKIP_LIVE=1 \
            BENCH_CACHE_MODES=on BENCH_SCENARIOS="$SCENARIOS" BENCH_CLOCK="${DAY}T$hour:00+08:00" BENCH_WARM=${BENCH_WARM:-15} \
            BENCH_OUT_DIR="$(dir "$db" "$hour")" BENCH_DOC="$(dir "$db" "$hour").md" scripts/bench.sh
    done
done

get() { sed -n "s/^$3=//p" "$1/results/$2.on.wrk" 2>/dev/null || true; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a ~ /^[0-9.]+$/ && b + 0 > 0) printf "%.2f", a / b; else print "n/a" }'; }
peak() { grep -oP 'cache on: peak RSS \(VmHWM\) \*\*\K[0-9]+' "$1.md" 2>/dev/null || echo "?"; }
read -r -a sets <<<"$SETS"
first_db=${sets[0]#*:}
table=$(
    echo "| Stores | Shanghai time | Route | req/s | p95 ms | ÷ store page | ÷ the same at ${sets[0]%%:*} stores | peak RSS |"
    echo "|---:|---|---|---:|---:|---:|---:|---:|"
    for set in $SETS; do
        IFS=: read -r stores db <<<"$set"
        for hour in $HOURS; do
            d=$(dir "$db" "$hour") d0=$(dir "$first_db" "$hour")
            for route in near pick; do
                rps=$(get "$d" "$route" rps)
                echo "| $stores | $hour | $route | $rps | $(get "$d" "$route" p95) | $(ratio "$rps" "$(get "$d" store rps)") |" \
                    "$(ratio "$rps" "$(get "$d0" "$route" rps)") | $(peak "$d") MB |"
            done
        done
    done
)
stamp="Measured $(date -u '+%Y-%m-%d %H:%M UTC') at $(git rev-parse --short HEAD) by \`make bench-places\` (server clock at $DAY in Shanghai)."
printf '%s\n' '<!-- places:begin -->' "$stamp" '' "$table" '<!-- places:end -->' >.bench/PLACES.md
if scripts/bench/doc-block.sh places .bench/PLACES.md "$DOC"; then
    say "wrote the places table into $DOC"
else
    cat .bench/PLACES.md
    say "wrote the places table into .bench/PLACES.md (add the markers to $DOC to have it there)"
fi

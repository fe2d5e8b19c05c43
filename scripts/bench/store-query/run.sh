#!/usr/bin/env bash
# Each list, pick and search statement of issue #43 as it was (NAME.old.sql: every filter written, NULLs folded
# by the planner) and as StoreFilter builds it (NAME.new.sql: only the filters given), both with the values
# inlined, run by pgbench for 5 s in the order old, new, old. The values fit the data of
#   chidian generate DIR --stores 20000 --users 20000 --comments 200000 --seed 1
# seeded into DATABASE_URL and VACUUM ANALYZEd. Prints one line per statement: rows, transactions/s, new ÷ old.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
url=${DATABASE_URL:?set DATABASE_URL to the seeded database}
tps() { pgbench -n -T 5 -f "$1" "$url" 2>/dev/null | grep -oP "tps = \K[0-9.]+"; }
for old in "$here"/*.old.sql; do
    name=$(basename "$old" .old.sql); new="$here/$name.new.sql"
    cmp -s <(psql -qAtX "$url" -f "$old" | cut -d'|' -f1 | sort) <(psql -qAtX "$url" -f "$new" | cut -d'|' -f1 | sort) \
        || { echo "$name: old and new answer different stores"; exit 1; }
    a=$(tps "$old"); b=$(tps "$new"); c=$(tps "$old")
    awk -v n="$name" -v r="$(psql -qAtX "$url" -f "$new" | wc -l)" -v a="$a" -v b="$b" -v c="$c" \
        'BEGIN { printf "%-18s rows %3d  old %8.1f/s  new %8.1f/s  old again %8.1f/s  new ÷ old %.2f\n", n, r, a, b, c, b / ((a + c) / 2) }'
done

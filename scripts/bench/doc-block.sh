#!/usr/bin/env bash
# doc-block.sh NAME FILE DOC: puts FILE (a block from "<!-- NAME:begin -->" to "<!-- NAME:end -->") into DOC in
# place of the block of that name there, leaving the rest of DOC alone; exits 1 when DOC has no such block.
# scripts/bench-growth.sh and scripts/bench-places.sh write their tables this way.
set -euo pipefail
name=$1 file=$2 doc=$3
grep -q "<!-- $name:begin -->" "$doc" || exit 1
awk -v block="$(cat "$file")" -v begin="<!-- $name:begin -->" -v end="<!-- $name:end -->" '
    $0 == begin { print block; skip = 1; next }
    $0 == end { skip = 0; next }
    !skip { print }
' "$doc" >"$doc.tmp" && mv "$doc.tmp" "$doc"

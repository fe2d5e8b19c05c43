#!/usr/bin/env bash
# Throughput of the scaled-out topology on this machine (docs/SCALING.md): wrk's read mix (store pages, their
# reviews, the store list, daily promotions over the demo stores) at 64 connections for 15 s against
#   1. one server directly, reads on the replica;   2. both servers through nginx, reads on the replica;
#   3. both servers through nginx, every read on the primary (the servers restarted without DATABASE_READ_URLS).
# Uses the `make cluster` topology (started if needed) and leaves it running with replica reads on.
set -euo pipefail

project=$(cd "$(dirname "$0")/.." && pwd)
cd "$project"
seconds=${CLUSTER_BENCH_SECONDS:-15}
scripts/cluster.sh status >/dev/null 2>&1 || scripts/cluster.sh start
eval "$(scripts/cluster.sh env | sed 's/^/export /')"
stores=$(curl -fsS "$FRONT/v1/stores?limit=36" | /usr/bin/python3 -c 'import json,sys; print(" ".join(s["id"] for s in json.load(sys.stdin)["items"]))')
paths=(/v1/stores?limit=20 /v1/promotions/daily)
for s in $stores; do paths+=("/v1/stores/$s" "/v1/stores/$s/comments?limit=10"); done

run() {
    local name=$1 url=$2 out
    out=$(wrk -t2 -c64 -d"${seconds}s" --latency -s scripts/cluster/reads.lua "$url" -- "${paths[@]}")
    local rps p50 p95 errors
    rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
    p50=$(awk '$1 == "50%" {print $2}' <<<"$out")
    p95=$(awk '$1 == "90%" {print $2}' <<<"$out")
    errors=$(awk '/Non-2xx/ {print $5}' <<<"$out")
    printf '| %s | %s | %s | %s | %s |\n' "$name" "$rps" "$p50" "$p95" "${errors:-0}"
}

echo "| Topology | Requests/s | p50 | p90 | Non-2xx |"
echo "|---|---:|---:|---:|---:|"
run "one server, reads on the replica" "$SERVER1"
run "two servers behind nginx, reads on the replica" "$FRONT"
for n in 1 2; do scripts/cluster.sh kill-server "$n"; done
for n in 1 2; do CLUSTER_REPLICA_READS=0 scripts/cluster.sh start-server "$n"; done
run "two servers behind nginx, reads on the primary" "$FRONT"
run "one server, reads on the primary" "$SERVER1"
for n in 1 2; do scripts/cluster.sh kill-server "$n"; done
for n in 1 2; do scripts/cluster.sh start-server "$n"; done

#!/usr/bin/env bash
# `make cluster-test`: the scaled-out topology (scripts/cluster.sh, its own state in .cluster-test/ and nginx on
# 127.0.0.1:8091) under wrk load through nginx, while scripts/cluster/fault_test.py kills one server process,
# stops the replica, starts both again and kills the primary's node. Prints each phase's figures; the last line
# is `cluster-test: passed` or `cluster-test: failed`. Stops everything it started, whatever happens.
set -euo pipefail
# Not a trust test: reviews stay as posted (docs/TRUST.md; the judge has its own tests).
export TRUST="${TRUST:-off}"

project=$(cd "$(dirname "$0")/.." && pwd)
cd "$project"
# The probes and wrk come from one address (the per-client rate limits would refuse most of the load).
# Plain HTTP and no backup schedule: the figures stay comparable with earlier runs (scripts/deploy-test.sh covers TLS).
say() { echo "cluster-test: $*" >&2; }

. scripts/lib/common.sh
# The front's port is chosen free, like every other: a second checkout's run may be at this step too.
export CLUSTER_STATE=$project/.cluster-test CLUSTER_PORT=${CLUSTER_TEST_PORT:-$(free_port 8091)} RATE_LIMITS=off \
    CLUSTER_TLS=0 CLUSTER_BACKUPS=0
need_package wrk wrk

wrk_pid=""
cleanup() {
    [ -n "$wrk_pid" ] && kill "$wrk_pid" 2>/dev/null || true
    scripts/cluster.sh stop || true
    # The servers' and Patroni's logs outlive the run, for a failure's post-mortem.
    local root
    root=$(cat "$CLUSTER_STATE/root" 2>/dev/null || true)
    if [ -n "$root" ] && [ -d "$root" ]; then
        mkdir -p .build/cluster-test-logs
        cp "$root"/*.log .build/cluster-test-logs/ 2>/dev/null || true
    fi
    # Each run starts from a new cluster: a run's failover leaves the roles swapped and the data behind.
    rm -rf "$(cat "$CLUSTER_STATE/root" 2>/dev/null || echo /nonexistent)" "$CLUSTER_STATE"
}
trap cleanup EXIT
cleanup
scripts/cluster.sh start
eval "$(scripts/cluster.sh env | sed 's/^/export /')"

# The seed may still be replaying on the replica: wait until the list shows it.
stores=""
for _ in $(seq 40); do
    body=$(curl -sS "$FRONT/v1/stores?limit=4&sort=rating" || true)
    stores=$(echo "$body" | /usr/bin/python3 -c 'import json,sys; print(" ".join(s["id"] for s in json.load(sys.stdin)["items"]))' 2>/dev/null || true)
    [ -n "$stores" ] && break
    sleep 0.25
done
if [ -z "$stores" ]; then
    say "the store list never showed the seed; last answer: $body"
    tail -n 20 "$(cat "$CLUSTER_STATE/root")"/server*.log >&2 || true
    say "failed"
    exit 1
fi
paths=(/v1/stores?limit=20 /v1/promotions/daily)
for s in $stores; do paths+=("/v1/stores/$s" "/v1/stores/$s/comments?limit=10"); done
wrk -t2 -c16 -d120s -s scripts/cluster/reads.lua "$FRONT" -- "${paths[@]}" > .cluster-test/wrk.txt 2>&1 &
wrk_pid=$!
status=0
FRONT=$FRONT DATABASE_URL=$DATABASE_URL SERVER1=$SERVER1 SERVER2=$SERVER2 /usr/bin/python3 scripts/cluster/fault_test.py || status=$?
kill -INT "$wrk_pid" 2>/dev/null || true
wait "$wrk_pid" 2>/dev/null || true
wrk_pid=""
grep -E "Requests/sec|requests in|Non-2xx|Socket errors|Latency" .cluster-test/wrk.txt | sed 's/^/wrk: /' || true
exit $status

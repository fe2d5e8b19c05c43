#!/usr/bin/env bash
# `make deploy-test`: a rolling deploy under load loses nothing. A cluster of its own (state in .deploy-test/, TLS on
# 8446, plain HTTP on 8093) under wrk (reads over HTTPS), two kept-alive readers and three API writers
# (registrations, reviews, favorites, promotion purchases); `scripts/cluster.sh deploy` replaces both servers, twice
# (the second time as a rollback would: the database already has a newer release's migration).
# Checks: wrk got no non-2xx answer, no refused connection and no answer slower than 10 s (a hang, as in the fault
# test; wrk's default 2 s counts a busy 2-core machine's slow answers); the readers and the writers saw no failure;
# every acknowledged review and purchase is in the database; then the TLS front (HTTP redirects, HSTS, Secure
# cookies) and nginx's own 502 as problem+json with both servers gone.
# wrk's "read" socket errors are reported, not failed: when nginx reloads (to drain a server) its old worker closes
# the client connections that are idle, and wrk never sends a request again on a connection closed under it. A
# browser or HTTP library does (RFC 9112 §9.3.1 for idempotent requests), as the kept-alive readers here do.
# The last line is `deploy-test: passed` or `deploy-test: failed`. Stops everything it started.
set -euo pipefail
# Not a trust test: reviews stay as posted (docs/TRUST.md; the judge has its own tests).
export TRUST="${TRUST:-off}"

project=$(cd "$(dirname "$0")/.." && pwd)
cd "$project"
say() { echo "deploy-test: $*" >&2; }

. scripts/lib/common.sh
# The front's ports are chosen free, like every other: a second checkout's run may be at this step too.
CLUSTER_PORT=${DEPLOY_TEST_PORT:-$(free_port 8093)}
export CLUSTER_STATE=$project/.deploy-test CLUSTER_PORT CLUSTER_TLS_PORT=${DEPLOY_TEST_TLS_PORT:-$(free_port 8446)}
export RATE_LIMITS=off CLUSTER_BACKUPS=0
need_package wrk wrk

wrk_pid=""
writer_pids=()
cleanup() {
    [ -n "$wrk_pid" ] && kill "$wrk_pid" 2>/dev/null || true
    for pid in "${writer_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    scripts/cluster.sh stop >/dev/null 2>&1 || true
    local root
    root=$(cat "$CLUSTER_STATE/root" 2>/dev/null || true)
    if [ -n "$root" ] && [ -d "$root" ]; then
        mkdir -p .build/deploy-test-logs
        cp "$root"/*.log "$root"/nginx/error.log .build/deploy-test-logs/ 2>/dev/null || true
    fi
    rm -rf "$(cat "$CLUSTER_STATE/root" 2>/dev/null || echo /nonexistent)" "$CLUSTER_STATE"
}
trap cleanup EXIT
cleanup
mkdir -p "$CLUSTER_STATE"
scripts/cluster.sh start
eval "$(scripts/cluster.sh env | sed 's/^/export /')"
work=$CLUSTER_STATE/run
mkdir -p "$work"
status=0

# Wait until the store list shows the seed through the replica.
stores=""
for _ in $(seq 40); do
    stores=$(curl -ksS "$FRONT/v1/stores?limit=4&sort=rating" | /usr/bin/python3 -c 'import json,sys; print(" ".join(s["id"] for s in json.load(sys.stdin)["items"]))' 2>/dev/null || true)
    [ -n "$stores" ] && break
    sleep 0.25
done
[ -n "$stores" ] || { say "FAILED: the store list never showed the seed"; exit 1; }
paths=(/v1/stores?limit=20 /v1/promotions/daily)
for s in $stores; do paths+=("/v1/stores/$s" "/v1/stores/$s/comments?limit=10"); done
wrk -t2 -c16 -d300s --timeout 10s -s scripts/cluster/reads.lua "$FRONT" -- "${paths[@]}" > "$work/wrk.txt" 2>&1 &
wrk_pid=$!
for r in 1 2; do
    python3 scripts/cluster/keepalive_reader.py "$FRONT" "/v1/stores/$(cut -d' ' -f$r <<< "$stores")" "$work/stop" \
        > "$work/reader-$r.json" &
    writer_pids+=($!)
done
for w in x y z; do
    API_WRITES_UNTIL=$work/stop python3 scripts/cluster/api_writes.py "$FRONT" "$w$RANDOM" 5 > "$work/writes-$w.json" &
    writer_pids+=($!)
done
sleep 3
for round in 1 2; do
    if [ "$round" = 2 ]; then
        # The second round is a rollback's: the database has a newer release's migration (sorting after every file
        # this binary has), which the servers must accept (expand/contract, docs/OPERATIONS.md).
        psql -qAtX "$DATABASE_URL" -c "INSERT INTO schema_migrations (name, sha256) VALUES ('999_newer_release.sql', 'x')"
    fi
    say "deploy round $round"
    scripts/cluster.sh deploy
    sleep 2
done
touch "$work/stop"
for pid in "${writer_pids[@]}"; do wait "$pid" || true; done
writer_pids=()
kill -INT "$wrk_pid" 2>/dev/null || true
wait "$wrk_pid" 2>/dev/null || true
wrk_pid=""
grep -E "requests in|Non-2xx|Socket errors|Latency" "$work/wrk.txt" | sed 's/^/deploy-test: wrk: /' >&2 || true
if grep -q "Non-2xx" "$work/wrk.txt" || grep -qE "Socket errors: connect [1-9]|write [1-9]|timeout [1-9]" "$work/wrk.txt"; then
    say "FAILED: wrk saw failed requests"
    status=1
fi
for r in 1 2; do
    say "kept-alive reader $r: $(cat "$work/reader-$r.json")"
    grep -q '"failures": \[\]' "$work/reader-$r.json" || { say "FAILED: reader $r saw failures"; status=1; }
done
grep -q "requests in" "$work/wrk.txt" || { say "FAILED: wrk did not report"; status=1; }

# The writers: no failure, and everything they were told was written is there.
read -r reviews purchases failures < <(/usr/bin/python3 - "$work"/writes-*.json <<'PY'
import json, sys
runs = [json.load(open(p)) for p in sys.argv[1:]]
print(",".join(r for run in runs for r in run.get("reviews", [])) or "-",
      ",".join(p for run in runs for p in run.get("purchases", [])) or "-",
      json.dumps([f for run in runs for f in run.get("failures", [])]).replace(" ", ""))
PY
)
[ "$failures" = "[]" ] || { say "FAILED: writers saw failures: $failures"; status=1; }
count() { tr ',' '\n' <<< "$1" | grep -c . || true; }
present_reviews=$(psql -qAtX "$DATABASE_URL" -v ids="$reviews" -f - <<< "SELECT count(*) FROM comments WHERE id = ANY(string_to_array(:'ids', ','))")
present_purchases=$(psql -qAtX "$DATABASE_URL" -v ids="$purchases" -f - <<< "SELECT count(*) FROM promotions WHERE id = ANY(string_to_array(:'ids', ','))")
say "writes acknowledged during the deploys: $(count "$reviews") reviews ($present_reviews in the database), $(count "$purchases") purchases ($present_purchases in the ledger)"
[ "$present_reviews" = "$(count "$reviews")" ] && [ "$present_purchases" = "$(count "$purchases")" ] \
    || { say "FAILED: acknowledged writes are missing"; status=1; }
[ "$(count "$reviews")" -gt 0 ] || { say "FAILED: no write went through"; status=1; }

# TLS at the front.
redirect=$(curl -sS -o /dev/null -w '%{http_code} %{redirect_url}' "$FRONT_HTTP/v1/stores?limit=1")
[[ "$redirect" == "308 https://127.0.0.1:$CLUSTER_TLS_PORT/v1/stores?limit=1" ]] || { say "FAILED: HTTP answers $redirect"; status=1; }
headers=$(curl -ksS -D - -o /dev/null "$FRONT/")
grep -qi '^strict-transport-security: max-age=' <<< "$headers" || { say "FAILED: no HSTS header"; status=1; }
cookies=$(grep -i '^set-cookie:' <<< "$headers" || true)
[ -n "$cookies" ] && ! grep -vqi 'secure' <<< "$cookies" || { say "FAILED: cookies not all Secure: $cookies"; status=1; }
say "TLS: http → $redirect; HSTS set; $(grep -c . <<< "$cookies") cookies, all Secure"

# nginx's own error, with no server left: problem+json, not nginx's HTML.
scripts/cluster.sh kill-server 1 || true
scripts/cluster.sh kill-server 2 || true
answer=$(curl -ksS -D - "$FRONT/v1/stores?limit=1")
grep -qi '^content-type: application/problem+json' <<< "$answer" && grep -q '"code":"bad_gateway"' <<< "$answer" \
    || { say "FAILED: nginx's 502 is not problem+json: $answer"; status=1; }
say "with no server: $(head -1 <<< "$answer" | tr -d '\r'), $(tail -1 <<< "$answer")"

[ "$status" = 0 ] && say "passed" || say "failed"
exit $status

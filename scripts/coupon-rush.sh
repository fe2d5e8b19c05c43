#!/usr/bin/env bash
# `make coupon-rush` (issue #47): 10,000 signed-in users claim one coupon at once through nginx in front of two
# release servers, against a stock of 100 and of 10,000, then a fault run (one server killed with claims in
# flight, restarted, the unanswered retried with their Idempotency-Key). Checks what docs/COUPONS.md promises:
# claims stored = claims answered 201 = the stock (or fewer), every other answer `sold_out`, nobody over perUser,
# acknowledged ⊆ stored. Also pgbench of the claim's own statements at 64 clients. Prints a markdown table and
# writes it to .bench/coupon-rush.md. RUSH_USERS (10000), RUSH_CONCURRENCY (64).
set -euo pipefail

project=$(cd "$(dirname "$0")/.." && pwd)
cd "$project"
. scripts/lib/common.sh
BIN=${RUSH_BIN:-.build-release/release/chidian}
USERS=${RUSH_USERS:-10000}
CONCURRENCY=${RUSH_CONCURRENCY:-64}
out=.bench/coupon-rush
say() { echo "coupon-rush: $*" >&2; }
die() { say "$*"; exit 1; }
need_package nginx nginx
pgbin=/usr/lib/postgresql/15/bin
if [ ! -x "$BIN" ]; then
    say "building the release binary"
    swift build -c release --scratch-path .build-release --product chidian >/dev/null
fi
mkdir -p "$out"
base=$(scripts/db.sh url | sed 's/^DATABASE_URL=//')
url=${base%/*}/chidian_rush
psql -qX "${base%/*}/postgres" -c "DROP DATABASE IF EXISTS chidian_rush WITH (FORCE)" -c "CREATE DATABASE chidian_rush" >/dev/null
DATABASE_URL=$url "$BIN" migrate >/dev/null
DATABASE_URL=$url "$BIN" seed seed >/dev/null
sql() { psql -qAtX "$url" -c "$1"; }

# The diners: users with sessions made in SQL (a token's hash is its SHA-256, as the server stores it).
say "making $USERS users with sessions"
python3 - "$USERS" >"$out/tokens" <<'PY'
import secrets, sys
for _ in range(int(sys.argv[1])):
    print(secrets.token_urlsafe(32))
PY
psql -qX "$url" >/dev/null <<SQL
CREATE TEMP TABLE t (n serial, token text);
\copy t (token) FROM '$out/tokens'
INSERT INTO users (id, name, password_hash, role) SELECT 'rush' || n, 'rush' || n, '\$2b\$04\$rush', 'user' FROM t;
INSERT INTO sessions (token_hash, user_id, expires_at)
SELECT sha256(convert_to(token, 'UTF8')), 'rush' || n, now() + interval '1 day' FROM t;
SQL

pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; }
trap cleanup EXIT
start_server() {
    local port=$1
    DATABASE_URL=$url LOG_LEVEL=error RATE_LIMITS=off "$BIN" serve --host 127.0.0.1 --port "$port" >>"$out/server$port.log" 2>&1 &
    pids+=($!)
    for _ in $(seq 1 100); do curl -fsS -m 1 "http://127.0.0.1:$port/health" >/dev/null 2>&1 && return 0; sleep 0.1; done
    die "a server did not start: $out/server$port.log"
}
p1=$(free_port 18700); start_server "$p1"; pid1=${pids[-1]}
p2=$(free_port $((p1 + 1))); start_server "$p2"
front=$(free_port $((p2 + 1)))
cat >"$out/nginx.conf" <<NGINX
worker_processes 1;
pid $project/$out/nginx.pid;
error_log $project/$out/nginx-error.log;
events { worker_connections 4096; }
http {
    access_log off;
    upstream chidian { server 127.0.0.1:$p1; server 127.0.0.1:$p2; keepalive 64; }
    server {
        listen 127.0.0.1:$front;
        location / {
            proxy_pass http://chidian;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
        }
    }
}
NGINX
nginx -c "$project/$out/nginx.conf" -p "$project/$out" -g 'daemon off;' &
pids+=($!)
for _ in $(seq 1 50); do curl -fsS -m 1 "http://127.0.0.1:$front/health" >/dev/null 2>&1 && break; sleep 0.1; done
api=http://127.0.0.1:$front

offer() {  # offer STOCK: a live coupon of s001, its id
    sql "INSERT INTO coupons (store_id, title, face_value, stock, ends_at) VALUES ('s001', 'rush', 10, $1, now() + interval '1 day') RETURNING id"
}
rush() {  # rush COUPON TOKENS: the client's JSON line
    python3 scripts/coupon/rush.py "$api" "$1" "$2" "$CONCURRENCY"
}
field() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); v=d; [v := v.get(k, 0) for k in sys.argv[2:]]; print(v)' "$@"; }
stored() { sql "SELECT count(*) FROM coupon_claims WHERE coupon_id = '$1'"; }
over() { sql "SELECT count(*) FROM (SELECT user_id FROM coupon_claims WHERE coupon_id = '$1' GROUP BY user_id HAVING count(*) > 1) x"; }

results=()
check() {  # check NAME COUPON STOCK JSON
    local name=$1 coupon=$2 stock=$3 json=$4
    local created soldout stored_n claimed others over_n verdict
    created=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["created"]))' "$json")
    soldout=$(field "$json" answers "409 sold_out")
    others=$(python3 -c 'import json,sys; a=json.load(open(sys.argv[1]))["answers"]; print(sum(v for k, v in a.items() if k not in ("201", "200", "409 sold_out")))' "$json")
    stored_n=$(stored "$coupon")
    claimed=$(sql "SELECT claimed FROM coupons WHERE id = '$coupon'")
    over_n=$(over "$coupon")
    verdict=met
    [ "$created" = "$stored_n" ] && [ "$stored_n" = "$claimed" ] && [ "$stored_n" -le "$stock" ] && [ "$over_n" = 0 ] \
        && [ "$others" = 0 ] || verdict="**missed**"
    results+=("| $name | $stock | $created | $soldout | $stored_n | $others | $(field "$json" rps)/s | $(field "$json" p50) | $(field "$json" p99) | $verdict |")
}

say "rush: stock 100"
c100=$(offer 100)
rush "$c100" "$out/tokens" >"$out/rush-100.json"
check "stock 100" "$c100" 100 "$out/rush-100.json"

say "rush: stock $USERS"
call=$(offer "$USERS")
rush "$call" "$out/tokens" >"$out/rush-all.json"
check "stock $USERS" "$call" "$USERS" "$out/rush-all.json"

# The claim's own statement (coupon_claim) under pgbench, 64 clients, on a coupon of unlimited stock for the run.
say "pgbench of the claim's statements"
cbench=$(offer 1000000)
sql "UPDATE coupons SET per_user = 10 WHERE id = '$cbench'"
cat >"$out/claim.sql" <<PGB
\set u random(1, $USERS)
SELECT coupon_claim('$cbench', 'rush' || :u, upper(substr(translate(encode(gen_random_bytes(12), 'base64'), '+/=01OIoil', 'ABCDEFGHJK'), 1, 12)), NULL);
PGB
sql "CREATE EXTENSION IF NOT EXISTS pgcrypto" >/dev/null
# A user past the coupon's perUser (10) ends pgbench's client with an error; the rate until then stands.
pg_tps=$( ("$pgbin/pgbench" -n -c 64 -j 2 -T 10 -f "$out/claim.sql" "$url" 2>/dev/null || true) | awk '/^tps/ {print int($3); exit}')
# The same through HTTP: wrk's 64 connections through nginx, each request the next user's claim, 10 s (the
# Python client that checks every answer above is itself the limit near 1,200 requests a second).
need_package wrk wrk
cwrk=$(offer 1000000)
sql "UPDATE coupons SET per_user = 10 WHERE id = '$cwrk'"
RUSH_TOKENS=$out/tokens RUSH_COUPON=$cwrk wrk -t2 -c64 -d10s --latency -s scripts/coupon/claims.lua "$api" >"$out/wrk.txt" 2>&1 || true
http_rps=$(awk '/Requests\/sec/ {print int($2)}' "$out/wrk.txt")
http_p99=$(awk '$1 == "99%" {print $2}' "$out/wrk.txt")
http_non2xx=$(awk '/Non-2xx/ {print $5}' "$out/wrk.txt")
http_claims=$(sql "SELECT count(*) FROM coupon_claims WHERE coupon_id = '$cwrk'")
ratio=$(python3 -c "print(round(${http_rps:-0} / $pg_tps, 2) if ${pg_tps:-0} else 0)")

say "fault run: server 1 killed with claims in flight"
cfault=$(offer 3000)
rush "$cfault" "$out/tokens" >"$out/rush-fault.json" &
rusher=$!
sleep 1.5
kill -KILL "$pid1"
sleep 2
start_server "$p1"
wait "$rusher"
# Every user retries with the same key, as a client that lost its answer would: a claim made answers 200 with
# itself, none may make a second.
rush "$cfault" "$out/tokens" >"$out/rush-retry.json"
acked=$(python3 -c 'import json,sys; print("\n".join(json.load(open(sys.argv[1]))["created"]))' "$out/rush-fault.json" | sort -u)
missing=0
for id in $acked; do [ "$(sql "SELECT count(*) FROM coupon_claims WHERE id = '$id'")" = 1 ] || missing=$((missing + 1)); done
fault_stored=$(stored "$cfault")
fault_claimed=$(sql "SELECT claimed FROM coupons WHERE id = '$cfault'")
fault_over=$(over "$cfault")
fault_verdict=met
[ "$missing" = 0 ] && [ "$fault_stored" = "$fault_claimed" ] && [ "$fault_stored" -le 3000 ] && [ "$fault_over" = 0 ] || fault_verdict="**missed**"

{
    echo "| Run | Stock | Answered 201 | \`sold_out\` | Stored | Other answers | Claims/s | p50 ms | p99 ms | Exact |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"
    printf '%s\n' "${results[@]}"
    echo
    echo "Claims through nginx and both servers, wrk at 64 connections for 10 s (each request the next user's claim): ${http_rps:-?}/s, p99 ${http_p99:-?}, ${http_non2xx:-0} non-2xx, $http_claims stored; pgbench of the claim's statement, \`coupon_claim\`, 64 clients, 10 s: $pg_tps/s: **$ratio×**."
    echo
    echo "Fault run (stock 3,000; server 1 killed 1.5 s in, restarted 2 s later, then every user retried with the same key):"
    echo "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["created"]))' "$out/rush-fault.json") answered 201 before the retry, $(field "$out/rush-fault.json" unanswered) without an answer; acknowledged but not stored: **$missing**; stored $fault_stored = counted $fault_claimed; users over perUser: $fault_over; answers of the retry: $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["answers"])' "$out/rush-retry.json") — $fault_verdict."
} | tee "$out/../coupon-rush.md"

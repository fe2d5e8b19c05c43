#!/usr/bin/env bash
# `make coupon-rush` (issue #47): 10,000 signed-in users claim one coupon at once through nginx in front of two
# release servers, against a stock of 100 and of 10,000 (wrk with scripts/coupon/rush.lua: each user once, every
# answer counted); the claims' rate (wrk, a new user a request) against pgbench of the claim's statements; the
# rushed store's page in open loop at half its capacity, alone and during a rush; then a fault run (one server
# killed with claims in flight, restarted, every user retried with their Idempotency-Key). Checks what
# docs/COUPONS.md promises: claims stored = claims answered 201 = the stock (or fewer), every other answer
# `sold_out`, nobody over perUser, acknowledged ⊆ stored. Prints a markdown table and writes it to
# .bench/coupon-rush.md. RUSH_USERS (10000), RUSH_RATE_USERS (40000), RUSH_CONCURRENCY (64).
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
need_package cc gcc
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

# The diners: users with sessions made in SQL (a token's hash is its SHA-256, as the server stores it). The first
# USERS rush; the next RATE_USERS each claim once in the rate run, so every claim there checks a session first.
# Tokens are `rushtoken-N`, so pgbench can name a user's session by N.
RATE_USERS=${RUSH_RATE_USERS:-40000}
say "making $USERS + $RATE_USERS users with sessions"
psql -qX "$url" >/dev/null <<SQL
INSERT INTO users (id, name, password_hash, role)
SELECT 'rush' || n, 'rush' || n, '\$2b\$04\$rush', 'user' FROM generate_series(1, $USERS + $RATE_USERS) n;
INSERT INTO sessions (token_hash, user_id, expires_at)
SELECT sha256(convert_to('rushtoken-' || n, 'UTF8')), 'rush' || n, now() + interval '1 day'
FROM generate_series(1, $USERS + $RATE_USERS) n;
SQL
seq -f 'rushtoken-%.0f' 1 "$USERS" >"$out/tokens"
seq -f 'rushtoken-%.0f' $((USERS + 1)) $((USERS + RATE_USERS)) >"$out/rate-tokens"
# A session last used over a minute ago: its first check writes `last_used_at`, as after a night's sleep.
stale() { sql "UPDATE sessions SET last_used_at = now() - interval '2 minutes'" >/dev/null; }

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
# Servers that have been up a while: their pools hold connections with their statements prepared.
wrk -t2 -c64 -d3s "$api/v1/stores/s001" >/dev/null 2>&1 || true
# The rushes run alone: claims make way for other requests until 200 ms after the last (docs/COUPONS.md).
sleep 1

offer() {  # offer STOCK: a live coupon of s001, its id
    sql "INSERT INTO coupons (store_id, title, face_value, stock, ends_at) VALUES ('s001', 'rush', 10, $1, now() + interval '1 day') RETURNING id"
}
rush() {  # rush COUPON TOKENS: the exact client's JSON (wrk: its C connections, each user once, every answer read)
    local json=$out/rush-$1.json pid
    rm -f "$json" "$json.threads"
    stale
    RUSH_OUT=$json RUSH_THREADS=2 RUSH_TOKENS=$2 RUSH_COUPON=$1 \
        wrk -t2 -c"$CONCURRENCY" -d120s --timeout 10s -s scripts/coupon/rush.lua "$api" >"$json.wrk" 2>&1 &
    pid=$!
    # Each wrk thread stops once its users are answered; then SIGINT ends wrk's wait for its duration (sent once
    # both have stopped, so the main thread receives it) and wrk reports.
    while kill -0 "$pid" 2>/dev/null && [ "$(cat "$json.threads" 2>/dev/null | wc -l)" -lt 2 ]; do sleep 0.1; done
    sleep 0.2
    kill -INT "$pid" 2>/dev/null || true
    wait "$pid" || true
    cat "$json"
}
checked_rush() {  # checked_rush COUPON TOKENS: the Python client, which counts requests a killed server never answered
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

# The claim's own statements under pgbench, 64 clients, 10 s, one claim a transaction: the session check the
# server runs for a session it has not seen in the last minute (SessionRepository.Check, its text; the slide it
# records is written once a second for all), then the claim, on a coupon of unlimited stock, users drawn at random
# from the rate run's. The claim twice: as `coupon_claim_batch` of one (what the database does for a claim that
# was not gathered with others), and as migration 030's `coupon_claim` (one claim, the coupon's row updated last;
# dropped by 031, created here from its migration as the reference): the faster is the database's limit for
# claims one at a time.
say "pgbench of the claim's statements"
cbench=$(offer 1000000)
sql "UPDATE coupons SET per_user = 10 WHERE id = '$cbench'"
sql "CREATE EXTENSION IF NOT EXISTS pgcrypto" >/dev/null
sed -n '/^CREATE FUNCTION coupon_claim(/,/^END \$\$;/p' sql/030_coupons.sql | psql -qX "$url" >/dev/null
check_sql="SELECT u.id, u.name, u.role, extract(epoch FROM least(s.expires_at, s.created_at + make_interval(secs => 7776000)) - now())::float8, s.last_used_at < now() - interval '1 minute' FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = sha256(convert_to('rushtoken-' || :u, 'UTF8')) AND s.revoked_at IS NULL AND s.expires_at > now() AND s.created_at > now() - make_interval(secs => 7776000);"
code_sql="upper(substr(translate(encode(gen_random_bytes(12), 'base64'), '+/=01OIoil', 'ABCDEFGHJK'), 1, 12))"
pick="\\set u random($((USERS + 1)), $((USERS + RATE_USERS)))"
printf '%s\n%s\n%s\n' "$pick" "$check_sql" "SELECT * FROM coupon_claim_batch('$cbench', ARRAY['rush' || :u], ARRAY[$code_sql], ARRAY['']);" >"$out/claim-batch.sql"
printf '%s\n%s\n%s\n' "$pick" "$check_sql" "SELECT * FROM coupon_claim('$cbench', 'rush' || :u, $code_sql, NULL);" >"$out/claim-one.sql"
pgbench_tps() {
    stale
    ("$pgbin/pgbench" -n -M prepared -c 64 -j 2 -T 10 -f "$1" "$url" 2>/dev/null || true) | awk '/^tps/ {print int($3); exit}'
}
pg_batch=$(pgbench_tps "$out/claim-batch.sql")
pg_one=$(pgbench_tps "$out/claim-one.sql")
pg_tps=$(( pg_batch > pg_one ? pg_batch : pg_one ))
# The same through HTTP: wrk's 64 connections through nginx, 10 s, each request a new user's claim.
need_package wrk wrk
cwrk=$(offer 1000000)
stale
RUSH_TOKENS=$out/rate-tokens RUSH_THREADS=2 RUSH_COUPON=$cwrk \
    wrk -t2 -c64 -d10s --latency -s scripts/coupon/claims.lua "$api" >"$out/wrk.txt" 2>&1 || true
http_rps=$(awk '/Requests\/sec/ {print int($2)}' "$out/wrk.txt")
http_p99=$(awk '$1 == "99%" {print $2}' "$out/wrk.txt")
http_non2xx=$(awk '/Non-2xx/ {print $5}' "$out/wrk.txt")
http_claims=$(sql "SELECT count(*) FROM coupon_claims WHERE coupon_id = '$cwrk'")
ratio=$(python3 -c "print(round(${http_rps:-0} / $pg_tps, 2) if ${pg_tps:-0} else 0)")
ratio_batch=$(python3 -c "print(round(${http_rps:-0} / $pg_batch, 2) if ${pg_batch:-0} else 0)")

# The rushed store's page while a rush runs: open loop (scripts/bench/openloop.c) at half the page's capacity
# through nginx, 10 s alone, then 15 s with a rush of the 10,000 users for a stock of 10,000 starting a second in.
say "the store page, alone and during a rush"
cc -O2 -Wall -o "$out/openloop" scripts/bench/openloop.c
printf 'GET\t/v1/stores/s001\t0\n' >"$out/store-lines"
page_cap=$(wrk -t2 -c64 -d5s "$api/v1/stores/s001" | awk '/Requests\/sec/ {print int($2)}')
half=$((page_cap / 2))
page() { "$out/openloop" -a "127.0.0.1:$front" -r "$half" -d "$1" -c 64 -f "$out/store-lines" 2>/dev/null | tr ' ' '\n'; }
kv() { awk -F= -v k="$2" '$1 == k {print $2}' "$1"; }
page 10 >"$out/page-alone"
cduring=$(offer "$USERS")
started=$(date +%s.%N)
page 15 >"$out/page-during" &
paging=$!
sleep 1
rush "$cduring" "$out/tokens" >"$out/rush-during.json"
wait "$paging" || true
page_ratio=$(python3 -c "print(round($(kv "$out/page-during" achieved) / $(kv "$out/page-alone" achieved), 2))")
# Claims stored while the pages ran beside the rush (its second to fifteenth second): what yielding leaves them.
beside=$(sql "SELECT round(count(*) / 14.0) FROM coupon_claims WHERE coupon_id = '$cduring' AND claimed_at BETWEEN to_timestamp($started + 1) AND to_timestamp($started + 15)")

say "fault run: server 1 killed with claims in flight"
cfault=$(offer 3000)
checked_rush "$cfault" "$out/tokens" >"$out/rush-fault.json" &
rusher=$!
sleep 1.5
kill -KILL "$pid1"
sleep 2
start_server "$p1"
wait "$rusher"
# Every user retries with the same key, as a client that lost its answer would: a claim made answers 200 with
# itself, none may make a second.
checked_rush "$cfault" "$out/tokens" >"$out/rush-retry.json"
acked=$(python3 -c 'import json,sys; print("\n".join(json.load(open(sys.argv[1]))["created"]))' "$out/rush-fault.json" | sort -u)
missing=$(echo "SELECT count(*) FROM unnest(string_to_array(:'ids', ' ')) i WHERE NOT EXISTS (SELECT 1 FROM coupon_claims WHERE id = i)" \
    | psql -qAtX "$url" -v ids="$(echo $acked)")
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
    echo "Claims through nginx and both servers, wrk at 64 connections for 10 s (each request a new user's claim): ${http_rps:-?}/s, p99 ${http_p99:-?}, ${http_non2xx:-0} non-2xx, $http_claims stored. pgbench of the claim's statements one claim a transaction, 64 clients, 10 s: with migration 030's \`coupon_claim\` $pg_one/s, with \`coupon_claim_batch\` of one $pg_batch/s. HTTP ÷ the faster: **$ratio×** (÷ the batch of one: $ratio_batch×)."
    echo
    echo "The store page (\`GET /v1/stores/s001\`, the rushed store) in open loop at half its capacity ($page_cap/s by wrk, so $half/s): alone $(kv "$out/page-alone" achieved)/s, p99 $(kv "$out/page-alone" p99) ms; during a rush of $USERS claims (${beside} claims/s while the pages ran, $(field "$out/rush-during.json" rps)/s over the whole rush, p99 $(field "$out/rush-during.json" p99) ms): $(kv "$out/page-during" achieved)/s, p99 $(kv "$out/page-during" p99) ms, $(kv "$out/page-during" non2xx) non-2xx: **${page_ratio}×** the rate alone."
    echo
    echo "Fault run (stock 3,000; server 1 killed 1.5 s in, restarted 2 s later, then every user retried with the same key):"
    echo "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["created"]))' "$out/rush-fault.json") answered 201 before the retry, $(field "$out/rush-fault.json" unanswered) without an answer; acknowledged but not stored: **$missing**; stored $fault_stored = counted $fault_claimed; users over perUser: $fault_over; answers of the retry: $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["answers"])' "$out/rush-retry.json") — $fault_verdict."
} | tee "$out/../coupon-rush.md"

#!/usr/bin/env bash
# Fault injection against the real server: a throwaway PostgreSQL (never the shared cluster) is stopped under
# load and started again, then the server gets SIGTERM while requests are in flight.
#   scripts/faults.sh
# Checks: during the outage every answer is 200 or 503 `database_unavailable` with Retry-After, none takes longer
# than the database wait plus a margin, /health stays up; service resumes without restarting the server; every
# acknowledged write is in the database afterwards; SIGTERM lets in-flight requests finish and exits 0.
# Bounded throughout (about 30 s); always cleans up. The last line is `faults: N passed, N failed`.
set -euo pipefail
# Not a trust test: reviews stay as posted (docs/TRUST.md; the judge has its own tests).
export TRUST="${TRUST:-off}"

project=$(cd "$(dirname "$0")/.." && pwd)
cd "$project"
. scripts/lib/common.sh
bin=${CHIDIAN_BIN:-.build/debug/chidian}
pgbin=/usr/lib/postgresql/15/bin
say() { echo "faults: $*" >&2; }

[ -x "$bin" ] || { say "$bin is missing: run swift build first"; exit 1; }
# db.sh installs PostgreSQL 15 and PostGIS when either is missing.
{ [ -x "$pgbin/initdb" ] && [ -f /usr/share/postgresql/15/extension/postgis.control ]; } || scripts/db.sh start >/dev/null

# initdb refuses root: as root the throwaway cluster belongs to the postgres user, as db.sh does it.
as_owner() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

work=$(mktemp -d /tmp/chidian-faults.XXXXXX)
chmod 755 "$work"
[ "$(id -u)" -eq 0 ] && chown postgres:postgres "$work"
server=""

cleanup() {
    if [ -n "$server" ] && kill -0 "$server" 2>/dev/null; then kill -KILL "$server" 2>/dev/null || true; fi
    as_owner "$pgbin/pg_ctl" -D "$work/data" -m immediate -w -t 10 stop >/dev/null 2>&1 || true
    mkdir -p .build && cp "$work/server.log" .build/faults-server.log 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

pgport=$(free_port 25500)
pg_start="$pgbin/pg_ctl -D $work/data -l $work/postgres.log -w -t 20 -o '-p $pgport -k $work -c listen_addresses=127.0.0.1 -c fsync=off' start"
as_owner "$pgbin/initdb" -D "$work/data" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >/dev/null
as_owner bash -c "$pg_start" >/dev/null
psql="psql -qAtX postgres://postgres@127.0.0.1:$pgport"
$psql/postgres -c "CREATE DATABASE chidian_faults" >/dev/null
database_url="postgres://postgres@127.0.0.1:$pgport/chidian_faults"
DATABASE_URL=$database_url "$bin" migrate >/dev/null
say "throwaway PostgreSQL on 127.0.0.1:$pgport ($work)"

port=$(free_port 18500)
# A 1 s database wait keeps outage answers quick; bcrypt cost 12 makes registrations slow enough to be in
# flight when SIGTERM arrives.
DATABASE_URL=$database_url DB_TIMEOUT_MS=1000 BCRYPT_COST=12 LOG_LEVEL=${LOG_LEVEL:-debug} RATE_LIMITS=off \
    "$bin" serve --host 127.0.0.1 --port "$port" >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 1 100); do
    curl -fsS -m 1 "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break
    kill -0 "$server" 2>/dev/null || { cat "$work/server.log" >&2; say "the server did not start"; exit 1; }
    sleep 0.1
done

status=0
FAULTS_WORK="$work" FAULTS_PG_START="$pg_start" timeout 120 python3 - "$port" "$server" "$psql/chidian_faults" <<'PYTHON' || status=$?
import http.client, json, os, signal, subprocess, sys, threading, time

port, server_pid, psql = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
pgbin, work = "/usr/lib/postgresql/15/bin", os.environ["FAULTS_WORK"]
owner = ["runuser", "-u", "postgres", "--"] if os.getuid() == 0 else []
DB_WAIT, MARGIN = 1.0, 2.0
results = {"passed": 0, "failed": 0}

def check(ok, what):
    results["passed" if ok else "failed"] += 1
    print(("  ok   " if ok else "  FAIL ") + what, file=sys.stderr)

def request(method, path, body=None, token=None, timeout=10, sent=None):
    """(status, code, retry_after, seconds); status 0 when the transport failed (refused, reset, timed out).
    `sent` is called once the request is written."""
    started = time.monotonic()
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        headers = {"Content-Type": "application/json"}
        if token: headers["Authorization"] = "Bearer " + token
        connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        if sent: sent()
        response = connection.getresponse()
        data = response.read()
        code = None
        if response.getheader("Content-Type", "").startswith("application/problem+json"):
            code = json.loads(data).get("code")
        elif data[:1] == b"{":
            code = json.loads(data)
        connection.close()
        return response.status, code, response.getheader("Retry-After"), time.monotonic() - started
    except Exception as error:
        return 0, repr(error), None, time.monotonic() - started

def sql(query):
    return subprocess.run(["bash", "-c", psql + ' -c "$0"', query], capture_output=True, text=True, check=True).stdout.strip()

def postgres(action):
    if action == "stop":
        command = [pgbin + "/pg_ctl", "-D", work + "/data", "-m", "immediate", "-w", "-t", "20", "stop"]
    else:
        command = ["bash", "-c", os.environ["FAULTS_PG_START"]]
    subprocess.run(owner + command, check=True, capture_output=True)

# Cast: a manager with a store, and a user.
status, manager, _, _ = request("POST", "/v1/auth/register", {"name": "Boss", "password": "long enough", "role": "manager"})
category = sql("INSERT INTO categories (name) VALUES ('火锅') RETURNING id")
status, store, _, _ = request("POST", "/v1/stores", {"name": "Hot", "categoryId": category}, token=manager["token"])
status, user, _, _ = request("POST", "/v1/auth/register", {"name": "Eater", "password": "long enough"})
boss, eater, store_id = manager["token"], user["token"], store["id"]

acknowledged = []          # amounts of purchases answered 201
lock = threading.Lock()
counter = iter(range(1, 1_000_000))
log = []                   # (phase, kind, status, code, retry_after, seconds)
phase = ["baseline"]
stopping = threading.Event()

def worker(deadline, kind):
    while time.monotonic() < deadline and not stopping.is_set():
        if kind == "buy":
            with lock: amount = next(counter)
            status, code, retry, seconds = request("POST", f"/v1/stores/{store_id}/promotions", {"amount": amount}, token=boss)
            if status == 201:
                with lock: acknowledged.append(amount)
        elif kind == "favorite":
            status, code, retry, seconds = request("PUT", f"/v1/stores/{store_id}/favorite", token=eater)
        else:
            status, code, retry, seconds = request("GET", "/v1/stores?sort=newest")
        if isinstance(code, dict): code = None
        with lock: log.append((phase[0], kind, status, code, retry, seconds))
        time.sleep(0.02)

def load(seconds):
    stopping.clear()
    deadline = time.monotonic() + seconds
    threads = [threading.Thread(target=worker, args=(deadline, kind)) for kind in ["buy", "buy", "favorite", "list", "list"]]
    for thread in threads: thread.start()
    return threads

print("faults: baseline load", file=sys.stderr)
for thread in load(1.5): thread.join()
baseline = [entry for entry in log if entry[0] == "baseline"]
check(baseline and all(entry[2] in (200, 201, 204) for entry in baseline), f"baseline: {len(baseline)} requests, all 2xx")

print("faults: PostgreSQL stopped under load, then started again", file=sys.stderr)
threads = load(60)
time.sleep(1.0)
phase[0] = "outage"
postgres("stop")
time.sleep(DB_WAIT + 0.5)
health = request("GET", "/health")
ready = request("GET", "/ready")
time.sleep(2.0)
phase[0] = "restarting"
postgres("start")
restarted = time.monotonic()
resumed = None
while time.monotonic() - restarted < 20:
    status = request("GET", "/v1/stores")[0]
    if status == 200:
        resumed = time.monotonic() - restarted
        break
    time.sleep(0.1)
phase[0] = "resumed"
time.sleep(1.5)
# Stop the load: workers finish their current request.
stopping.set()
for thread in threads: thread.join(timeout=15)
phase[0] = "done"

during = [entry for entry in log if entry[0] in ("outage", "restarting")]
after = [entry for entry in log if entry[0] == "resumed"]
unavailable = [entry for entry in during if entry[2] == 503]
check(health[0] == 200, f"/health during the outage: {health[0]}")
check(ready[0] == 503, f"/ready during the outage: {ready[0]} {ready[1]}")
check(len(unavailable) >= 5, f"requests during the outage: {len(during)}, of which 503: {len(unavailable)}")
bad = [entry for entry in during + after if entry[2] not in (200, 201, 204, 503)]
if bad:
    # What the database was doing: a stuck answer is usually a session holding a lock.
    print(sql("SELECT pid, state, wait_event_type, wait_event, now() - xact_start, left(query, 120) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"), file=sys.stderr)
check(not bad, f"every answer is 2xx or 503 (others: {bad[:3]})")
check(all(entry[3] == "database_unavailable" and entry[4] and entry[4].isdigit() for entry in unavailable),
      "every 503 is database_unavailable with a numeric Retry-After")
slowest = max((entry[5] for entry in log), default=0)
check(slowest <= DB_WAIT + MARGIN, f"slowest answer {slowest:.2f} s (bound {DB_WAIT + MARGIN:.1f} s); no hang")
check(resumed is not None and resumed <= 10, f"service resumed {resumed if resumed is None else round(resumed, 2)} s after PostgreSQL came back, without a restart")
check(after and all(entry[2] in (200, 201, 204) for entry in after), f"after resuming: {len(after)} requests, all 2xx")
try:
    os.kill(server_pid, 0)
    alive = True
except OSError:
    alive = False
check(alive, "the server process survived the outage")

ledger = set(int(x) for x in sql(f"SELECT amount FROM promotions WHERE store_id = '{store_id}'").split())
spend = int(sql(f"SELECT ad_spend FROM stores WHERE id = '{store_id}'"))
missing = [amount for amount in acknowledged if amount not in ledger]
check(not missing, f"{len(acknowledged)} acknowledged purchases, all in the ledger (missing: {missing[:5]})")
check(spend == sum(ledger), f"ad_spend {spend} equals the ledger's sum {sum(ledger)}")
favorites = sql(f"SELECT favorite_count, (SELECT count(*) FROM favorites WHERE store_id = '{store_id}') FROM stores WHERE id = '{store_id}'")
check(favorites == "1|1", f"favorite count and rows agree: {favorites}")

print("faults: SIGTERM with requests in flight", file=sys.stderr)
answers = [None] * 12
written = threading.Semaphore(0)
def register(index):
    answers[index] = request("POST", "/v1/auth/register", {"name": f"Late{index}", "password": "long enough"},
                             timeout=30, sent=written.release)
def unread_at_server():
    """Connections to the server whose bytes it has not read yet (not accepted, or the request not read)."""
    local = f":{port:04X}"
    with open("/proc/net/tcp") as table:
        rows = [line.split() for line in table.readlines()[1:]]
    return sum(1 for row in rows if row[1].endswith(local) and row[3] == "01" and int(row[4].split(":")[1], 16) > 0)
in_flight = [threading.Thread(target=register, args=(index,)) for index in range(12)]
for thread in in_flight: thread.start()
# SIGTERM once every request is in flight: written by its client and read by the server (a fixed 0.3 s sleep left
# two requests unsent on a loaded machine, and they were refused as new connections after SIGTERM).
for _ in in_flight: written.acquire(timeout=20)
deadline = time.monotonic() + 20
while unread_at_server() > 0 and time.monotonic() < deadline: time.sleep(0.02)
os.kill(server_pid, signal.SIGTERM)
for thread in in_flight: thread.join(timeout=40)
statuses = [answer[0] if answer else None for answer in answers]
check(all(status == 201 for status in statuses), f"in-flight registrations after SIGTERM: {statuses}")
stored = int(sql("SELECT count(*) FROM users WHERE name LIKE 'Late%'"))
check(stored == 12, f"{stored} of 12 in-flight registrations stored")
total = len(log) + len(answers)
print(f"faults: {total} requests; 1 outage ({len(unavailable)} answered 503); 1 SIGTERM", file=sys.stderr)
with open(os.path.join(work, "summary"), "w") as summary:
    summary.write(f"{results['passed']} {results['failed']} {total} {len(unavailable)} {len(acknowledged)} {resumed}\n")
sys.exit(1 if results["failed"] else 0)
PYTHON

# The server should have exited on SIGTERM by itself, with status 0. Its exit is awaited, not raced: the bound
# (timing: a watchdog past the server's own 30 s grace) only keeps a hung server from holding CI.
exited=""
waited_from=$(date +%s)
for _ in $(seq 1 1200); do
    if ! kill -0 "$server" 2>/dev/null; then exited=yes; break; fi
    sleep 0.1
done
server_status=0
if [ -n "$exited" ]; then wait "$server" || server_status=$?; fi
read -r passed failed total unavailable acknowledged resumed < <(cat "$work/summary" 2>/dev/null || echo "0 1 0 0 0 none")
if [ -n "$exited" ] && [ "$server_status" -eq 0 ]; then
    passed=$((passed + 1)); echo "  ok   the server exited 0 after SIGTERM ($(( $(date +%s) - waited_from )) s after the checks)" >&2
else
    failed=$((failed + 1)); echo "  FAIL the server exited '${exited:-no}' with status $server_status after SIGTERM" >&2
    # Which services stopped (the server logs its lifecycle at debug): the first missing one is the stuck one.
    grep -E "ServiceLifecycle|Shutting|abandoned" "$work/server.log" | sed -E 's/\(.{160,}\)/(…)/' | tail -30 >&2
fi
[ -n "$exited" ] && server=""  # a server that did not exit is killed by cleanup
[ "$status" -eq 0 ] || [ "$failed" -gt 0 ] || failed=$((failed + 1))
echo "faults: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

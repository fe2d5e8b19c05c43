#!/usr/bin/env bash
# `make alert-test`: the cluster's alerts fire for real. A cluster of its own (state in .alert-test/, nginx on
# 8092/8445) with Prometheus scraping every second and every rule's `for:` shortened to 5 s; then, in turn:
#   1. the replica is stopped                      → ReplicaNotStreaming (the primary streams to nobody)
#   2. the cache listener's backend is frozen       → CacheNotHearingNotifications (SIGSTOP; its heartbeat stops)
#   3. archiving is stopped (`pgbackrest stop`)     → WalArchivingFailing (archive_command fails)
# Each alert must be inactive before its fault and firing in Prometheus' /api/v1/alerts within 90 s after it;
# the fault is then undone. Prints each firing alert; the last line is `alert-test: passed` or `alert-test: failed`.
set -euo pipefail

project=$(cd "$(dirname "$0")/.." && pwd)
cd "$project"
export CLUSTER_STATE=$project/.alert-test CLUSTER_PORT=${ALERT_TEST_PORT:-8092} CLUSTER_TLS_PORT=${ALERT_TEST_TLS_PORT:-8445}
export ALERT_FOR=5s PROMETHEUS_INTERVAL=1s
say() { echo "alert-test: $*" >&2; }

stopped_pids=""
cleanup() {
    # A frozen backend must not outlive the test.
    for pid in $stopped_pids; do kill -CONT "$pid" 2>/dev/null || true; done
    [ -f "$CLUSTER_STATE/root" ] && CLUSTER_STATE=$CLUSTER_STATE scripts/backup.sh metrics >/dev/null 2>&1 || true
    root=$(cat "$CLUSTER_STATE/root" 2>/dev/null || true)
    if [ -n "$root" ] && [ -f "$root/pgbackrest/pgbackrest.conf" ]; then
        runuser -u postgres -- pgbackrest --config="$root/pgbackrest/pgbackrest.conf" --stanza=chidian start >/dev/null 2>&1 \
            || pgbackrest --config="$root/pgbackrest/pgbackrest.conf" --stanza=chidian start >/dev/null 2>&1 || true
    fi
    scripts/cluster.sh stop >/dev/null 2>&1 || true
    if [ -n "$root" ] && [ -d "$root" ]; then
        mkdir -p .build/alert-test-logs
        cp "$root"/*.log .build/alert-test-logs/ 2>/dev/null || true
    fi
    rm -rf "$(cat "$CLUSTER_STATE/root" 2>/dev/null || echo /nonexistent)" "$CLUSTER_STATE"
}
trap cleanup EXIT
cleanup
scripts/cluster.sh start
eval "$(scripts/cluster.sh env | sed 's/^/export /')"
status=0
pgbr() {
    if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- pgbackrest --config="$PGBACKREST_CONFIG" --stanza=chidian "$@"
    else pgbackrest --config="$PGBACKREST_CONFIG" --stanza=chidian "$@"; fi
}

# alert NAME: the alert's state in Prometheus (firing, pending or inactive), and its JSON when firing.
alert_state() {
    curl -fsS "$PROMETHEUS/api/v1/alerts" | /usr/bin/python3 -c '
import json, sys
alerts = [a for a in json.load(sys.stdin)["data"]["alerts"] if a["labels"]["alertname"] == sys.argv[1]]
states = {a["state"] for a in alerts}
print("firing" if "firing" in states else "pending" if "pending" in states else "inactive")' "$1"
}
show_alert() {
    curl -fsS "$PROMETHEUS/api/v1/alerts" | /usr/bin/python3 -c '
import json, sys
for a in json.load(sys.stdin)["data"]["alerts"]:
    if a["labels"]["alertname"] == sys.argv[1] and a["state"] == "firing":
        print("alert-test:   " + json.dumps({k: a[k] for k in ("labels", "state", "activeAt", "value")} |
              {"summary": a["annotations"].get("summary")}, ensure_ascii=False))' "$1" >&2
}

# wait_firing NAME: polls Prometheus' API until NAME fires (90 s at most).
wait_firing() {
    local t0 state
    t0=$(date +%s)
    while [ $(($(date +%s) - t0)) -lt 90 ]; do
        state=$(alert_state "$1")
        if [ "$state" = firing ]; then
            say "$1 firing after $(($(date +%s) - t0)) s:"
            show_alert "$1"
            return 0
        fi
        sleep 1
    done
    say "FAILED: $1 did not fire within 90 s (last state: $state)"
    status=1
}
must_be_quiet() {
    local state
    state=$(alert_state "$1")
    [ "$state" = inactive ] || { say "FAILED: $1 is $state before its fault"; status=1; }
}

# Every target scraped at least once, the replica streaming (Prometheus sees it), the caches hearing.
for _ in $(seq 1 60); do
    up=$(curl -fsS "$PROMETHEUS/api/v1/query" --data-urlencode 'query=min(up) * count(up) * count(pg_streaming_replicas >= 1) * count(chidian_cache_heartbeat_heard_timestamp_seconds)' \
        | /usr/bin/python3 -c 'import json,sys; r=json.load(sys.stdin)["data"]["result"]; print(r[0]["value"][1] if r else 0)')
    [ "$up" = 12 ] && break
    sleep 1
done
[ "$up" = 12 ] || { say "FAILED: Prometheus does not see all 6 targets up and the replica streaming (got $up)"; exit 1; }
sleep 3
say "Prometheus scrapes all 6 targets; the replica streams"

# The scheduled first full backup reaches Prometheus (scripts/backup.sh → node_exporter's textfile → BackupTooOld).
age=""
for _ in $(seq 1 90); do
    age=$(curl -fsS "$PROMETHEUS/api/v1/query" --data-urlencode 'query=time() - max(chidian_backup_last_success_timestamp_seconds)' \
        | /usr/bin/python3 -c 'import json,sys; r=json.load(sys.stdin)["data"]["result"]; print(round(float(r[0]["value"][1])) if r else "")')
    [ -n "$age" ] && break
    sleep 1
done
if [ -n "$age" ]; then say "Prometheus sees the first full backup, ${age} s old"
else say "FAILED: no backup figure reached Prometheus within 90 s"; status=1; fi

# 1. The replica stops.
leader=$(scripts/cluster.sh leader)
replica=$((3 - leader))
must_be_quiet ReplicaNotStreaming
say "stopping the replica (pg$replica)"
scripts/cluster.sh stop-node "$replica"
wait_firing ReplicaNotStreaming
scripts/cluster.sh start-node "$replica"

# 2. The cache listener hears nothing: its PostgreSQL backend (the connection that LISTENs and sends the heartbeat)
# is frozen, as a network partition of that one connection would leave it.
must_be_quiet CacheNotHearingNotifications
stopped_pids=$(psql -qAtX "$DATABASE_URL" -c "SELECT pid FROM pg_stat_activity
    WHERE backend_type = 'client backend' AND query LIKE 'SELECT pg_notify(%' AND datname = 'chidian'")
[ -n "$stopped_pids" ] || { say "FAILED: no listener backend found"; status=1; }
say "freezing the listeners' backends (SIGSTOP: $(echo $stopped_pids))"
for pid in $stopped_pids; do kill -STOP "$pid"; done
wait_firing CacheNotHearingNotifications
for pid in $stopped_pids; do kill -CONT "$pid" 2>/dev/null || true; done
stopped_pids=""

# 3. Archiving stops: `pgbackrest stop` makes every archive-push fail; a write and a segment switch make the
# primary try.
must_be_quiet WalArchivingFailing
say "stopping archiving (pgbackrest stop) and switching WAL segments"
pgbr stop >/dev/null
psql -qAtX "$DATABASE_URL" -c "SELECT txid_current()" -c "SELECT pg_switch_wal()" >/dev/null
wait_firing WalArchivingFailing
pgbr start >/dev/null

[ "$status" = 0 ] && say "passed" || say "failed"
exit $status

#!/usr/bin/env bash
# Backups of the cluster's PostgreSQL (scripts/cluster.sh) with pgBackRest, independent of chidian itself.
#
#   scripts/backup.sh full | incr | diff    take a backup (pgBackRest finds the current primary), then refresh metrics
#   scripts/backup.sh info                  what the repository holds (backups, WAL range, sizes)
#   scripts/backup.sh metrics               rewrite the figures Prometheus reads (node_exporter's textfile directory)
#   scripts/backup.sh last-full             Unix time the last full backup finished (0 when there is none)
#
# The repository, its settings and retention are written by scripts/cluster.sh (docs/OPERATIONS.md). CLUSTER_STATE
# picks the cluster (default .cluster/).
set -euo pipefail

project=$(cd "$(dirname "$0")/.." && pwd)
state=${CLUSTER_STATE:-$project/.cluster}
[ -f "$state/root" ] || { echo "backup: no cluster in $state (make cluster)" >&2; exit 1; }
root=$(cat "$state/root")
conf=$root/pgbackrest/pgbackrest.conf
say() { echo "backup: $*" >&2; }

pgbr() {
    if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- pgbackrest --config="$conf" --stanza=chidian "$@"
    else pgbackrest --config="$conf" --stanza=chidian "$@"; fi
}

# The figures of the newest backup of each type, and the repository's size, as Prometheus text.
metrics() {
    local out=$root/metrics/backup.prom info
    info=$(pgbr info --output=json)
    INFO=$info /usr/bin/python3 - > "$out.tmp" <<'PY'
import json, os
backups = [b for s in json.loads(os.environ["INFO"]) for b in s.get("backup", [])]
latest = {}
for b in backups:
    if b["type"] not in latest or b["timestamp"]["stop"] > latest[b["type"]]["timestamp"]["stop"]:
        latest[b["type"]] = b


def gauge(name, help, values):
    print(f"# HELP {name} {help}")
    print(f"# TYPE {name} gauge")
    for labels, value in values:
        print(f"{name}{labels} {value}")


by_type = sorted(latest.items())
gauge("chidian_backup_last_success_timestamp_seconds", "When the newest backup of each type finished (Unix time).",
      [('{type="%s"}' % kind, b["timestamp"]["stop"]) for kind, b in by_type])
gauge("chidian_backup_last_duration_seconds", "How long the newest backup of each type took.",
      [('{type="%s"}' % kind, b["timestamp"]["stop"] - b["timestamp"]["start"]) for kind, b in by_type])
gauge("chidian_backup_last_stored_bytes", "What the newest backup of each type added to the repository (compressed).",
      [('{type="%s"}' % kind, b["info"]["repository"]["delta"]) for kind, b in by_type])
newest = max(backups, key=lambda b: b["timestamp"]["stop"], default=None)
gauge("chidian_backup_database_bytes", "The database cluster's size at the newest backup.",
      [("", newest["info"]["size"])] if newest else [])
gauge("chidian_backup_count", "Backups the repository holds.", [("", len(backups))])
PY
    mv "$out.tmp" "$out"
}

case "${1:-}" in
    full | incr | diff)
        started=$(date +%s.%N)
        pgbr backup --type="$1"
        say "$1 backup done in $(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s"
        metrics
        ;;
    info) pgbr info ;;
    metrics) metrics ;;
    last-full)
        pgbr info --output=json | /usr/bin/python3 -c '
import json, sys
stops = [b["timestamp"]["stop"] for s in json.load(sys.stdin) for b in s.get("backup", []) if b["type"] == "full"]
print(max(stops, default=0))'
        ;;
    *) echo "usage: scripts/backup.sh full|incr|diff|info|metrics|last-full" >&2; exit 2 ;;
esac

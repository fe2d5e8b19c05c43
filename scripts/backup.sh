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
    local out=$root/metrics/backup.prom
    pgbr info --output=json | /usr/bin/python3 -c '
import json, sys
stanzas = json.load(sys.stdin)
backups = [b for s in stanzas for b in s.get("backup", [])]
print("# HELP chidian_backup_last_success_timestamp_seconds When the newest backup of each type finished (Unix time).")
print("# TYPE chidian_backup_last_success_timestamp_seconds gauge")
latest = {}
for b in backups:
    if b["type"] not in latest or b["timestamp"]["stop"] > latest[b["type"]]["timestamp"]["stop"]:
        latest[b["type"]] = b
for kind, b in sorted(latest.items()):
    print(f"chidian_backup_last_success_timestamp_seconds{{type=\"{kind}\"}} {b[\"timestamp\"][\"stop\"]}")
print("# HELP chidian_backup_last_duration_seconds How long the newest backup of each type took.")
print("# TYPE chidian_backup_last_duration_seconds gauge")
for kind, b in sorted(latest.items()):
    print(f"chidian_backup_last_duration_seconds{{type=\"{kind}\"}} {b[\"timestamp\"][\"stop\"] - b[\"timestamp\"][\"start\"]}")
print("# HELP chidian_backup_last_stored_bytes What the newest backup of each type added to the repository (compressed).")
print("# TYPE chidian_backup_last_stored_bytes gauge")
for kind, b in sorted(latest.items()):
    print(f"chidian_backup_last_stored_bytes{{type=\"{kind}\"}} {b[\"info\"][\"repository\"][\"delta\"]}")
print("# HELP chidian_backup_database_bytes The database size at the newest backup.")
print("# TYPE chidian_backup_database_bytes gauge")
if backups:
    newest = max(backups, key=lambda b: b["timestamp"]["stop"])
    print(f"chidian_backup_database_bytes {newest[\"info\"][\"size\"]}")
print("# HELP chidian_backup_count Backups the repository holds.")
print("# TYPE chidian_backup_count gauge")
print(f"chidian_backup_count {len(backups)}")
' > "$out.tmp"
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

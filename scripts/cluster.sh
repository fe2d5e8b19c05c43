#!/usr/bin/env bash
# The scaled-out topology on loopback, from Debian's packages (installed when missing):
#
#   clients → nginx 127.0.0.1:8090 → chidian serve ×2 (two working directories)
#                                      → HAProxy: writes → Patroni's primary, reads → the streaming replica
#   PostgreSQL 15 ×2 managed by Patroni, leader election in etcd; synchronous replication when both are up.
#
#   scripts/cluster.sh start | stop | status | env | kill-server N | start-server N | stop-node N | start-node N
#                      | kill-node N | leader | sync-standby
# `start` is idempotent; `stop` stops everything it started, by PID, and keeps the data (`reset` removes it).
# Ports are remembered in the state folder (.cluster/, or CLUSTER_STATE); nginx listens on 127.0.0.1:8090
# (CLUSTER_PORT). CHIDIAN_BIN: the binary the servers run (default: the debug build).
set -euo pipefail

project=$(cd "$(dirname "$0")/.." && pwd)
cd "$project"
state=${CLUSTER_STATE:-$project/.cluster}
bin=${CHIDIAN_BIN:-$project/.build/debug/chidian}
pgbin=/usr/lib/postgresql/15/bin
front_port=${CLUSTER_PORT:-8090}

say() { echo "cluster: $*" >&2; }
die() { say "$*"; exit 1; }
as_owner() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
# Like as_owner, but exec'ing (no runuser parent left behind), so $! is the daemon's own PID.
exec_as_owner() {
    if [ "$(id -u)" -eq 0 ]; then exec setpriv --reuid=postgres --regid=postgres --init-groups -- "$@"; else exec "$@"; fi
}

install_missing() {
    local missing=()
    command -v etcd >/dev/null || missing+=(etcd-server)
    command -v patroni >/dev/null || missing+=(patroni)
    /usr/bin/python3 -c "import etcd" 2>/dev/null || missing+=(python3-etcd)
    command -v haproxy >/dev/null || missing+=(haproxy)
    [ -x /usr/sbin/nginx ] || missing+=(nginx)
    [ -x "$pgbin/initdb" ] || missing+=(postgresql-15 postgresql-contrib)
    [ -f /usr/share/postgresql/15/extension/postgis.control ] || missing+=(postgresql-15-postgis-3)
    [ ${#missing[@]} -eq 0 ] && return 0
    say "installing ${missing[*]}"
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# Where the data lives: the postgres user must be able to enter it (as db.sh decides).
choose_root() {
    if [ "$(id -u)" -eq 0 ] && ! runuser -u postgres -- test -x "$project" || [ ${#state} -gt 70 ]; then
        echo "${TMPDIR:-/tmp}/chidian-cluster-$(echo -n "$state" | sha256sum | cut -c1-12)"
    else
        echo "$state/data"
    fi
}

taken() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
free_port() {
    local port=$1
    while taken "$port" || grep -qx "$port" "$state/ports.used" 2>/dev/null; do port=$((port + 1)); done
    echo "$port" >> "$state/ports.used"
    echo "$port"
}

# Ports are chosen once and kept, so a restarted piece comes back where the others expect it.
load_ports() {
    if [ ! -f "$state/ports" ]; then
        : > "$state/ports.used"
        {
            echo "etcd_client=$(free_port 23790)"
            echo "etcd_peer=$(free_port 23800)"
            echo "pg1=$(free_port 25432)"
            echo "pg2=$(free_port 25433)"
            echo "rest1=$(free_port 18008)"
            echo "rest2=$(free_port 18009)"
            echo "write_port=$(free_port 25440)"
            echo "read_port=$(free_port 25441)"
            echo "server1=$(free_port 18081)"
            echo "server2=$(free_port 18082)"
        } > "$state/ports"
    fi
    # shellcheck disable=SC1091
    . "$state/ports"
    root=$(cat "$state/root")
}

pid_alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

# wait_for DESCRIPTION SECONDS COMMAND...
wait_for() {
    local what=$1 limit=$2
    shift 2
    for _ in $(seq 1 $((limit * 5))); do
        "$@" >/dev/null 2>&1 && return 0
        sleep 0.2
    done
    die "$what did not come up within ${limit}s (logs in $root)"
}

write_url() { echo "postgres://postgres@127.0.0.1:$write_port/chidian"; }
read_url() { echo "postgres://postgres@127.0.0.1:$read_port/chidian"; }

start_etcd() {
    pid_alive "$root/etcd.pid" && return 0
    mkdir -p "$root/etcd"
    etcd --name chidian --data-dir "$root/etcd" \
        --listen-client-urls "http://127.0.0.1:$etcd_client" --advertise-client-urls "http://127.0.0.1:$etcd_client" \
        --listen-peer-urls "http://127.0.0.1:$etcd_peer" --initial-advertise-peer-urls "http://127.0.0.1:$etcd_peer" \
        --initial-cluster "chidian=http://127.0.0.1:$etcd_peer" >"$root/etcd.log" 2>&1 &
    echo $! > "$root/etcd.pid"
    wait_for etcd 20 curl -fsS -m 1 "http://127.0.0.1:$etcd_client/health"
}

# Patroni's settings for node N. Short timings so a lost primary is replaced within about ten seconds.
patroni_config() {
    local n=$1 pg rest
    pg=$(eval echo "\$pg$n")
    rest=$(eval echo "\$rest$n")
    cat <<EOF
scope: chidian
name: pg$n
log:
  level: ${PATRONI_LOG_LEVEL:-WARNING}
restapi:
  listen: 127.0.0.1:$rest
  connect_address: 127.0.0.1:$rest
etcd3:
  hosts: 127.0.0.1:$etcd_client
bootstrap:
  dcs:
    ttl: 10
    loop_wait: 1
    retry_timeout: 4
    maximum_lag_on_failover: 1048576
    # Commits wait for the standby while it is up, so the promoted replica has every acknowledged write;
    # with the standby down the primary goes on alone (not strict).
    synchronous_mode: true
    postgresql:
      use_pg_rewind: true
      parameters:
        max_connections: 300
        wal_level: replica
        hot_standby: "on"
        wal_log_hints: "on"
        max_wal_senders: 10
        max_replication_slots: 10
        hot_standby_feedback: "on"
  initdb:
    - encoding: UTF8
    - locale: C.UTF-8
    - auth: trust
postgresql:
  listen: 127.0.0.1:$pg
  connect_address: 127.0.0.1:$pg
  data_dir: $root/pg$n/data
  bin_dir: $pgbin
  pgpass: $root/pg$n/pgpass
  remove_data_directory_on_rewind_failure: true
  remove_data_directory_on_diverged_timelines: true
  pg_hba:
    - local all all trust
    - host all all 127.0.0.1/32 trust
    - host replication replicator 127.0.0.1/32 trust
  authentication:
    superuser:
      username: postgres
      password: chidian
    replication:
      username: replicator
      password: chidian
  parameters:
    unix_socket_directories: $root/pg$n
EOF
}

start_node() {
    local n=$1
    pid_alive "$root/patroni$n.pid" && return 0
    mkdir -p "$root/pg$n"
    patroni_config "$n" > "$root/pg$n/patroni.yml"
    [ "$(id -u)" -eq 0 ] && chown -R postgres:postgres "$root/pg$n"
    (exec_as_owner /usr/bin/patroni "$root/pg$n/patroni.yml") >"$root/patroni$n.log" 2>&1 &
    echo $! > "$root/patroni$n.pid"
}

# An HTTP check against node N's Patroni: primary | replica | health.
patroni_says() { local rest; rest=$(eval echo "\$rest$1"); curl -fsS -m 1 "http://127.0.0.1:$rest/$2"; }
leader() {
    for n in 1 2; do patroni_says "$n" primary >/dev/null 2>&1 && { echo "$n"; return 0; }; done
    return 1
}

# The node Patroni has made the synchronous standby (the only one it will promote), if any.
sync_standby() {
    local n
    for n in 1 2; do
        patroni_says "$n" cluster 2>/dev/null | /usr/bin/python3 -c '
import json, sys
members = json.load(sys.stdin)["members"]
print(next((m["name"][2:] for m in members if m["role"] == "sync_standby" and m["state"] in ("streaming", "running")), ""))' \
            && return 0
    done
    return 1
}

stop_node() {
    local n=$1
    pid_alive "$root/patroni$n.pid" || return 0
    local pid
    pid=$(cat "$root/patroni$n.pid")
    # Patroni stops its PostgreSQL on SIGTERM.
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 150); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -KILL "$pid" 2>/dev/null || true
    rm -f "$root/patroni$n.pid"
}

# A machine loss: Patroni and its PostgreSQL killed at once, nothing shut down cleanly.
kill_node() {
    local n=$1 pm
    if pid_alive "$root/patroni$n.pid"; then kill -KILL "$(cat "$root/patroni$n.pid")" 2>/dev/null || true; fi
    rm -f "$root/patroni$n.pid"
    pm=$(head -1 "$root/pg$n/data/postmaster.pid" 2>/dev/null || true)
    [ -n "$pm" ] && kill -KILL "$pm" 2>/dev/null || true
    # Orphaned backends die once the postmaster is gone; give them a moment so the port frees up.
    for _ in $(seq 1 50); do taken "$(eval echo "\$pg$n")" || break; sleep 0.1; done
}

start_haproxy() {
    pid_alive "$root/haproxy.pid" && return 0
    cat > "$root/haproxy.cfg" <<EOF
global
    maxconn 2000
defaults
    mode tcp
    timeout connect 1s
    timeout client 1h
    timeout server 1h
    timeout check 1s
    default-server inter 500ms fall 2 rise 1 on-marked-down shutdown-sessions
# Writes (and reads that must see them): whichever node Patroni says is the primary.
listen primary
    bind 127.0.0.1:$write_port
    option httpchk
    http-check send meth OPTIONS uri /primary
    http-check expect status 200
    server pg1 127.0.0.1:$pg1 check port $rest1
    server pg2 127.0.0.1:$pg2 check port $rest2
# Reads that tolerate a little staleness: any running replica.
listen replicas
    bind 127.0.0.1:$read_port
    balance roundrobin
    option httpchk
    http-check send meth OPTIONS uri /replica
    http-check expect status 200
    server pg1 127.0.0.1:$pg1 check port $rest1
    server pg2 127.0.0.1:$pg2 check port $rest2
EOF
    haproxy -f "$root/haproxy.cfg" -db >"$root/haproxy.log" 2>&1 &
    echo $! > "$root/haproxy.pid"
}

start_server() {
    local n=$1 port
    port=$(eval echo "\$server$n")
    pid_alive "$root/server$n.pid" && return 0
    # Each server runs from its own working directory: nothing may depend on where it was started.
    mkdir -p "$state/server$n"
    (
        cd "$state/server$n"
        # CLUSTER_REPLICA_READS=0: every read on the primary (the comparison in scripts/cluster-bench.sh).
        [ "${CLUSTER_REPLICA_READS:-1}" = 0 ] || export DATABASE_READ_URLS=$(read_url)
        DATABASE_URL=$(write_url) TRUSTED_PROXIES=127.0.0.1 LOG_LEVEL=${LOG_LEVEL:-warning} \
            exec "$bin" serve --migrate --host 127.0.0.1 --port "$port"
    ) >"$root/server$n.log" 2>&1 &
    echo $! > "$root/server$n.pid"
}

kill_server() { pid_alive "$root/server$1.pid" && kill -KILL "$(cat "$root/server$1.pid")" 2>/dev/null; rm -f "$root/server$1.pid"; }

start_nginx() {
    pid_alive "$root/nginx/nginx.pid" && return 0
    mkdir -p "$root/nginx/tmp"
    local user=""
    [ "$(id -u)" -eq 0 ] && { user="user postgres;"; chown -R postgres "$root/nginx/tmp"; }
    cat > "$root/nginx/nginx.conf" <<EOF
$user
worker_processes 1;
pid $root/nginx/nginx.pid;
error_log $root/nginx/error.log warn;
events { worker_connections 2048; }
http {
    access_log off;
    client_body_temp_path $root/nginx/tmp/body;
    proxy_temp_path $root/nginx/tmp/proxy;
    fastcgi_temp_path $root/nginx/tmp/fastcgi;
    uwsgi_temp_path $root/nginx/tmp/uwsgi;
    scgi_temp_path $root/nginx/tmp/scgi;
    client_max_body_size 10m;
    upstream chidian {
        # Passive health checks: a server that fails is left out for 5 s.
        server 127.0.0.1:$server1 max_fails=1 fail_timeout=5s;
        server 127.0.0.1:$server2 max_fails=1 fail_timeout=5s;
        keepalive 64;
    }
    server {
        listen 127.0.0.1:$front_port;
        location / {
            proxy_pass http://chidian;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host \$host;
            proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto \$scheme;
            proxy_connect_timeout 1s;
            proxy_read_timeout 30s;
            # Another server is tried on a refused connection or a gateway error; nginx never repeats a
            # POST, PATCH or DELETE (no non_idempotent here), so a purchase cannot be made twice.
            proxy_next_upstream error timeout http_502;
            proxy_next_upstream_tries 2;
        }
    }
}
EOF
    /usr/sbin/nginx -p "$root/nginx" -c "$root/nginx/nginx.conf" -g 'daemon off;' >"$root/nginx/stdout.log" 2>&1 &
    echo $! > "$root/nginx/master.pid"
    wait_for nginx 10 taken "$front_port"
}

start() {
    [ -x "$bin" ] || die "$bin is missing: run swift build first"
    install_missing
    mkdir -p "$state"
    [ -f "$state/root" ] || choose_root > "$state/root"
    load_ports
    mkdir -p "$root"
    [ "$(id -u)" -eq 0 ] && chown postgres:postgres "$root"
    start_etcd
    # Both at once: on a restart either may be the one entitled to lead (the last synchronous standby).
    start_node 1
    start_node 2
    wait_for "a Patroni primary" 60 leader
    start_haproxy
    wait_for "the primary through HAProxy" 20 psql -qAtX "postgres://postgres@127.0.0.1:$write_port/postgres" -c "SELECT 1"
    if ! psql -qAtX "postgres://postgres@127.0.0.1:$write_port/postgres" \
        -c "SELECT 1 FROM pg_database WHERE datname = 'chidian'" | grep -q 1; then
        psql -qAtX "postgres://postgres@127.0.0.1:$write_port/postgres" -c "CREATE DATABASE chidian" >/dev/null
    fi
    local other=$((3 - $(leader)))
    wait_for "the streaming replica" 90 patroni_says "$other" replica
    wait_for "the replica through HAProxy" 20 psql -qAtX "$(read_url)" -c "SELECT 1"
    # Both servers start together with --migrate: the migrator's advisory lock lets one apply the files.
    start_server 1
    start_server 2
    for n in 1 2; do wait_for "server $n" 60 curl -fsS -m 1 "http://127.0.0.1:$(eval echo "\$server$n")/ready"; done
    [ -n "${CLUSTER_NO_SEED:-}" ] || DATABASE_URL=$(write_url) LOG_LEVEL=warning "$bin" seed seed >/dev/null
    start_nginx
    say "up: http://127.0.0.1:$front_port (servers :$server1 :$server2; primary via :$write_port, replicas via :$read_port)"
}

stop() {
    [ -f "$state/root" ] || { say "not started"; return 0; }
    load_ports
    if pid_alive "$root/nginx/master.pid"; then kill -QUIT "$(cat "$root/nginx/master.pid")"; fi
    for n in 1 2; do
        if pid_alive "$root/server$n.pid"; then kill -TERM "$(cat "$root/server$n.pid")"; fi
    done
    for n in 1 2; do
        for _ in $(seq 1 50); do pid_alive "$root/server$n.pid" || break; sleep 0.2; done
        kill_server "$n" || true
    done
    if pid_alive "$root/haproxy.pid"; then kill -TERM "$(cat "$root/haproxy.pid")"; fi
    # The replica first, so the primary's shutdown is not a failover.
    local first=2
    [ "$(leader 2>/dev/null || echo 1)" = 2 ] && first=1
    stop_node "$first"
    stop_node $((3 - first))
    if pid_alive "$root/etcd.pid"; then kill -TERM "$(cat "$root/etcd.pid")"; fi
    sleep 0.5
    for f in "$root/nginx/master.pid" "$root/haproxy.pid" "$root/etcd.pid"; do
        pid_alive "$f" && kill -KILL "$(cat "$f")" 2>/dev/null || true
        rm -f "$f"
    done
    say "stopped"
}

status() {
    [ -f "$state/root" ] || { echo "not started"; return 1; }
    load_ports
    local up=0
    for piece in etcd patroni1 patroni2 haproxy server1 server2 nginx/master; do
        if pid_alive "$root/$piece.pid"; then echo "$piece: running (pid $(cat "$root/$piece.pid"))"; up=$((up + 1))
        else echo "$piece: stopped"; fi
    done
    for n in 1 2; do
        local role=down
        patroni_says "$n" primary >/dev/null 2>&1 && role=primary
        patroni_says "$n" replica >/dev/null 2>&1 && role=replica
        echo "pg$n (127.0.0.1:$(eval echo "\$pg$n")): $role"
    done
    echo "front: http://127.0.0.1:$front_port"
    [ "$up" -eq 7 ]
}

case "${1:-status}" in
    start) start ;;
    stop) stop ;;
    status) status ;;
    reset) stop; rm -rf "$(cat "$state/root" 2>/dev/null || echo /nonexistent)" "$state" ;;
    env) load_ports; echo "DATABASE_URL=$(write_url)"; echo "DATABASE_READ_URLS=$(read_url)"; echo "FRONT=http://127.0.0.1:$front_port"
        echo "SERVER1=http://127.0.0.1:$server1"; echo "SERVER2=http://127.0.0.1:$server2" ;;
    leader) load_ports; leader ;;
    sync-standby) load_ports; sync_standby ;;
    kill-server) load_ports; kill_server "$2" ;;
    start-server) load_ports; start_server "$2"; wait_for "server $2" 60 curl -fsS -m 1 "http://127.0.0.1:$(eval echo "\$server$2")/ready" ;;
    stop-node) load_ports; stop_node "$2" ;;
    start-node) load_ports; start_node "$2" ;;
    kill-node) load_ports; kill_node "$2" ;;
    *) echo "usage: scripts/cluster.sh start|stop|status|reset|env|leader|kill-server N|start-server N|stop-node N|start-node N|kill-node N" >&2; exit 2 ;;
esac

#!/usr/bin/env bash
# The scaled-out topology on loopback, from Debian's packages (installed when missing):
#
#   clients → nginx https://127.0.0.1:8443 (http://127.0.0.1:8090 redirects) → chidian serve ×2 (two working
#             directories) → HAProxy: writes → Patroni's primary, reads → the streaming replica
#   PostgreSQL 15 ×2 managed by Patroni, leader election in etcd; synchronous replication when both are up;
#   every node archives its WAL into a pgBackRest repository (whichever is primary pushes), backed up on a schedule.
#   Prometheus scrapes both servers, a postgres_exporter per node and a node_exporter; alert rules in
#   scripts/cluster/alerts.yml (docs/OPERATIONS.md).
#
#   scripts/cluster.sh start | stop | status | env | deploy | kill-server N | start-server N | stop-node N
#                      | start-node N | kill-node N | leader | sync-standby | drain N | undrain N
# `start` is idempotent; `stop` stops everything it started, by PID, and keeps the data (`reset` removes it).
# Ports are remembered in the state folder (.cluster/, or CLUSTER_STATE); nginx listens on 127.0.0.1:8090
# (CLUSTER_PORT) and, with TLS (CLUSTER_TLS=1, the default), 127.0.0.1:8443 (CLUSTER_TLS_PORT).
# CHIDIAN_BIN: the binary the servers run (default: the debug build); `deploy` replaces the running ones with it.
set -euo pipefail

project=$(cd "$(dirname "$0")/.." && pwd)
cd "$project"
state=${CLUSTER_STATE:-$project/.cluster}
bin=${CHIDIAN_BIN:-$project/.build/debug/chidian}
pgbin=/usr/lib/postgresql/15/bin
front_port=${CLUSTER_PORT:-8090}
tls_port=${CLUSTER_TLS_PORT:-8443}
tls=${CLUSTER_TLS:-1}
pgbr_stanza=chidian

say() { echo "cluster: $*" >&2; }
. "$project/scripts/lib/common.sh"
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
    command -v pgbackrest >/dev/null || missing+=(pgbackrest)
    command -v prometheus >/dev/null || missing+=(prometheus)
    command -v prometheus-postgres-exporter >/dev/null || missing+=(prometheus-postgres-exporter)
    command -v prometheus-node-exporter >/dev/null || missing+=(prometheus-node-exporter)
    command -v openssl >/dev/null || missing+=(openssl)
    [ -f /usr/share/postgresql/15/extension/postgis.control ] || missing+=(postgresql-15-postgis-3)
    [ ${#missing[@]} -eq 0 ] && return 0
    say "installing ${missing[*]}"
    "$project/scripts/lib/apt-install.sh" --no-install-recommends "${missing[@]}"
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
# Free on this machine (scripts/lib/common.sh, which also keeps other checkouts' fresh choices) and not yet given
# to another piece of this cluster.
cluster_port() {
    local port=$1
    while :; do
        port=$(free_port "$port")
        grep -qx "$port" "$state/ports.used" 2>/dev/null || break
        port=$((port + 1))
    done
    echo "$port" >> "$state/ports.used"
    echo "$port"
}

# Ports are chosen once and kept, so a restarted piece comes back where the others expect it (a state folder from
# before a piece existed gains its port on the next start).
load_ports() {
    [ -f "$state/ports" ] || : > "$state/ports.used"
    touch "$state/ports"
    local name first
    while read -r name first; do
        grep -q "^$name=" "$state/ports" || echo "$name=$(cluster_port "$first")" >> "$state/ports"
    done <<EOF
etcd_client 23790
etcd_peer 23800
pg1 25432
pg2 25433
rest1 18008
rest2 18009
write_port 25440
read_port 25441
server1 18081
server2 18082
prometheus 25450
exporter1 25451
exporter2 25452
node_exporter 25453
EOF
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
    # Continuous archiving into the pgBackRest repository: every node carries the command, so whichever is the
    # primary after a failover goes on archiving (a standby archives nothing with archive_mode on).
    archive_mode: "on"
    archive_command: "pgbackrest --config=$root/pgbackrest/pgbackrest.conf --stanza=$pgbr_stanza --pg1-path=$root/pg$n/data archive-push %p"
    # A quiet primary still closes a segment a minute, so at most a minute of writes waits for the archive.
    archive_timeout: 60
EOF
}

# pgBackRest's settings: the repository under the cluster's data, both nodes (a backup finds the primary itself).
pgbackrest_config() {
    cat <<EOF
[global]
repo1-path=$root/pgbackrest/repo
# Two full backups are kept, with the incrementals and WAL that depend on them: any time since the older full can be
# restored. Full weekly and incremental hourly (the schedule in backup_loop) make that one to two weeks.
repo1-retention-full=${BACKUP_RETENTION_FULL:-2}
log-path=$root/pgbackrest/log
lock-path=$root/pgbackrest/lock
spool-path=$root/pgbackrest/spool
compress-type=lz4
process-max=2
start-fast=y
log-level-console=warn
log-level-file=info

[$pgbr_stanza]
pg1-path=$root/pg1/data
pg1-port=$pg1
pg1-socket-path=$root/pg1
pg2-path=$root/pg2/data
pg2-port=$pg2
pg2-socket-path=$root/pg2
EOF
}

pgbr() { as_owner pgbackrest --config="$root/pgbackrest/pgbackrest.conf" --stanza=$pgbr_stanza "$@"; }

setup_pgbackrest() {
    mkdir -p "$root/pgbackrest/repo" "$root/pgbackrest/log" "$root/pgbackrest/lock" "$root/pgbackrest/spool" "$root/metrics"
    pgbackrest_config > "$root/pgbackrest/pgbackrest.conf"
    [ "$(id -u)" -eq 0 ] && chown -R postgres:postgres "$root/pgbackrest" "$root/metrics"
    return 0
}

# The stanza is created once the first primary is up; `check` proves a WAL segment reaches the repository.
create_stanza() {
    # Their warnings (the standby may not be up yet) go to a log; a failure is said here.
    local log=$root/pgbackrest/log/cluster-start.log
    pgbr stanza-create >>"$log" 2>&1 || pgbr stanza-upgrade >>"$log" 2>&1 || say "warning: pgbackrest stanza-create failed ($log)"
    pgbr check >>"$log" 2>&1 || say "warning: pgbackrest check failed ($log)"
}

# The schedule: a full backup when there is none or the last is older than BACKUP_FULL_EVERY (a week), an
# incremental every BACKUP_INCR_EVERY (an hour). One loop per cluster, started by `start`; cron lines doing the same
# are in docs/OPERATIONS.md.
backup_loop() {
    local full_every=${BACKUP_FULL_EVERY:-604800} incr_every=${BACKUP_INCR_EVERY:-3600} last_full sleeper=""
    # `stop` sends SIGTERM: the pending sleep goes too, not left behind for an hour.
    trap '[ -n "$sleeper" ] && kill "$sleeper" 2>/dev/null; exit 0' TERM
    while true; do
        last_full=$("$project/scripts/backup.sh" last-full 2>/dev/null || echo 0)
        if [ $(($(date +%s) - last_full)) -ge "$full_every" ]; then
            "$project/scripts/backup.sh" full || true
        else
            "$project/scripts/backup.sh" incr || true
        fi
        sleep "$incr_every" &
        sleeper=$!
        wait "$sleeper" || true
    done
}

start_backup_loop() {
    [ "${CLUSTER_BACKUPS:-1}" = 1 ] || return 0
    pid_alive "$root/backup-loop.pid" && return 0
    (CLUSTER_STATE=$state exec "$project/scripts/cluster.sh" backup-loop) >>"$root/backup-loop.log" 2>&1 &
    echo $! > "$root/backup-loop.pid"
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

# nginx's configuration: the upstream (a drained server marked `down`), TLS with HSTS and an HTTP port that only
# redirects (CLUSTER_TLS=0: plain HTTP on the front port), and nginx's own errors as problem+json.
nginx_config() {
    local user="" n mark
    [ "$(id -u)" -eq 0 ] && user="user postgres;"
    local hsts=""
    [ "$tls" = 1 ] && hsts='add_header Strict-Transport-Security "max-age=31536000; includeSubDomains" always;'
    cat <<EOF
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
        # Passive health checks: a server that fails is left out for 5 s. A server being replaced (deploy) is
        # marked down first, so nginx sends it nothing new while it finishes what it has.
EOF
    for n in 1 2; do
        mark=""
        [ -f "$root/nginx/drained$n" ] && mark=" down"
        echo "        server 127.0.0.1:$(eval echo "\$server$n") max_fails=1 fail_timeout=5s$mark;"
    done
    cat <<EOF
        keepalive 64;
    }
EOF
    if [ "$tls" = 1 ]; then
        cat <<EOF
    # Plain HTTP only redirects (308 keeps the method and body of a POST).
    server {
        listen 127.0.0.1:$front_port;
        location / { return 308 https://\$host:$tls_port\$request_uri; }
    }
    server {
        listen 127.0.0.1:$tls_port ssl;
        ssl_certificate $root/tls/cert.pem;
        ssl_certificate_key $root/tls/key.pem;
        ssl_protocols TLSv1.2 TLSv1.3;
        ssl_session_cache shared:tls:1m;
        $hsts
EOF
    else
        cat <<EOF
    server {
        listen 127.0.0.1:$front_port;
EOF
    fi
    cat <<EOF
        location / {
            proxy_pass http://chidian;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host \$host;
            proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
            # https behind TLS: the servers mark their cookies Secure.
            proxy_set_header X-Forwarded-Proto \$scheme;
            proxy_connect_timeout 1s;
            proxy_read_timeout 30s;
            # Another server is tried on a refused connection or a gateway error; nginx never repeats a
            # POST, PATCH or DELETE (no non_idempotent here), so a purchase cannot be made twice.
            proxy_next_upstream error timeout http_502 http_504;
            proxy_next_upstream_tries 2;
        }
        # What nginx answers itself (no server could answer) is problem+json like every other error; the servers'
        # own errors pass through untouched (no proxy_intercept_errors).
        error_page 500 @internal_error;
        error_page 502 @bad_gateway;
        error_page 503 @unavailable;
        error_page 504 @gateway_timeout;
EOF
    local status code title detail
    while IFS='|' read -r status code title detail; do
        cat <<EOF
        location @$code {
            default_type application/problem+json;
            add_header Retry-After 1 always;
            add_header Cache-Control no-store always;
            $hsts
            return $status '{"code":"$code","detail":"$detail","requestId":"\$request_id","status":$status,"title":"$title","type":"https://chidian.dev/problems/${code//_/-}"}';
        }
EOF
    done <<'ERRORS'
500|internal_error|Internal Server Error|The proxy failed; try again shortly.
502|bad_gateway|Bad Gateway|No server could answer; try again shortly.
503|unavailable|Service Unavailable|No server is available; try again shortly.
504|gateway_timeout|Gateway Timeout|The server did not answer in time; try again shortly.
ERRORS
    cat <<EOF
    }
}
EOF
}

# A self-signed certificate for 127.0.0.1 and localhost, made once (a real deployment puts its own here).
make_certificate() {
    [ -f "$root/tls/cert.pem" ] && return 0
    mkdir -p "$root/tls"
    openssl req -x509 -newkey rsa:2048 -nodes -days 365 -subj "/CN=localhost" \
        -addext "subjectAltName=IP:127.0.0.1,DNS:localhost" \
        -keyout "$root/tls/key.pem" -out "$root/tls/cert.pem" >/dev/null 2>&1
    chmod 600 "$root/tls/key.pem"
}

nginx_cmd() { /usr/sbin/nginx -p "$root/nginx" -c "$root/nginx/nginx.conf" "$@"; }

start_nginx() {
    pid_alive "$root/nginx/master.pid" && return 0
    mkdir -p "$root/nginx/tmp"
    [ "$(id -u)" -eq 0 ] && chown -R postgres "$root/nginx/tmp"
    [ "$tls" = 1 ] && make_certificate
    nginx_config > "$root/nginx/nginx.conf"
    # nginx itself in the background (not a shell function, whose subshell's PID $! would be).
    /usr/sbin/nginx -p "$root/nginx" -c "$root/nginx/nginx.conf" -g 'daemon off;' >"$root/nginx/stdout.log" 2>&1 &
    echo $! > "$root/nginx/master.pid"
    wait_for nginx 10 taken "$front_port"
}

# Rewrites the configuration and reloads it, then waits until the old workers have finished their requests and
# exited (they hold keep-alive connections to the servers of the old configuration).
reload_nginx() {
    nginx_config > "$root/nginx/nginx.conf"
    nginx_cmd -t -q || die "the new nginx configuration is invalid"
    local master old pid
    master=$(cat "$root/nginx/master.pid")
    old=$(pgrep -P "$master" || true)
    kill -HUP "$master"
    for _ in $(seq 1 300); do
        local left=0
        for pid in $old; do kill -0 "$pid" 2>/dev/null && left=1; done
        [ "$left" = 0 ] && return 0
        sleep 0.1
    done
    say "warning: old nginx workers still running after 30 s"
}

drain() { touch "$root/nginx/drained$1"; reload_nginx; }
undrain() { rm -f "$root/nginx/drained$1"; reload_nginx; }

server_ready() { curl -fsS -m 1 "http://127.0.0.1:$(eval echo "\$server$1")/ready"; }

# Replaces the servers one at a time with CHIDIAN_BIN: drain it in nginx, SIGTERM (it finishes what it has), start
# the new binary, wait for /ready, put it back; then the next. The other server takes every request meanwhile.
# Migrations run first (the new binary's `migrate`), so they must suit the old binary too (docs/OPERATIONS.md).
deploy() {
    [ -x "$bin" ] || die "$bin is missing"
    local n pid t0
    t0=$(date +%s.%N)
    DATABASE_URL=$(write_url) LOG_LEVEL=warning "$bin" migrate >/dev/null
    for n in 1 2; do
        local other=$((3 - n))
        server_ready "$other" >/dev/null 2>&1 || die "server $other is not ready: deploying server $n would leave none"
        say "deploy: draining server $n"
        drain "$n"
        if pid_alive "$root/server$n.pid"; then
            pid=$(cat "$root/server$n.pid")
            kill -TERM "$pid"
            for _ in $(seq 1 150); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
            kill -KILL "$pid" 2>/dev/null || true
            rm -f "$root/server$n.pid"
        fi
        start_server "$n"
        wait_for "server $n" 60 server_ready "$n"
        undrain "$n"
        say "deploy: server $n runs $bin"
    done
    say "deploy: done in $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s"
}

# --- Monitoring: a postgres_exporter per node, a node_exporter (disk, and the backup figures backup.sh writes as a
# textfile), Prometheus with the rules of scripts/cluster/alerts.yml. ALERT_FOR shortens every rule's `for` and
# PROMETHEUS_INTERVAL the scrape and evaluation interval (the alert test uses both).
start_exporters() {
    local n pg port
    for n in 1 2; do
        pid_alive "$root/exporter$n.pid" && continue
        pg=$(eval echo "\$pg$n")
        port=$(eval echo "\$exporter$n")
        DATA_SOURCE_NAME="postgresql://postgres@127.0.0.1:$pg/postgres?sslmode=disable" \
            prometheus-postgres-exporter --web.listen-address="127.0.0.1:$port" \
            --extend.query-path="$project/scripts/cluster/pg-queries.yml" --log.level=warn \
            >"$root/exporter$n.log" 2>&1 &
        echo $! > "$root/exporter$n.pid"
    done
    if ! pid_alive "$root/node_exporter.pid"; then
        prometheus-node-exporter --web.listen-address="127.0.0.1:$node_exporter" \
            --collector.textfile.directory="$root/metrics" --log.level=warn >"$root/node_exporter.log" 2>&1 &
        echo $! > "$root/node_exporter.pid"
    fi
}

prometheus_config() {
    local every=${PROMETHEUS_INTERVAL:-10s}
    cat <<EOF
global:
  scrape_interval: $every
  evaluation_interval: $every
rule_files:
  - $root/prometheus/alerts.yml
scrape_configs:
  - job_name: chidian
    static_configs:
      - targets: ["127.0.0.1:$server1", "127.0.0.1:$server2"]
  - job_name: postgres
    static_configs:
      - targets: ["127.0.0.1:$exporter1"]
        labels: {node: pg1}
      - targets: ["127.0.0.1:$exporter2"]
        labels: {node: pg2}
  - job_name: node
    static_configs:
      - targets: ["127.0.0.1:$node_exporter"]
  - job_name: prometheus
    static_configs:
      - targets: ["127.0.0.1:$prometheus"]
EOF
}

start_prometheus() {
    pid_alive "$root/prometheus.pid" && return 0
    mkdir -p "$root/prometheus/data"
    prometheus_config > "$root/prometheus/prometheus.yml"
    if [ -n "${ALERT_FOR:-}" ]; then
        sed -E "s/^( +for: ).*/\1$ALERT_FOR/" "$project/scripts/cluster/alerts.yml" > "$root/prometheus/alerts.yml"
    else
        cp "$project/scripts/cluster/alerts.yml" "$root/prometheus/alerts.yml"
    fi
    prometheus --config.file="$root/prometheus/prometheus.yml" --storage.tsdb.path="$root/prometheus/data" \
        --storage.tsdb.retention.time=15d --web.listen-address="127.0.0.1:$prometheus" --log.level=warn \
        >"$root/prometheus.log" 2>&1 &
    echo $! > "$root/prometheus.pid"
    wait_for prometheus 30 curl -fsS -m 1 "http://127.0.0.1:$prometheus/-/ready"
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
    setup_pgbackrest
    # Both at once: on a restart either may be the one entitled to lead (the last synchronous standby).
    start_node 1
    start_node 2
    wait_for "a Patroni primary" 60 leader
    start_haproxy
    create_stanza
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
    start_exporters
    start_prometheus
    start_backup_loop
    say "up: $(front_url) (servers :$server1 :$server2; primary via :$write_port, replicas via :$read_port;" \
        "Prometheus http://127.0.0.1:$prometheus)"
}

front_url() { if [ "$tls" = 1 ]; then echo "https://127.0.0.1:$tls_port"; else echo "http://127.0.0.1:$front_port"; fi; }

stop() {
    [ -f "$state/root" ] || { say "not started"; return 0; }
    load_ports
    if pid_alive "$root/nginx/master.pid"; then kill -QUIT "$(cat "$root/nginx/master.pid")"; fi
    for piece in backup-loop prometheus exporter1 exporter2 node_exporter; do
        if pid_alive "$root/$piece.pid"; then kill -TERM "$(cat "$root/$piece.pid")"; fi
        rm -f "$root/$piece.pid"
    done
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
    for piece in etcd patroni1 patroni2 haproxy server1 server2 nginx/master exporter1 exporter2 node_exporter \
        prometheus backup-loop; do
        if pid_alive "$root/$piece.pid"; then echo "$piece: running (pid $(cat "$root/$piece.pid"))"; up=$((up + 1))
        else echo "$piece: stopped"; fi
    done
    for n in 1 2; do
        local role=down
        patroni_says "$n" primary >/dev/null 2>&1 && role=primary
        patroni_says "$n" replica >/dev/null 2>&1 && role=replica
        echo "pg$n (127.0.0.1:$(eval echo "\$pg$n")): $role"
    done
    echo "front: $(front_url)"
    echo "prometheus: http://127.0.0.1:$prometheus"
    [ "$up" -ge 11 ]
}

case "${1:-status}" in
    start) start ;;
    stop) stop ;;
    status) status ;;
    reset) stop; rm -rf "$(cat "$state/root" 2>/dev/null || echo /nonexistent)" "$state" ;;
    env) load_ports; echo "DATABASE_URL=$(write_url)"; echo "DATABASE_READ_URLS=$(read_url)"; echo "FRONT=$(front_url)"
        echo "FRONT_HTTP=http://127.0.0.1:$front_port"
        echo "SERVER1=http://127.0.0.1:$server1"; echo "SERVER2=http://127.0.0.1:$server2"
        echo "PROMETHEUS=http://127.0.0.1:$prometheus"; echo "CLUSTER_ROOT=$root"
        echo "PGBACKREST_CONFIG=$root/pgbackrest/pgbackrest.conf"; echo "PGBACKREST_STANZA=$pgbr_stanza" ;;
    deploy) load_ports; deploy ;;
    drain) load_ports; drain "$2" ;;
    undrain) load_ports; undrain "$2" ;;
    backup-loop) load_ports; backup_loop ;;
    leader) load_ports; leader ;;
    sync-standby) load_ports; sync_standby ;;
    kill-server) load_ports; kill_server "$2" ;;
    start-server) load_ports; start_server "$2"; wait_for "server $2" 60 curl -fsS -m 1 "http://127.0.0.1:$(eval echo "\$server$2")/ready" ;;
    stop-node) load_ports; stop_node "$2" ;;
    start-node) load_ports; start_node "$2" ;;
    kill-node) load_ports; kill_node "$2" ;;
    *) echo "usage: scripts/cluster.sh start|stop|status|reset|env|deploy|leader|sync-standby|kill-server N|start-server N|stop-node N|start-node N|kill-node N|drain N|undrain N" >&2; exit 2 ;;
esac

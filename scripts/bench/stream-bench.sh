#!/usr/bin/env bash
# The notification stream through nginx and two servers (issue #33): a store's reply to its author's open stream,
# timed by scripts/bench/stream_latency.py. nginx here is a minimal round-robin front with the project's proxy
# settings for streams (HTTP/1.1 to the servers, buffering left to the response's X-Accel-Buffering: no);
# scripts/cluster.sh's full topology is the production-like one.
#   DATABASE_URL (a migrated database), CHIDIAN_BIN (default the debug build), STREAM_SAMPLES (100),
#   STREAM_PORT (18391: nginx; the servers take the next two).
set -euo pipefail
project=$(cd "$(dirname "$0")/../.." && pwd)
cd "$project"
bin=${CHIDIAN_BIN:-.build/debug/chidian}
samples=${STREAM_SAMPLES:-100}
port=${STREAM_PORT:-18391}
work=$(mktemp -d)
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT
: "${DATABASE_URL:?a migrated database}"
for n in 1 2; do
    PORT=$((port + n)) RATE_LIMITS=off LOG_LEVEL=warning "$bin" serve >"$work/server$n.log" 2>&1 &
    pids+=($!)
done
mkdir -p "$work/nginx/logs"
cat >"$work/nginx/nginx.conf" <<CONF
worker_processes 1;
pid $work/nginx/nginx.pid;
error_log $work/nginx/logs/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    upstream chidian { server 127.0.0.1:$((port + 1)); server 127.0.0.1:$((port + 2)); keepalive 16; }
    server {
        listen 127.0.0.1:$port;
        location / {
            proxy_pass http://chidian;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_read_timeout 60s;
        }
    }
}
CONF
nginx -p "$work/nginx" -c "$work/nginx/nginx.conf" -g "daemon off;" &
pids+=($!)
for _ in $(seq 1 100); do
    curl -fs "http://127.0.0.1:$((port + 1))/health" >/dev/null && curl -fs "http://127.0.0.1:$((port + 2))/health" \
        >/dev/null && curl -fs "http://127.0.0.1:$port/health" >/dev/null && break
    sleep 0.2
done
python3 scripts/bench/stream_latency.py "http://127.0.0.1:$port" "$DATABASE_URL" "$samples"

#!/usr/bin/env bash
# The web client in a real browser: Debian's headless Chromium driven by selenium (installed into .venv/) through
# the flows of scripts/web/browser_test.py, against a throwaway seeded server. Installs chromium, chromium-driver
# and fonts-noto-cjk from Debian when missing. Needs a built .build/debug/chidian and the private cluster (or
# DATABASE_URL). The last line is `web: ok` or `web: FAILED`.
set -euo pipefail
# Not a trust test: reviews stay as posted (docs/TRUST.md; the judge has its own tests).
export TRUST="${TRUST:-off}"

project=$(cd "$(dirname "$0")/.." && pwd)
cd "$project"
bin=${CHIDIAN_BIN:-.build/debug/chidian}
out=.build/web-test
say() { echo "web: $*" >&2; }

[ -x "$bin" ] || { say "$bin is missing: run swift build first"; exit 1; }
scripts/web/install.sh

rm -rf "$out"
mkdir -p "$out"
. scripts/lib/throwaway-server.sh
throwaway_database chidian_web
"$bin" seed seed >/dev/null
start_server 18280

export CHIDIAN_BIN=$bin  # the offline flow runs a server of its own, to stop it
if timeout 600 .venv/bin/python scripts/web/browser_test.py "$api" "$out"; then
    echo "web: ok"
else
    say "server log: $out/server.log; failure screenshots: $out/"
    echo "web: FAILED"
    exit 1
fi

#!/usr/bin/env bash
# `make test` runs each part through this: the part's output goes to the terminal and to .test-logs/NAME.log, so
# that a failure can be summarised at the end of the run (CI shows only the tail of the output).
# Usage: scripts/test-step.sh NAME command [args...]   |   scripts/test-step.sh --summary NAME...
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p .test-logs
if [[ "${1:-}" == "--summary" ]]; then
  shift
  for name in "$@"; do
    echo "== $name failed; its last failure lines (.test-logs/$name.log):"
    lines=$(grep -aE '✘|FAIL|PANIC|[Ff]ailed|[Ee]rror|ERROR|Traceback|assert|timed out|[Tt]imeout' ".test-logs/$name.log" | grep -av 'passed' | tail -n 6)
    # A part that stopped without naming a failure: its last lines say where.
    [ -n "$lines" ] || lines=$(tail -n 8 ".test-logs/$name.log")
    echo "$lines"
  done
  echo "make test failed in: $*"
  exit 1
fi
name=$1
shift
start=$SECONDS
"$@" 2>&1 | tee ".test-logs/$name.log"
status=${PIPESTATUS[0]}
# Each part's time, so that what makes `make test` long is visible in CI's tail.
echo "$name: $((SECONDS - start)) s" | tee -a .test-logs/times.log
exit "$status"

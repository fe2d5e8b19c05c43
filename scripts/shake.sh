#!/usr/bin/env bash
# Shakes the Swift suite for flakes: RUNS runs in each cache mode (CACHE=off and the cache, alternating, so a stopped
# shake has covered both), every other pair beside a CPU hog when --hog is given, and a line per run plus the failed
# tests' names.
#   DATABASE_URL=… scripts/shake.sh [RUNS] [--hog]      (after `swift build --build-tests`)
# Logs stay in .build/shake/; the last line is the count of runs that passed and failed.
set -uo pipefail
cd "$(dirname "$0")/.."
runs=${1:-20}
hog=${2:-}
out=.build/shake
mkdir -p "$out"
passed=0 failed=0
for i in $(seq 1 "$runs"); do
    for mode in off on; do
        loaded=no hog_pid=
        if [ "$hog" = "--hog" ] && [ $((i % 2)) -eq 0 ]; then
            loaded=yes
            (while :; do :; done) &
            hog_pid=$!
        fi
        log="$out/$mode-$i.log"
        start=$(date +%s)
        CACHE=$mode BCRYPT_COST=4 SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH="${SWIFT_TEST_WIDTH:-8}" timeout --signal=INT --kill-after=30 "${SWIFT_TEST_TIMEOUT:-1800}" \
            stdbuf -oL -eL swift test --skip-build >"$log" 2>&1
        status=$?
        [ -n "$hog_pid" ] && kill "$hog_pid" 2>/dev/null && wait "$hog_pid" 2>/dev/null
        summary=$(grep -E '^.*Test run with [0-9]+ tests' "$log" | tail -1 | sed 's/^[^T]*//')
        if [ "$status" -eq 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
        echo "cache=$mode run=$i hog=$loaded status=$status $(($(date +%s) - start))s ${summary:-no summary}"
        grep -E '✘ Test [^ ]+ (failed|recorded)' "$log" | sed 's/^.*✘ Test /    failed: /' | sort -u | head -20
    done
done
echo "shake: $passed passed, $failed failed"

#!/usr/bin/env bash
# Runs the built Swift suite once per parallelization width given (0: Swift Testing's default, unbounded) and prints
# each run's wall time, its result and the load average, to find the knee that scripts/swift-test.sh uses:
#   swift build --build-tests && DATABASE_URL=$(scripts/db.sh url | sed 's/^DATABASE_URL=//') scripts/test-width.sh 2 4 8 0
# Runs in the current cache mode (CACHE=off for the other one); logs stay in .build/width/.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p .build/width
for width in "$@"; do
    log=.build/width/cache-${CACHE:-on}-width-$width.log
    start=$(date +%s.%N)
    if [ "$width" = 0 ]; then
        BCRYPT_COST=4 swift test --skip-build >"$log" 2>&1
    else
        SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$width BCRYPT_COST=4 swift test --skip-build >"$log" 2>&1
    fi
    status=$?
    end=$(date +%s.%N)
    issues=$(grep -c "✘" "$log")
    printf 'width %-3s %7.1f s  exit %s  %s failure lines  load %s\n' "$width" "$(awk "BEGIN { print $end - $start }")" "$status" \
        "$issues" "$(cut -d' ' -f1-3 /proc/loadavg)"
done

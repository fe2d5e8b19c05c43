#!/usr/bin/env bash
# The Swift test suite under a watchdog: a run still going after SWIFT_TEST_TIMEOUT seconds (default 900; the whole
# suite takes two to three minutes a mode here) is stopped and the tests that started but never finished are named,
# so a hang fails CI in minutes with its culprit instead of running into the job's limit. Output is line-buffered so
# the log shows everything up to the end.
#
# At most SWIFT_TEST_WIDTH tests run at once (Swift Testing's parallelization width; default 8, the knee of the
# suite's run time against the width measured with scripts/test-width.sh, docs/RELIABILITY.md): unbounded, all 123
# suites start together on two cores, each with its database, pools, listener and sometimes a server process.
set -uo pipefail
cd "$(dirname "$0")/.."
log=.build/swift-test.log
mkdir -p .build
export SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH="${SWIFT_TEST_WIDTH:-8}"
timeout --signal=INT --kill-after=30 "${SWIFT_TEST_TIMEOUT:-900}" \
    stdbuf -oL -eL swift test --skip-build "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
    echo "swift test: stopped after ${SWIFT_TEST_TIMEOUT:-900} s; started and never finished:"
    # A name can belong to tests in two suites: count starts against ends.
    sed -n 's/^.*◇ Test \(.*\) started\.$/start \1/p; s/^.*[✔✘] Test \([^ ]*\) \(passed\|failed\|with\).*$/end \1/p' "$log" |
        awk '$2 != "run" { n[$2] += ($1 == "start") ? 1 : -1 } END { for (t in n) if (n[t] > 0) print "  " t }'
fi
exit "$status"

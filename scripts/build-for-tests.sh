#!/usr/bin/env bash
# make test's build: the server's package with its tests and, from the same moment, the Swift client's package
# (ChidianClient/, scripts/swift-client-test.sh), which builds SwiftNIO, AsyncHTTPClient and the OpenAPI generator
# again in a folder of its own. One after the other they took 666 s and 445 s of a 1957 s CI run on two cores.
# The client's build runs on in the background, beside this build's serial stretches and the steps after it that
# leave a core idle (the fuzzer is one Python process); it holds .build/client-build.lock until it ends, and
# swift-client-test.sh takes that lock before building the client again (a no-op when the head start succeeded),
# so its failures are still reported there and only the server's build decides this step.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p .build
exec 9>.build/client-build.lock
flock 9
# Its output to a file: an inherited stdout would keep test-step.sh's tee, and so this step, open until it ends.
(cd ChidianClient && exec swift build --build-tests) </dev/null >.build/client-head-start.log 2>&1 &
client=$!
exec 9>&-
swift build "$@" --build-tests
status=$?
[ "$status" -eq 0 ] || kill "$client" 2>/dev/null
exit "$status"

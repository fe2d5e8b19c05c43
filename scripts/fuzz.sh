#!/usr/bin/env bash
# Fuzzes every operation of GET /openapi.json with schemathesis against a seeded `chidian serve`:
# anonymous, as User1 and as Manager4 (the demo accounts), checking that no answer is a 5xx and that every
# answer (status, content type, headers, body) is one the document describes.
#   scripts/fuzz.sh            the full run (FUZZ_EXAMPLES, default 50 test cases per operation and identity)
#   scripts/fuzz.sh --short    the run `make test` does (8 per operation and identity, well under 3 minutes)
# Needs a built .build/debug/chidian and the private cluster (or DATABASE_URL): it creates its own database there,
# seeds it with seed/, and drops it afterwards. schemathesis is installed into .venv/ (git-ignored) on first use.
# The last line is `fuzz: N passed, N failed` (operations × identities).
set -euo pipefail
# Not a trust test: reviews stay as posted (docs/TRUST.md; the judge has its own tests).
export TRUST="${TRUST:-off}"

project=$(cd "$(dirname "$0")/.." && pwd)
cd "$project"
examples=${FUZZ_EXAMPLES:-50}
[ "${1:-}" = "--short" ] && examples=${FUZZ_EXAMPLES:-8}
bin=${CHIDIAN_BIN:-.build/debug/chidian}
out=.build/fuzz
say() { echo "fuzz: $*" >&2; }

[ -x "$bin" ] || { say "$bin is missing: run swift build first"; exit 1; }

# schemathesis 4 in a private virtual environment; the CLI flags below are those of 4.x.
if ! .venv/bin/schemathesis --version 2>/dev/null | grep -q "version 4\."; then
    say "installing schemathesis 4 into .venv/"
    python3 -m venv .venv
    .venv/bin/pip install -q --disable-pip-version-check 'schemathesis>=4.32,<5'
fi

mkdir -p "$out"
. scripts/lib/throwaway-server.sh
throwaway_database chidian_fuzz
"$bin" seed seed >/dev/null

start_server 18080

login() {
    curl -fsS -m 10 -H 'Content-Type: application/json' -d "{\"name\":\"$1\",\"password\":\"$2\"}" "$api/v1/auth/login" |
        python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])'
}
user_token=$(login User1 111)
manager_token=$(login Manager4 111)

checks=not_a_server_error,response_schema_conformance,status_code_conformance,content_type_conformance,response_headers_conformance
passed=0
failed=0
requests=0
run() {
    local name=$1
    shift
    say "$name: $examples test cases per operation"
    local status=0
    # Signed-in runs leave logout out: it would revoke the token the rest of the run relies on.
    timeout 600 .venv/bin/schemathesis run "$api/openapi.json" \
        --checks "$checks" --max-examples "$examples" --seed 20241122 --workers 1 \
        --phases examples,coverage,fuzzing --request-timeout 10 --no-color --suppress-health-check all \
        --report junit --report-junit-path "$out/$name.xml" "$@" >"$out/$name.log" 2>&1 || status=$?
    local cases
    cases=$(python3 - "$out/$name.xml" <<'EOF'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
suites = [root] if root.tag == "testsuite" else root.findall("testsuite")
cases = [c for s in suites for c in s.findall("testcase")]
bad = [c for c in cases if c.find("failure") is not None or c.find("error") is not None]
print(len(cases), len(bad))
EOF
    ) || cases="0 1"
    local total=${cases% *} bad=${cases#* }
    grep -E "^(Test cases|API Operations|Network requests)|[0-9]+ (generated|passed|failed)" "$out/$name.log" | sed "s/^/fuzz: $name: /" >&2 || true
    local sent
    sent=$(grep -oE '[0-9]+ generated' "$out/$name.log" | head -1 | grep -oE '[0-9]+' || echo 0)
    requests=$((requests + sent))
    if [ "$status" -ne 0 ] || [ "$bad" -ne 0 ]; then
        say "$name: FAILED (exit $status); see $out/$name.log"
        sed -n '/FAILURES/,/WARNINGS/p' "$out/$name.log" | grep -v '^ *|' | head -120 >&2 || true
        failed=$((failed + (bad > 0 ? bad : 1)))
        passed=$((passed + total - bad))
    else
        passed=$((passed + total))
    fi
}

run anonymous
run user -H "Authorization: Bearer $user_token" --exclude-path /v1/auth/logout
run manager -H "Authorization: Bearer $manager_token" --exclude-path /v1/auth/logout

if grep -q "unhandled error" "$out/server.log" 2>/dev/null; then
    say "the server logged internal errors; see $out/server.log"
fi
say "$requests generated test cases against $api ($examples per operation and identity)"
echo "fuzz: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

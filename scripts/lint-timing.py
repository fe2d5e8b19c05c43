#!/usr/bin/env python3
"""Fails on a wall-clock wait or bound in the tests that does not say why it is safe (docs/RELIABILITY.md, "Waiting").

A test checks outcomes and waits for events; time passing on a loaded machine must never decide whether it passes.
Flagged: reading a clock (ContinuousClock, SuspendingClock, Date().timeIntervalSince…), sleeping (Task.sleep, usleep,
sleep) and waiting `within:` a duration. Such a line passes when it, or the comment lines just above it, carry a
comment `timing: <reason>` (a lower bound that a slow machine only lengthens, a poll with no bound that ends on its event, a
grace that checks nothing…).
"""
import pathlib
import re
import sys

PATTERN = re.compile(
    r"ContinuousClock|SuspendingClock|Task\.sleep|\busleep\(|\bsleep\(|within:|Date\(\)\.timeIntervalSince|\.timeIntervalSinceNow"
)
MARK = re.compile(r"//.*\btiming: \S")

root = pathlib.Path(__file__).resolve().parent.parent
problems = []
for path in sorted((root / "Tests").rglob("*.swift")):
    lines = path.read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines, 1):
        code = line.split("//", 1)[0]
        if not PATTERN.search(code):
            continue
        above = []
        index = number - 2
        while index >= 0 and lines[index].strip().startswith("//"):
            above.append(lines[index])
            index -= 1
        if MARK.search(line) or any(MARK.search(a) for a in above):
            continue
        problems.append(f"{path.relative_to(root)}:{number}: {line.strip()}")

if problems:
    print("wall-clock waits or bounds in tests without a `// timing: <reason>` comment:")
    print("\n".join("  " + p for p in problems))
    print(f"{len(problems)} unmarked; wait for the event instead, or say why time cannot decide the outcome")
    sys.exit(1)
print("lint-timing: no unmarked wall-clock wait or bound in Tests/")

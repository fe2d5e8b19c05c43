#!/usr/bin/env python3
"""Tests read answers typed, not as dictionaries forced with `as!` (issue #43, docs/ARCHITECTURE.md).

New test files have no `as!`; the files that had some when the rule came are listed in scripts/lint-casts.allow
with their count, which may only fall (lower it when a file is converted; remove the line at 0).
Usage: scripts/lint-casts.py [--update]   (--update rewrites the list from today's counts, never raising one)
"""
import os, re, sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
allow_path = os.path.join(root, "scripts", "lint-casts.allow")
cast = re.compile(r"\bas!")

counts = {}
for folder, _, files in os.walk(os.path.join(root, "Tests")):
    for name in files:
        if name.endswith(".swift"):
            path = os.path.join(folder, name)
            with open(path, encoding="utf-8") as source:
                n = sum(len(cast.findall(line)) for line in source if not line.lstrip().startswith("//"))
            if n:
                counts[os.path.relpath(path, root)] = n

allowed = {}
if os.path.exists(allow_path):
    for line in open(allow_path, encoding="utf-8"):
        line = line.strip()
        if line and not line.startswith("#"):
            path, n = line.rsplit(" ", 1)
            allowed[path] = int(n)

if "--update" in sys.argv:
    with open(allow_path, "w", encoding="utf-8") as out:
        out.write("# Test files still reading JSON with `as!`, and how many: a count may only fall (scripts/lint-casts.py).\n")
        for path in sorted(counts):
            out.write(f"{path} {min(counts[path], allowed.get(path, counts[path]))}\n")
    sys.exit(0)

problems = [f"{path}: {n} `as!` (allowed {allowed.get(path, 0)}): decode the answer into its type instead"
            for path, n in sorted(counts.items()) if n > allowed.get(path, 0)]
for problem in problems:
    print("lint-casts: " + problem, file=sys.stderr)
if problems:
    sys.exit(1)
print(f"lint-casts: {sum(counts.values())} `as!` left in {len(counts)} test files, none new")

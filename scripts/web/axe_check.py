"""axe-core 4 over every page the browser flows visit (browser_test.py calls `audit` after each navigation).

A page is audited once per (path with ids folded, window width, signed-in name), so the flows stay fast; every
violation of impact moderate or above is kept in FINDINGS and fails the run at its end.
By hand, against a running server (`make run`):
    .venv/bin/python scripts/web/axe_check.py http://127.0.0.1:8080 [--as NAME PASSWORD] [--width 1280] PATH...
prints what it finds and exits 1 if anything is moderate or above.
"""
import os
import re
import sys

import axe_selenium_python

SCRIPT = os.path.join(os.path.dirname(axe_selenium_python.__file__), "node_modules", "axe-core", "axe.min.js")
FAILING = {"moderate", "serious", "critical"}
SEEN = set()
FINDINGS = []  # (rule id, impact, url, width, viewer, [target selectors])
_source = None


def _script():
    global _source
    if _source is None:
        with open(SCRIPT, encoding="utf8") as file:
            _source = file.read()
    return _source


def _key(driver):
    state = driver.execute_script(
        "return [location.pathname, innerWidth, document.readyState,"
        " document.querySelector(\"nav.account a[href='/me']\")?.textContent || '']")
    path, width, ready, viewer = state
    # /stores/s001 and /stores/s002 are the same template: ids (anything with a digit) fold to one segment
    path = "/".join(":id" if re.search(r"\d", part) else part for part in path.split("/"))
    return (path, width, viewer), ready


def audit(driver):
    """Runs axe on the page in `driver` unless one like it was audited; returns its violations."""
    try:
        key, ready = _key(driver)
    except Exception:  # not an HTML page of ours (a download, a stale navigation)
        return []
    if key in SEEN or not driver.current_url.startswith("http"):
        return []
    SEEN.add(key)
    if ready != "complete":
        driver.execute_async_script(
            "const done = arguments[0]; if (document.readyState === 'complete') done();"
            " else addEventListener('load', () => done());")
    if not driver.execute_script("return typeof axe !== 'undefined'"):
        driver.execute_script(_script())
    result = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {resultTypes: ['violations']}).then(r => done(r.violations), e => done(String(e)));")
    assert isinstance(result, list), result
    found = []
    for violation in result:
        if violation.get("impact") in FAILING:
            targets = [" ".join(map(str, node["target"])) for node in violation["nodes"]]
            found.append((violation["id"], violation["impact"], driver.current_url, key[1], key[2] or "-", targets))
    FINDINGS.extend(found)
    return found


def report(findings=None):
    lines = []
    for rule, impact, url, width, viewer, targets in findings if findings is not None else FINDINGS:
        lines.append(f"axe: {rule} ({impact}) at {url} [{width}px, {viewer}]: {', '.join(targets[:8])}")
    return lines


if __name__ == "__main__":
    import browser_test  # same directory

    args = sys.argv[1:]
    base, account, width = args.pop(0), None, 414
    while args and args[0] in ("--as", "--width"):
        if args.pop(0) == "--as":
            account = (args.pop(0), args.pop(0))
        else:
            width = int(args.pop(0))
    browser_test.BASE, browser_test.EXACT_WIDTH = base, True
    driver = browser_test.browser(width=width)
    try:
        if account:
            browser_test.sign_in(driver, *account)
        for path in args or ["/"]:
            driver.get(base + path)
            audit(driver)
    finally:
        driver.quit()
    print("\n".join(report()) or "axe: no violation of impact moderate or above")
    sys.exit(1 if FINDINGS else 0)

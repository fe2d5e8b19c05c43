#!/usr/bin/env bash
# Debian's Chromium, its driver and a CJK font (headless Chromium draws Chinese as boxes without one), and
# selenium and axe-core in .venv/: what the browser tests and screenshots need, installed only when missing.
set -euo pipefail
cd "$(dirname "$0")/../.."
missing=()
command -v chromium >/dev/null || missing+=(chromium)
command -v chromedriver >/dev/null || missing+=(chromium-driver)
[ -d /usr/share/fonts/opentype/noto ] || missing+=(fonts-noto-cjk)
if [ ${#missing[@]} -gt 0 ]; then
    echo "web: installing ${missing[*]}" >&2
    scripts/lib/apt-install.sh "${missing[@]}"
fi
if ! .venv/bin/python -c "import selenium" 2>/dev/null; then
    echo "web: installing selenium into .venv/" >&2
    [ -x .venv/bin/pip ] || python3 -m venv .venv
    .venv/bin/pip install -q --disable-pip-version-check 'selenium>=4.20,<5'
fi
if ! .venv/bin/python -c "import axe_selenium_python" 2>/dev/null; then
    # axe-core 4.10 comes in this package's node_modules; it declares Python 3.12 but runs on Debian's 3.11.
    echo "web: installing axe-core (axe-selenium-python) into .venv/" >&2
    .venv/bin/pip install -q --disable-pip-version-check --ignore-requires-python 'axe-selenium-python==3.0.0'
fi

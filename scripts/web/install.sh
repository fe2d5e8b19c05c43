#!/usr/bin/env bash
# Debian's Chromium, its driver and a CJK font (headless Chromium draws Chinese as boxes without one), and
# selenium in .venv/: what the browser tests and screenshots need, installed only when missing.
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

#!/usr/bin/env bash
# swift-deps.sh: the C libraries our Swift packages link against, from Debian's packages when missing (a new
# machine has the toolchain only). compress-nio links zlib (the web's cached pieces are deflated).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -e /usr/include/zlib.h ] || scripts/lib/apt-install.sh --no-install-recommends zlib1g-dev

#!/usr/bin/env bash
# apt-install.sh [APT OPTIONS] PACKAGE...: installs Debian's packages, one install at a time on this machine. Two
# checkouts' `make test` side by side on a new machine install at the same moment, and apt-get refuses at once when
# another holds dpkg's lock (CI lost the browser, cluster, deploy and restore tests that way); so our installs queue
# on a lock of their own, and apt waits for any other holder of its locks.
set -euo pipefail
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
wait_lock=(-o DPkg::Lock::Timeout=900)
exec 8>>"${TMPDIR:-/tmp}/chidian-apt.lock"
flock 8
$sudo apt-get "${wait_lock[@]}" update -qq >/dev/null
DEBIAN_FRONTEND=noninteractive $sudo apt-get "${wait_lock[@]}" install -y -qq "$@" >/dev/null

#!/bin/sh
# Install the Debian packages that building and testing ws need, but only
# those that are missing.  Safe to run non-interactively (CI, no stdin).
# Without root, it names what to install and fails instead.
set -eu

# chromium: tests/test_print.py opens ws_print's HTML report headless.
# python3-pytest-xdist: make check runs the tests in two processes.
# xz-utils, bzip2, sqlite3: programs of the tests and of `make bench`.
# libreadline-dev: ws-monitor (monitor/) is built with GNU readline.
packages="gcc g++ make autoconf automake pkg-config valgrind gdb python3
python3-pytest python3-pytest-xdist libc6-dbg xz-utils bzip2 sqlite3
libreadline-dev chromium"

missing=
for p in $packages; do
    status=$(dpkg-query -W -f '${db:Status-Status}' "$p" 2>/dev/null || true)
    [ "$status" = installed ] || missing="$missing $p"
done

if [ -z "$missing" ]; then
    exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
    echo "install-deps: missing Debian packages:$missing" >&2
    echo "install-deps: as root, run: apt-get install -y$missing" >&2
    exit 1
fi

echo "install-deps: installing:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update </dev/null
# shellcheck disable=SC2086
apt-get install -y --no-install-recommends $missing </dev/null

#!/bin/sh
# Install the Debian packages ws needs, but only those that are missing.
# Safe to run non-interactively (CI, no stdin).  Without root, it names
# what to install and fails instead.
#
#   install-deps.sh [build]  what building ws and running it need (the first
#                            `make` of a fresh clone, `make demo`)
#   install-deps.sh check    that, and what the tests need (`make check`)
#   install-deps.sh bench    that, and the benchmarks' programs (`make bench`)
set -eu

# To build: the compilers and autotools, Valgrind (its headers, its
# pkg-config file and the core ws links with), GNU readline for ws-monitor
# (monitor/), protoc-c, libprotobuf-c and zlib for ws_print --pprof
# (print/profile.proto).  To run: Valgrind, and libc6-dbg, from which
# Valgrind names the functions of the dynamic linker and libc in ws's
# stacks.
build="gcc g++ make autoconf automake pkg-config valgrind libc6-dbg
libreadline-dev protobuf-c-compiler libprotobuf-c-dev zlib1g-dev"
# On amd64, gcc-multilib and g++-multilib (gcc -m32) build ws for 32-bit
# programs too, beside the 64-bit ws, and the tests' 32-bit programs
# (configure.ac, "The secondary platform"; tests/progs32/).
if [ "$(dpkg --print-architecture 2>/dev/null)" = amd64 ]; then
    build="$build gcc-multilib g++-multilib"
fi

# The tests (tests/README.md): Python and pytest run them; gdb drives the
# gdb script and monitor sessions (tests/test_control.py, docs/control.md);
# python3-pytest-xdist runs them in two processes (make check);
# chromium opens ws_print's HTML report headless (tests/test_print.py,
# scripts/gen-docs); man-db's `man -l` renders the man pages
# (tests/test_install.py); xz-utils, bzip2, sqlite3 are programs the tests
# run under ws; jq reads ws_print --json as docs/json-schema.md shows
# (tests/test_exports.py); golang-go's `go tool pprof` reads ws_print
# --pprof (tests/test_exports.py).
check="python3 python3-pytest python3-pytest-xdist gdb chromium man-db xz-utils bzip2 sqlite3 jq golang-go"
# KCachegrind on a virtual X server reads the miss profile
# (tests/test_kcachegrind.py: xvfb-run, a D-Bus session, xdotool's clicks,
# xwd's window dumps); where the distribution has no kcachegrind, the
# test is skipped, so these are installed only where apt knows them.
check_optional="kcachegrind xvfb xauth xdotool x11-apps dbus"

# The benchmarks' programs (bench/programs.py) and Python for bench/run.py.
bench="python3 xz-utils bzip2 sqlite3"

case "${1:-build}" in
    build) packages=$build ;;
    check)
        packages="$build $check"
        for p in $check_optional; do
            if apt-cache show "$p" >/dev/null 2>&1; then
                packages="$packages $p"
            fi
        done ;;
    bench) packages="$build $bench" ;;
    *)
        echo "install-deps: usage: install-deps.sh [build|check|bench]" >&2
        exit 64 ;;
esac

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

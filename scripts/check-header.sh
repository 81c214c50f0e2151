#!/bin/sh
# Check that include/valgrind/ws.h compiles without a single warning as C
# and as C++ (-Wall -Wextra -pedantic -Werror, several language standards),
# and that its macros are harmless no-ops when not running under Valgrind.
# Run by `make check`; needs CC, CXX, VALGRIND_CFLAGS and WS_TOP_SRCDIR.
set -eu

: "${CC:=gcc}" "${CXX:=g++}" "${VALGRIND_CFLAGS:=$(pkg-config --cflags valgrind)}"
srcdir=${WS_TOP_SRCDIR:-$(dirname "$0")/..}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat > "$tmp/use.c" <<'PROG'
#include <valgrind/ws.h>
int main(void)
{
   unsigned long d, i;
   WS_START;
   WS_MARK("phase 1");
   WS_DUMP("after phase 1");
   d = WS_CURRENT_DATA_PAGES;
   i = WS_CURRENT_INSN_PAGES;
   WS_STOP;
   return (d == 0 && i == 0) ? 0 : 1;  /* 0 when not under Valgrind */
}
PROG
cp "$tmp/use.c" "$tmp/use.cc"

flags="-Wall -Wextra -pedantic -Werror -I$srcdir/include $VALGRIND_CFLAGS"
fail=0
check() {   # compiler, standard, source
   # shellcheck disable=SC2086
   if $1 -std="$2" $flags -o "$tmp/use" "$3" && "$tmp/use"; then
      echo "ws.h: ok with $1 -std=$2"
   else
      echo "ws.h: FAILED with $1 -std=$2 $flags" >&2
      fail=1
   fi
}
for std in c99 c11 gnu17; do check "$CC" $std "$tmp/use.c"; done
for std in c++11 c++17 gnu++20; do check "$CXX" $std "$tmp/use.cc"; done

if [ $fail -ne 0 ]; then
   echo "check-header: include/valgrind/ws.h does not compile cleanly" >&2
   exit 1
fi

#!/bin/sh
# record.sh: make the ws output files of tests/print_golden/ again, by real
# runs of the ws built in this tree.  Run it from the top of a tree where
# `make check` has built ws and the test programs:
#
#     sh tests/print_golden/record.sh
#
# Then make the expected charts again (test_print.py compares with them):
#
#     WS_PRINT_REGEN=1 make check PYTEST_FLAGS='-k golden'
#
# and look at the difference before committing it.  The files, each in
# the format this ws writes (version 4):
#
#   phases.ws    phases.c: marks, starts and stops, regions, a WS_DUMP
#   pageramp.ws  demo/pageramp, the sawtooth of `make demo`
#   reindex.ws   demo/reindex (docs/example.md): peaks, C++ names, heap
#                owners and heap usage
#   threads.ws   tests/progs/threads with --ws-per-thread=yes
#   ms.ws        tests/progs/touch with --ws-time-unit=ms
#   killed.ws    tests/progs/blocker killed by SIGKILL: no trailer
#   short.ws     a run shorter than T: no samples
#
# Two files are older formats, kept to test that ws_print still reads
# what older ws wrote; this script does not touch them:
#
#   phases-v2.ws  phases.c as ws 0.1 recorded it in format 2
#   spikes-v3.ws  a spiking program in format 3 (peaks as events)
set -eu
top=$(pwd)
dir=$top/tests/print_golden
vg=$top/vg-in-place
[ -x "$vg" ] && [ -x tests/progs/threads ] || {
    echo "record.sh: run it from the top of a tree built by make check" >&2
    exit 1
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ws() {          # ws NAME [options] PROGRAM ARGS...
    name=$1
    shift
    "$vg" --tool=ws --ws-file="$tmp/$name.ws" "$@" >/dev/null 2>&1
    mv "$tmp/$name.ws" "$dir/$name.ws"
}

gcc -g -O0 -I"$top/include" $(pkg-config --cflags valgrind) \
    -o "$tmp/phases" "$dir/phases.c"
(cd "$tmp" && ws phases --ws-instr-atstart=no ./phases)
ws pageramp --ws-instr-atstart=no demo/pageramp
ws reindex --ws-instr-atstart=no demo/reindex
ws threads --ws-per-thread=yes tests/progs/threads 5 3 4 2000000
ws ms --ws-time-unit=ms --ws-every=20 tests/progs/touch 20 \
    st,0,5,4096,10,20000000 st,0,15,4096,10,20000000
ws short --ws-every=100000000 tests/progs/marker /dev/null

# killed.ws: blocker works for about 3,000,000 instructions, then blocks
# reading its standard input (a fifo this script holds open) until killed.
mkfifo "$tmp/in"
exec 3<>"$tmp/in"
"$vg" --tool=ws --ws-file="$tmp/killed.ws" tests/progs/blocker 10 3000000 \
    <"$tmp/in" >/dev/null 2>&1 &
pid=$!
i=0
while [ $i -lt 300 ]; do
    n=$(grep -c '^[0-9]' "$tmp/killed.ws" 2>/dev/null || true)
    [ "${n:-0}" -ge 30 ] && break
    sleep 0.1
    i=$((i + 1))
done
sleep 1
kill -KILL "$pid"
wait "$pid" || true
exec 3>&-
mv "$tmp/killed.ws" "$dir/killed.ws"
echo "record.sh: wrote 7 files in $dir"

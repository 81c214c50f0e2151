ws-output-format: 3
tool: ws 0.1.0
command: ./prog a b
pid: 123
ppid: 100
time-unit: i
every: 1000
tau: 1000
pagesize: 4096
syscalls: yes
per-thread: no
instr-atstart: yes
some-future-key: whatever: with colons
columns: t insn data
event 0 thread-start 1
# a comment
1003 2 5
stack 1 3
inline 0x1091c8 spike.c:21 fill
frame 0x1091c8 spike.c:30 spike
frame 0x109243 spike.c:55 main
event 1003 peak 0 data 5 1
stack 2 1
frame 0x4011f0 (libfoo.so) operator new(unsigned long)
owner 0 3 heap 2
owner 0 1 global my table
owner 0 1 stack 1
event 1003 peak 1 insn 2 1
owner 1 3 heap 2
owner 1 2 file /usr/lib/my lib.so
event 1500 mark phase two
dump-begin 1500
dump-page insn 0x10b000 1000 912 0x10b1a0 marker.c:41 main
dump-page data 0x4a2c000 1003 40 0x10b1c4 marker.c:44 main
stack 3 1
frame 0x401200 alloc.c:7 make_table
dump-owner heap 3 0x4a2c040 8192
dump-page data 0x4a2d000 0 0 0x0 ??? ???
dump-owner unknown
dump-end 1 2
2000 3 7
event 2500 thread-exit 1
region 2 1 insn 3.0 3 4 data 7.0 7 9 label phase two
hot insn 1 90312 0x109000 0x1091a0 pageramp.c:38 touch_pages
hot insn 2 512 0x10a000 0x10a000 (pageramp) ???
hot data 1 5242 0x4a2c000 0x1091c4 pageramp.c:40 touch_pages
stack 4 1
frame 0x401300 alloc.c:9 make_other
hot-owner heap 4 0x4a2c040 8192
hot data 2 5242 0x4a
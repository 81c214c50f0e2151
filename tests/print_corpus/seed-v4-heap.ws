ws-output-format: 4
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
heap-usage: yes
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
heap-window 0 2 live 12288 window 8192
event 1003 peak 1 insn 2 1
owner 1 3 heap 2
owner 1 2 file /usr/lib/my lib.so
heap-window 1 2 live 12288 window 12000 future-key 7
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
hot data 2 5242 0x4a2d000 0x1091c4 pageramp.c:40 touch_pages
hot-owner anon
heap-site 1 4 chunks 3 bytes 49152 peak-live 49152 usage 0.000 never 3 read-only 0 write-only 0 lifetime 944 first-delay 0 idle-tail 0 useful 0.000 threads 0 touched 0 never-bytes 49152 exit-live 0
stack 5 2
inline 0x401400 alloc.c:20 grow
frame 0x401400 alloc.c:30 make
heap-site 2 5 chunks 1 bytes 100 peak-live 100 usage 1.000 never 0 read-only 1 write-only 0 lifetime 10 first-delay 1 idle-tail 2 useful 0.700 threads 0 some-new-key x
heap-site 3 2 chunks 2 bytes 0 peak-live 0 usage 1.000 never 2 read-only 0 write-only 0 lifetime 5 first-delay 0 idle-tail 0 useful 0.000 threads 0
peaks 2
summary insn 2.5 3 4
summary data 6.0 7 9
samples 2
end

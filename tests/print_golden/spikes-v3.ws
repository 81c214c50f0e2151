ws-output-format: 3
tool: ws 0.1.0
command: ./spikes 3
pid: 4242
ppid: 4200
time-unit: i
every: 100000
tau: 100000
pagesize: 4096
syscalls: yes
per-thread: no
instr-atstart: yes
columns: t insn data
event 0 thread-start 1
100007 3 41
200001 3 42
300008 4 43
400002 3 44
500009 3 40
600003 4 41
700010 3 42
800004 3 308
stack 1 3
inline 0x1091c8 spikes.c:21 fill_buffer
frame 0x1091c8 spikes.c:30 spike
frame 0x109243 spikes.c:55 main
stack 2 3
frame 0x401200 (libc.so.6) malloc
frame 0x109100 spikes.c:12 make_table
frame 0x109250 spikes.c:50 main
event 800004 peak 0 data 308 1
owner 0 296 heap 2
owner 0 4 global big_table
owner 0 4 stack 1
owner 0 2 file /usr/lib/x86_64-linux-gnu/libc.so.6
owner 0 2 unknown
900011 4 340
event 900011 peak 0 data 340 1
owner 0 328 heap 2
owner 0 4 global big_table
owner 0 4 stack 1
owner 0 2 file /usr/lib/x86_64-linux-gnu/libc.so.6
owner 0 2 unknown
1000005 3 40
1100012 3 41
1200006 4 42
1300000 3 43
1400007 3 44
1500001 4 40
event 1500001 mark phase two
1600008 3 41
1700002 3 42
1800009 4 43
1900003 3 44
2000010 3 320
event 2000010 peak 1 data 320 1
owner 1 308 heap 2
owner 1 4 global big_table
owner 1 4 stack 1
owner 1 2 file /usr/lib/x86_64-linux-gnu/libc.so.6
owner 1 2 unknown
2100004 4 41
2200011 3 42
2300005 3 43
2400012 4 44
2500006 3 40
2600000 3 41
2700007 25 42
stack 3 2
frame 0x10a000 spikes.c:70 scan_code_pages
frame 0x109260 spikes.c:58 main
event 2700007 peak 2 insn 25 3
owner 2 30 heap 2
owner 2 4 global big_table
owner 2 4 stack 1
owner 2 2 file /usr/lib/x86_64-linux-gnu/libc.so.6
owner 2 2 unknown
2800001 3 43
2900008 3 44
3000002 4 40
3100009 3 41
3200003 3 42
3300010 4 333
event 3300010 peak 3 data 333 1
owner 3 303 heap 2
owner 3 5 heap-other
owner 3 4 global big_table
owner 3 3 global counters
owner 3 3 stack 1
owner 3 3 file /usr/lib/x86_64-linux-gnu/libc.so.6
owner 3 2 file /work/spikes
owner 3 2 anon
owner 3 2 unknown
owner 3 6 rest
3400004 3 44
3500011 3 40
3600005 4 41
3700012 3 42
3800006 3 43
3900000 4 44
4000007 3 40
region 1 26 insn 4.2 25 30 data 60.0 333 400 label phase two
hot insn 1 8200000 0x109000 0x1091c8 spikes.c:21 fill_buffer
hot insn 2 4100000 0x10a000 0x10a000 spikes.c:70 scan_code_pages
hot insn 3 12 0x4010000 0x4010a0 (ld-linux-x86-64.so.2) _dl_start
hot data 1 2000000 0x4a2c000 0x1091c8 spikes.c:21 fill_buffer
hot-owner heap 2 0x4a2c010 1048576
hot data 2 2000000 0x4a2d000 0x1091c8 spikes.c:21 fill_buffer
stack 4 3
frame 0x401200 (libc.so.6) malloc
frame 0x1091f0 spikes.c:16 std::vector<std::pair<unsigned long, std::basic_string<char> > >::_M_realloc_insert(iterator)
frame 0x109250 spikes.c:51 main
hot-owner heap 4 0x4a2d000 4096
hot data 3 999 0x601000 0x109100 spikes.c:12 make_table
stack 5 1
frame 0x401300 (libc.so.6) calloc
hot-owner heap 5 0x601010 64
hot data 4 999 0x1ffefff000 0x109243 spikes.c:55 main
hot-owner stack 1
peaks 4
summary insn 4.6 25 30
summary data 82.3 340 420
samples 40
end

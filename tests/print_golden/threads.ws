ws-output-format: 2
tool: ws 0.1.0
command: tests/progs/threads 5 3 4 2000000
pid: 9858
ppid: 9827
time-unit: i
every: 100000
tau: 100000
pagesize: 4096
syscalls: yes
per-thread: yes
instr-atstart: yes
columns: t insn data shared {tid insn data}...
event 0 thread-start 1
100026 32 68 0 1 32 68
event 132453 thread-start 2
200002 68 80 12 1 68 76 2 7 16
300007 1 13 6 1 1 9 2 1 10
400003 1 13 6 1 1 9 2 1 10
500004 1 13 6 1 1 9 2 1 10
600005 1 13 6 1 1 9 2 1 10
700000 1 13 6 1 1 9 2 1 10
800004 1 13 6 1 1 9 2 1 10
900001 1 13 6 1 1 9 2 1 10
1000001 1 13 6 1 1 9 2 1 10
1100004 1 13 6 1 1 9 2 1 10
1200007 1 13 6 1 1 9 2 1 10
1300001 1 13 6 1 1 9 2 1 10
1400003 1 13 6 1 1 9 2 1 10
1500001 1 13 6 1 1 9 2 1 10
1600001 1 13 6 1 1 9 2 1 10
1700000 1 13 6 1 1 9 2 1 10
1800002 1 13 6 1 1 9 2 1 10
1900001 1 13 6 1 1 9 2 1 10
2000006 1 13 6 1 1 9 2 1 10
event 2057878 thread-exit 2
event 2059252 thread-exit 1
summary insn 5.9 68 84
summary data 19.1 80 93
samples 20
end

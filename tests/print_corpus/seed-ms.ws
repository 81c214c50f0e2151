ws-output-format: 2
tool: ws 0.1.0
command: tests/progs/touch 20 st,0,5,4096,10,20000000 st,0,15,4096,10,20000000
pid: 9868
ppid: 9827
time-unit: ms
every: 20
tau: 20
pagesize: 4096
syscalls: yes
per-thread: no
instr-atstart: yes
columns: t insn data
event 47 thread-start 1
62 0 0
139 0 0
392 0 0
406 6 48
440 0 0
474 53 57
480 1 5
500 1 5
520 1 5
540 1 5
560 1 5
580 2 18
600 1 15
620 1 15
640 1 15
660 1 15
680 1 15
700 1 15
720 1 15
event 732 thread-exit 1
summary insn 3.8 53 79
summary data 13.3 57 95
samples 19
end

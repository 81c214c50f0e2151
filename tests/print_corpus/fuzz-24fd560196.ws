ws-output-format: 2
tool: ws 0.1.0
command: tests/t00
pid: 968
ppid: 9827
time-unit: ms
every: 19
tau: 40
pagesize: 4096
syscalls: yes
per-thread: no
instr-atstart: yes
columns: t insn data
406 6 57
480 1 5
500 1 5
520 1 5
540 1 5
560 1 5
580 2 18
600 1 15
620 1 15
640 1 15
680 1 15
715 1 15
7120 1 1

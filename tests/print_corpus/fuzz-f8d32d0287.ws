ws-output-format: 2
tool: ws 0.1.0
command: 00
pid: 986
ppid: 927
time-unit: ms
every: 19
tau: 20
pagesize: 4096
syscalls: yes
per-thread: no
instr-atstart: yes
columns: t insn data
event 94 th
400005 1 10
1mma
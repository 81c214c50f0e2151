ws-output-format: 3
tool: ws 0.1.0
command: ma00
pid: 5
ppid: 9
time-unit: i
every: 1
tau: 39
pagesize: 4096
syscalls: yes
per-thread: no
instr-atstart: yes
columns: t insn data
even
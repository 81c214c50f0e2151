ws-output-format: 2
tool: ws 0.1.0
command: teĞ‹—ds 5 3 4 00
pid: 9858
ppid: 9826
time-unit: i
every: 100000
tau: 100000
pagesize: 4096
syscalls: yes
per-thread: yes
instr-atstart: yes
columns: t insn data shared {tid insn data}...
event 0 thread-start 1
100026 69 68 0 1 2 68
event 13245
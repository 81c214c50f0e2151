ws-output-format: 2
tool: ws 0.1.0
command: tes
pid: 98
ppid: 9827
time-unit: ms
every: 20
tau: 20
pagesize: 4096
syscalls: yes
per-thread: no
instr-atstart: yes
columns: t insn data
event 47 re0thread
summary insn 00 

ws-output-format: 2
tool: ws 0.1.0
command: 
pid: 27516
ppid: 2
time-unit: i
every: 10
tau: 100000
pagesize: 4096
syscalls: yes
per-thread: no
instr-atstart: no
columns: t insn data
event 0 t# 
 ws 0.1ar.
t
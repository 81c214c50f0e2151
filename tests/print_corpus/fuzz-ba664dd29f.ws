ws-output-format: 2
tool: ws 0.1.0
command: a b
pid: 123
ppid: 10
time-unit: i
every: 1000
tau: 1000
pagesize: 4096
syscalls: yes
per-thread: no
instr-atstart: yes
som: with 
columns: t insn data
event 0 set ev20ra y00
evnd

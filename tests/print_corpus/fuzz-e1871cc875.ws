ws-output-format: 2
tool: ws 0.1.Ž0
command: t/
pid: 3
ppid: 27477
time-unit: i
every: 
tau: 
pagesize: 2034
syscalls: 
per-thread: no
instr-atstart: no
columns: t snd

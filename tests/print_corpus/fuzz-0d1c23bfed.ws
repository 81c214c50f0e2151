ws-output-format: 2
tool: ws 0.1.0
command: tes
pid: ?717
ppid: 2777
time-unit: i
every: 100000
tau: 100000
pagesize: 048
syscalls: yes
per-thread: 
instr-atstart: no
columns: t da
 
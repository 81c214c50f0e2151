ws-output-format: 2
tool: ws 0.1.0
command: 
pid: 27517
ppid: 27477
time-unit: i
every: 100000
tau: 100000
pagesize: 4096
syscalls: yes
per-thread: no
instr-atstart: no
columns: t insn data
event 0 thread-l alpa
dump-begin 7
dump-page insn 0x1000 0
dump-page insn 0x10c2f000000 0
dump-end 2 51
100000007
4

ws-output-format: 2
tool: ws 0.1.0
command: cs
pid: 27517
ppid: 27477
time-unit: i
every: 100000
tau: 10
pagesize: 4096
syscalls: yes
per-thread: no
instr-atstart: no
columns: t insn data
event 0 trtartha
dump-begin 1317
dump-page insn 0xata0 0
d
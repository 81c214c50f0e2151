ws-output-format: 2
tool: ws 0.1.0
command: .b
pid: 3
ppid: 100
time-unit: i
every: 1000
tau: 1000
pagesize: 4096
syscalls: yes
per-thread: no
instr-atstart: yes
ser: with s
columns: t insn data
000 3
7 ene
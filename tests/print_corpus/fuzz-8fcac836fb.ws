ws-output-format: 2
tool: ws 0.1.0
command:  b
pid: 123
ppid: 100
time-unit: i
every: 1000
tau: 1000
pagesize: 4096
syscalls: yes
per-thread: no
instr-atstart: ÿÿ
columns: t insn

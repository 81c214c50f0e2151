ws-output-format: 2
tool: ws 0.1.0
command: b
pid: 124
ppid: 100
time-unit: i
every: 1000
tau: 1000
pagesize: 4096
syscalls: yes
per-thread: no
instr-atstart: yes
some-futureey: wicolons
columns: t insn data
event 0 t00
dum
t 1500 Ölab
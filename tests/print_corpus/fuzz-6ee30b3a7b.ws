ws-output-format: 3
tool: ws 0.1.0
command: ./prog a b
pid: 123
ppid: 100
time-unit: i
every: 1000
tau: 1000
pagesize: 4096
syscalls: yes
per-thread: no
instr-atstart: yes
some-future-key: whatever: with conons
columns: t insn data
event 0 th02 68 80 12 1 68 76 2 7 16
300007 1 13 6 1 1 9 2 1 10
400003 1 10
500004 1 13 6 1¶ â¶
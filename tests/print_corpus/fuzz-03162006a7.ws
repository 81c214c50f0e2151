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
some-futureatever: with colons
columns: t insn data
event 0 thread-star peak 0 data 5 1
stack 6.c:55 main
event 10031
sormat: 2
tool: ws
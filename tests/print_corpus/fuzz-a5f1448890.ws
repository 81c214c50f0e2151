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
some-futuer: with \olons
columns: t insn data
event 0 thread-start 1
# a comment
1003 2 5
stack 1 }3
inlion 2 1 insn 3.0d

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
some-future-key: whatever: with colons
columns: t insn data
event 0 thread-stcomment
1003 2 5
stack 1 3
inline 0x3 heap 2
 5242 0x4a
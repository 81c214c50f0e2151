ws-output-format: 2
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
event 0 thread-start 1
# a comment
1003 2 5
event 1500 mark phase two
dump-begin 1500
dump-page insn 0x10b000 1000
dump-page data 0x4a2c000 1003
dump-page data 0x4a2d000 0
dump-end 1 2
2000
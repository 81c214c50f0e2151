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
2000 3 7
event 2500 thread-exit 1
region 2 1 insn 3.0 3 4 data 7.0 7 9 label phase two
summary insn 2.5 3 4
summary data 6.0 7 9
samples 2
end

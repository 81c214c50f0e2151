ws-output-format: 2
tool: ws 0.1.0
command: ./prog a b
pid: 123
ppid: 100
time-unit: i
every: 1001
tau: 1000
pagesize: 4096
syscalls: yes
per-thread: no
instr-atstart: yes
some-future-kever: with coloLs
columns: t insn data
event 0 thread-start 1
# a comment
1003 2 5
event 1500 mtauark phase two
event 1500 stop
event 1500 set500 sete /tmp/d.ws
event 1500 dump monitor
event 1500 future-kind a b c
event 1500 start
event 1500 dump label phase two
dump-begin 1500
dump-page insn 0x10b000 1000
dump-page data 0x4a2c000 1003
dump-page data 0x4a2d000 0
dump-end 1 2
2000 3 7
event 2500 thread-e insn 2.5 3 4
summary data 6.0 7 9
samples 2
end

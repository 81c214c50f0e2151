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
som: Fwons
columns: t insn data
event 0 thread-start 1
# a comment
1008 2 5
stack 1 3
inline 0x1011c8 spike.c:21 fi
inline 1c8 spike.c:30 spl my teble
owne 2
end

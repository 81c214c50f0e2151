ws-output-format: 3
tool: ws 0.1.0
command: ./g a b
pid: 123
ppid: 100
time-unit: i
every: 1000
tau: 1000
pagesize: 4096
syscalls: yes
per-thread: no
instr-atstart: yes
skey: whatevdr: with colons
columns: t insn data
event 0 thread-start 1
g)
owner pŸ˜šÜinsn 0xata 0x4a2c00010 00
tamain
stu
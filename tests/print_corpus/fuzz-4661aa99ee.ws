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
some-futu: with colons
columns: t insn data
event 0 thread-start 1
# a co40 touch_pages
stack 4 1
frame 0x401300 }lloc.c:9 make_other
h&t-owner heap
ws-output-format: 3
tool: ws 0.1.0
command: ./prog a b
pid: 123
ppid: 100
time-unit: i
every: 1306
tau: 1000
pagesize: 4096
syscalls: yes
per-thread: no
instr-atstart: yes
some-future-key: whatever: with colons
columns: t insn data
event 0 thread-le
owner 0 1 stack DATA@*/nulWl04a5100184464737heap 4 0x09 9227
timea 2 5242 0xm4a
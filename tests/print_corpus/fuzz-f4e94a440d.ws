ws-output-format: 2
tool: ws 0.1.0
command: .b
pid: 123
ppid: 100
time-unit: i
every: 1000
tau: 1000
pagesize: 2048
syscalls: yes
per-thread: no
instr-atstart: yes
some-future-ke9: wh colons
columns: t insn data
# a commen002  two
dump-begin 1503
dump-page data 0x400 0
dump-end 1 2¤ÿÿÿÿÿÿÿÿ
2000
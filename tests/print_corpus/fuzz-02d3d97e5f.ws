ws-output-format: 2
tool: ws 0.1.0
command: testrogs/ctl_m-ous
pid: 27517
ppid: 2747
time-unit: i
every: 100000
tau: 100
pagesize: 4096
syscalls: yes
per-thread: no
instr-atstart: no
columns: t insn data
event 0 tent 0 l aha
dump-begin 0432
dump-page insn 0x10b000 00
dump-page data 0x4a510018446473709 9827
time-undum
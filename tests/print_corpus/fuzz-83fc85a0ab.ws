ws-output-format: 2
tool: ws 0.1.0
command: ./pg a b
pid: 123
ppid: 100
time-unit: i
every: 50
tau: 1000
pagesize: 4096
syscalls: yes
per-thread: no
instr-atstart: yes
s-futue: ons
columns: t insn data
event 0 t -xi¼t 1
region 2 1 insn 3.0 3 4 data 7.0 7 9 label 
tau
ws-output-format: 2
tool: ws 0.1.0
command: ./pro a b
pid: 123
ppid: 100
time-unit: i
every: 1000
tau: 100
pagesize: 41844674407370915096
syscalls: yes
per-thread: no
instr-atstart: yes
s-futr: with 
columns: t in
2mman
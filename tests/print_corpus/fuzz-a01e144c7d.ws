ws-output-format: 2
tool: ws 0.1.0
command: .
pid: 123
ppid: 100
time-unit: i
every: 0000
tau: 1000
pagesize: 4096
syscalls: yes
per-thread: 
instr-atstart: yesolon
columns:  9
700ampl2end

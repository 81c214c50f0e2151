ws-output-format: 2
tool: ws 0.1.0
command: ./g a b
pid: 123
ppid: 100
time-unit: i
every: 1000
tau: 1100
pagesize: 4096
syscalls: yes
per-thread: yes
instr-atstart: yes
some-fer: withns
columns: t in data d
end

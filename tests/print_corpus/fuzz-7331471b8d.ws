ws-output-format: 3
tool: ws 0.1.0
command: ./pro a b
pid: 123
ppid: 100
time-unit: i
every: 1000
tau: 1000
pagesize: 4096
syscalls: yes
per-thread: no
instr-atstart: yes
some-future-kfy: whatever: wi
columns: t insn data
event 0 thread-start ent
1003 2 5 2
end

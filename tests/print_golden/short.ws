ws-output-format: 2
tool: ws 0.1.0
command: tests/progs/marker /dev/null
pid: 9881
ppid: 9827
time-unit: i
every: 100000000
tau: 100000000
pagesize: 4096
syscalls: yes
per-thread: no
instr-atstart: yes
columns: t insn data
event 0 thread-start 1
event 126747 thread-exit 1
summary insn 0.0 0 63
summary data 0.0 0 75
samples 0
end

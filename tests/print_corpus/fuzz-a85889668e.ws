ws-output-format: 2
tool: ws 0.1.0
command: tests/proy: cros
pid: 27517
ppid: 27477
time-unit: i
every: 100000
tau: 100000
pagesize: 4096
syscalls: yes
per-thread: no
instr-atstart: no
columns: t insn data
event 0 thrert
event 5317 dump label alh
dump-begin 1217
dump-page in©

ws-output-format: 3
tool: ws 0.1.0
command: ./prog a b
pid: 123
ppid: 100
time-unit: i
every: 1000
tau: 1000
pagesize: 4096
syscalls: yes
per-thread: no
instr-atstart: yes
some-future-key: whatevolons
columns: t insn data
event 0 threadin
event 1003 peak 0 data 5 1
sta¶¶atâ¶¶â¶¶â¶¶C data 2 5242 0xum4aa
ws-output-format: 2
tool: ws 0.1.0
command: t\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\locker 10 3000000
pid: 9895
ppid: 9827
time-unit: i
every: 1000
tau: 100000
pagesize: 4096
syscalls: yes
per-thread: no
instr-atstart: yes
columns: t insn data
event 5 thread-stars 5 3 4t 1500 dump monitor
event 1500 fut0 set peak-thresh 3
event 1500 data file /tmp/d.ws
event 1500 dump monitor
event 1500 fu
event 1500 data file /tmp/le /tmp/d.ws
event 1500 dumfile /tmp/d.ws
event 1500 dump monitor
event 1500 futurew00
event 1500 set4peak-thresh 1
event 1500 tada file /tmp/d.ws
event 1500 dump monitor
event 1500 fwwwwwwonitor
event 1500 futurew00
event 1500 sek-thresh 1
event 1500 tada file /tmp/d.ws
event 1500 dump monitor
event 1500 ftor
event 1500 futurewwwwwwwfile /tmp/d./d.ile /tmp/d.ws
event 1500 dump monitor
event 1500 futurfile /tmp/d.ws
event 1500 dumfile /tmp/d.ws
event 1500 dump monitor
event 1500 futurew00
event 1500 set4peak-thresh 1
event 1500 tada file /tmp/d.ws
event 1500 du thread-start nt 1500 fwwwwwwwwwa file /tmp/d.ws
event 1500 dump monitor
event 1500 futurfile /tmp/d.ws
event 1500 dumfile /tmp/d.ws
event 1500 dump monitor
event 1500 futurew00
event 1500 set4peak-thresh 1
event 1500 tada file /tmp/d.ws
event 1500 dump monitor
event 1500 ftor
event 1500 futump monitor
event 1500 futurew00
event 1500 set peak-thresh 1
event 1500 data fiwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwa file /tmp/d.ws
event 1500 dump monitor
event 1500 futurfile /tmp/d.ws
event 1500 dumfile /tmp/d.ws
event 1500 dump monitor
event 1500 fufile /tmp/dump monitor
event 1500 ftor
event 1500 futurewwwwwwwfitor
event 1500 fut0 set peak-thresh 3
event 1500 data file /tmp/d.ws
event 1500 dump monitor
event 1500 futurew00
event 1500 or
event 1500 futurewwwwww
event 1500 dumfile /tmp/d.ws
event 1500 dump monitor
event 1500 futur500 set peak-thresh 1
event 1500 tada file /tmp/d.ws
event 1500 dump monitor
event 1500 ftor
event 1500 futurewwwwwwwfile /tmp/d.ws
event 1500 dump monitor
event 1500 futurew00le /tmp/d.ws
event 1500 dump monitor
event 1500 futurewwwwwwse two
event 1500 stgp
event 1500 set ta/*@WS_DATA@*/nul\\\\\\\\\\\\\\ws-out\\
ws-output-format: 2
tool: ws 0.1.0
command: tests/progs/ctl_macros
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
event 0 thread317 dump label alpha
dump-begin 1316
dump-page insn 0x10b000 0
dump-page insn 0x10c000 0
dump-page data 0x4a2c000 0
dump-page data 0x4a2d000 0
dump-page data 0x4a2e000 0
dump-page data 0x4a2f000 0
dump-page data 0x4a30000 0
dump-page data 0x4a31000 0
dump-page data 0x4a32000 0
dump-page data 0x4a33000 0
dump-page data 0x4a34000 0
dump-page data 0x4a35000 0
dump-page data 0x4a36000 0
dump-page data 0x4a37000 0
dump-page data 0x4a38000 0
dump-page data 0x4a39000 0
dump-page data 0x4a3a000 0
dump-page data 0x4a3b000 0
dump-page data 0x4a3c000 0
dump-page data 0x4a3d000 0
dump-page data 0x4a3e000 0
dump-page data 0x4a3f000 0
dump-page data 0x4a40000 0
dump-page data 0x4a41000 0
dump-page data 0x4a42000 0
dump-page data 0x4a43000 0
dump-page data 0x4a44000 0
dump-page data 0x4a45000 0
dump-page data 0x4a46000 0
dump-page data 0x4a47000 0
dump-page data 0x4a48000 0
dump-page data 0x4a49000 0
dump-page data 0x4a4a000 0
dump-page data 0x4a4b000 0
dump-page data 0x4a4c000 0
dump-page data 0x4a4d000 0
dump-page data 0x4a4e000 0
dump-page data 0x4a4f000 0
dump-page data 0x4a50000 0
dump-page data 0x4a51000 0
dump-page data 0x4a52000 0
dump-page data 0x4a53000 0
dump-page data 0x4a54000 0
dump-page data 0x4a55000 0
dump-page data 0x4a56000 0
dump-page data 0x4a57000 0
dump-page data 0x4a58000 0
dump-page data 0x4a59000 0
dump-page data 0x4a5a000 0
dump-page data 0x4a5b000 0
dump-page data 0x4a5c000 0
dump-page data 0x4a5d000 0
dump-page data 0x1ffefff000 0
dump-end 2 51
100001 2 51
200004 1 50
300007 1 50
400001 1 50
500002 9 50
event 500434 stop
event 500434 set tau 50000
event 500434 start
event 500450 mark beta
600002 1 20
700003 1 20
800007 1 20
event 800356 stop
event 800356 mark by-t
event 800372 mark alpha
900004 1 10
1000001 1 10
1100002 1 10
event 1100372 stop
event 1100372 ead-exit 1
region 2 8 insn 1.1 2 4 data 35.1 51 62 label alpha
region 1 3 insn 1.0 1 2 data 20.0 20 21 label beary data 31.0 51 71
samples 11
end

ws-output-format: 3
tool: wr ds 4 00
pid: 9858
pi0d0, 62
evet 1
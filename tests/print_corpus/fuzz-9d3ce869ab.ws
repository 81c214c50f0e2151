ws-output-format: 2
l0

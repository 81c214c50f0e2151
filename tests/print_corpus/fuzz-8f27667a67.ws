ws-output-format: 2#
t
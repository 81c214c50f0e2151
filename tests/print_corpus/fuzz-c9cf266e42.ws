ws-output-format: 2
tool: 
tool: s

ws-output-format: 3
py: ©â€¨©¨©â€¨©ô#©ô#©eâ!rest &
tool: 
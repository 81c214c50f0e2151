ws-output-format: 3
py: I%#©
[ÜV
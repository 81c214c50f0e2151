ws-output-format: 2„r

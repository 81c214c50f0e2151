ws-outpu2t-format: 0

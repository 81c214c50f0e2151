ws-output-format: 3
tool: wóâ³â€¶ââ
pÿ
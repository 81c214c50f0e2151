ws-output-format: 3
s-output-format: 3
tool: wó o%¶â³â€¶ââ
pid: 12ol:zwó¶ââ
pid: 12€ÿ3ùpÿ
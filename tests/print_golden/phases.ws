ws-output-format: 4
tool: ws 0.1.0
command: ./phases
pid: 17080
ppid: 17079
time-unit: i
every: 100000
tau: 100000
pagesize: 4096
syscalls: yes
per-thread: no
instr-atstart: no
count-rep: once
heap-usage: yes
columns: t insn data
event 0 thread-start 1
event 0 mark load
event 0 start
100006 1 32
200014 1 44
300016 1 54
400014 1 62
500012 1 69
600012 1 75
700016 1 81
800010 1 87
900016 1 92
1000020 1 97
1100008 1 102
1200008 1 106
1300000 1 110
1400020 1 114
1500002 1 118
1600006 1 122
1700016 1 126
1800018 1 129
1900004 1 133
2000004 1 136
2100004 1 140
2200018 1 143
2300002 1 146
2400000 1 149
2500012 1 152
2600002 1 155
2700006 1 158
2800010 1 161
2900006 1 164
3000002 1 167
3100004 1 169
3200014 1 172
3300002 1 175
3400018 1 177
3500012 1 180
3600014 1 182
3700000 1 185
3800000 1 187
3900008 1 190
4000008 1 192
4100016 1 195
4200016 1 197
4300008 1 199
4400008 1 202
4500014 1 204
4600020 1 206
4700012 1 208
4800010 1 210
4900002 1 213
5000008 1 215
5100006 1 217
5200004 1 219
5300002 1 221
5400014 1 223
5500012 1 225
5600002 1 227
5700014 1 229
5800004 1 231
5900008 1 233
6000020 1 235
6100002 1 237
6200014 1 239
6300018 1 241
6400000 1 243
6500018 1 245
6600000 1 246
6700010 1 248
6800014 1 250
6900010 1 252
7000006 1 254
7100002 1 256
7200012 1 257
7300008 1 259
7400018 1 261
7500014 1 263
7600016 1 264
7700004 1 266
7800014 1 268
7900002 1 269
8000004 1 271
8100014 1 273
8200002 1 275
8300018 1 276
8400006 1 278
8500008 1 279
8600010 1 281
8700012 1 283
8800006 1 284
8900008 1 286
9000010 1 288
9100004 1 289
9200006 1 291
9300014 1 292
9400016 1 294
9500002 1 295
9600004 1 297
9700020 1 298
9800006 1 300
9900008 1 302
9959427 1 302
event 9959427 final
event 9959427 stop
event 9959427 mark sort
event 9959427 start
10000011 1 281
10100015 1 300
10200019 1 302
10300023 1 302
10400027 1 302
10500031 1 302
10600035 1 302
10700039 1 302
10800001 1 302
10900001 1 302
11000005 1 302
11100009 1 302
11200013 1 302
11300017 1 302
11400021 1 302
11500025 1 302
11600029 1 302
11700033 1 302
11800037 1 302
11900041 1 302
12000003 1 302
12100003 1 301
12200007 1 302
12300011 1 302
12400015 1 302
12500019 1 302
12600023 1 302
12700027 1 302
12800031 1 301
12900035 1 302
13000039 1 302
13100001 1 301
13200001 1 302
13300005 1 302
13400009 1 302
event 13409496 dump label sort
dump-begin 13409496
dump-page insn 0x109000 13400009 13409496 0x1096da phases.c:65 main
dump-page data 0x10c000 13400009 601502 0x10939e phases.c:34 ramp
dump-owner global buf
dump-page data 0x4a2c000 13300005 6484 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a2d000 13300005 6504 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a2e000 13300005 6434 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a2f000 13400009 6436 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a30000 13300005 6414 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a31000 13300005 6428 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a32000 13300005 6396 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a33000 13400009 6366 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a34000 13400009 6382 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a35000 13300005 6360 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a36000 13400009 6296 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a37000 13400009 6274 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a38000 13400009 6296 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a39000 13400009 6276 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a3a000 13400009 6180 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a3b000 13300005 6138 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a3c000 13300005 6194 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a3d000 13400009 6134 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a3e000 13400009 6090 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a3f000 13300005 6078 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a40000 13300005 6092 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a41000 13300005 6054 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a42000 13400009 6068 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a43000 13300005 6014 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a44000 13400009 6056 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a45000 13300005 5950 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a46000 13400009 5990 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a47000 13300005 5916 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a48000 13300005 5974 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a49000 13300005 5920 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a4a000 13300005 5964 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a4b000 13400009 5900 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a4c000 13300005 5882 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a4d000 13300005 5806 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a4e000 13300005 5800 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a4f000 13400009 5858 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a50000 13300005 5834 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a51000 13300005 5732 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a52000 13400009 5740 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a53000 13300005 5732 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a54000 13400009 5698 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a55000 13400009 5670 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a56000 13300005 5686 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a57000 13300005 5612 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a58000 13400009 5612 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a59000 13300005 5600 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a5a000 13300005 5606 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a5b000 13400009 5556 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a5c000 13300005 5518 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a5d000 13300005 5562 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a5e000 13300005 5464 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a5f000 13400009 5490 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a60000 13300005 5466 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a61000 13300005 5488 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a62000 13400009 5392 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a63000 13400009 5406 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a64000 13400009 5376 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a65000 13400009 5364 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a66000 13300005 5338 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a67000 13300005 5336 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a68000 13300005 5256 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a69000 13300005 5252 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a6a000 13300005 5208 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a6b000 13400009 5240 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a6c000 13300005 5198 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a6d000 13300005 5190 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a6e000 13400009 5166 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a6f000 13400009 5146 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a70000 13300005 5134 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a71000 13400009 5128 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a72000 13300005 5112 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a73000 13400009 5076 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a74000 13400009 5024 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a75000 13300005 5066 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a76000 13300005 4992 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a77000 13300005 4936 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a78000 13400009 5020 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a79000 13400009 4960 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a7a000 13300005 4946 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a7b000 13300005 4972 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a7c000 13300005 4874 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a7d000 13300005 4822 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a7e000 13300005 4854 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a7f000 13400009 4844 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a80000 13300005 4808 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a81000 13400009 4770 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a82000 13400009 4752 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a83000 13300005 4752 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a84000 13300005 4768 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a85000 13300005 4734 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a86000 13400009 4746 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a87000 13400009 4708 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a88000 13400009 4672 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a89000 13300005 4682 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a8a000 13400009 4638 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a8b000 13400009 4558 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a8c000 13400009 4542 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a8d000 13300005 4570 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a8e000 13300005 4512 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a8f000 13400009 4492 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a90000 13300005 4520 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a91000 13300005 4504 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a92000 13400009 4474 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a93000 13400009 4400 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a94000 13400009 4476 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a95000 13300005 4420 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a96000 13400009 4368 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a97000 13300005 4394 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a98000 13400009 4356 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a99000 13300005 4316 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a9a000 13300005 4304 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a9b000 13300005 4294 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a9c000 13400009 4286 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a9d000 13300005 4232 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a9e000 13300005 4224 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4a9f000 13400009 4180 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4aa0000 13300005 4182 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4aa1000 13400009 4138 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4aa2000 13300005 4104 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4aa3000 13400009 4098 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4aa4000 13400009 4110 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4aa5000 13300005 4046 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4aa6000 13400009 4042 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4aa7000 13300005 4058 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4aa8000 13400009 4036 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4aa9000 13400009 4006 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4aaa000 13400009 3970 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4aab000 13400009 3932 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4aac000 13400009 3960 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4aad000 13400009 3956 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4aae000 13300005 3844 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4aaf000 13400009 3880 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4ab0000 13300005 3844 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4ab1000 13300005 3874 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4ab2000 13300005 3792 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4ab3000 13400009 3778 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4ab4000 13400009 3778 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4ab5000 13400009 3718 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4ab6000 13400009 3714 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4ab7000 13400009 3750 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4ab8000 13400009 3678 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4ab9000 13400009 3674 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4aba000 13400009 3680 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4abb000 13400009 3632 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4abc000 13400009 3598 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4abd000 13400009 3652 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4abe000 13400009 3618 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4abf000 13300005 3566 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4ac0000 13300005 3564 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4ac1000 13300005 3504 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4ac2000 13400009 3486 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4ac3000 13400009 3472 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4ac4000 13300005 3452 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4ac5000 13300005 3428 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4ac6000 13300005 3434 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4ac7000 13400009 3420 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4ac8000 13300005 3380 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4ac9000 13400009 3324 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4aca000 13300005 3350 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4acb000 13400009 3336 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4acc000 13400009 3282 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4acd000 13300005 3320 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4ace000 13400009 3232 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4acf000 13400009 3254 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4ad0000 13300005 3242 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4ad1000 13300005 3204 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4ad2000 13300005 3178 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4ad3000 13400009 3186 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4ad4000 13400009 3168 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4ad5000 13400009 3132 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4ad6000 13400009 3096 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4ad7000 13300005 3096 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4ad8000 13400009 3044 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4ad9000 13300005 3044 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4ada000 13300005 3020 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4adb000 13300005 2962 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4adc000 13300005 2938 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4add000 13300005 2974 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4ade000 13400009 2964 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4adf000 13400009 2976 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4ae0000 13300005 2860 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4ae1000 13400009 2910 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4ae2000 13300005 2798 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4ae3000 13400009 2862 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4ae4000 13400009 2836 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4ae5000 13400009 2788 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4ae6000 13300005 2756 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4ae7000 13300005 2754 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4ae8000 13400009 2710 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4ae9000 13300005 2736 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4aea000 13300005 2734 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4aeb000 13300005 2762 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4aec000 13300005 2666 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4aed000 13300005 2688 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4aee000 13400009 2624 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4aef000 13300005 2614 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4af0000 13400009 2624 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4af1000 13300005 2562 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4af2000 13400009 2554 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4af3000 13400009 2508 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4af4000 13300005 2490 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4af5000 13300005 2502 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4af6000 13400009 2454 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4af7000 13400009 2438 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4af8000 13300005 2420 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4af9000 13300005 2442 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4afa000 13400009 2410 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4afb000 13300005 2362 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4afc000 13300005 2326 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4afd000 13300005 2312 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4afe000 13400009 2290 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4aff000 13300005 2328 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b00000 13400009 2286 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b01000 13400009 2194 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b02000 13400009 2220 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b03000 13300005 2198 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b04000 13400009 2166 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b05000 13300005 2172 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b06000 13300005 2104 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b07000 13300005 2106 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b08000 13400009 2048 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b09000 13400009 2058 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b0a000 13400009 2068 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b0b000 13400009 2038 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b0c000 13300005 1980 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b0d000 13300005 2016 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b0e000 13300005 1978 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b0f000 13300005 1928 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b10000 13400009 1902 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b11000 13400009 1932 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b12000 13400009 1912 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b13000 13400009 1900 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b14000 13300005 1830 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b15000 13400009 1812 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b16000 13300005 1770 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b17000 13300005 1784 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b18000 13400009 1784 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b19000 13300005 1770 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b1a000 13300005 1740 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b1b000 13300005 1756 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b1c000 13300005 1674 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b1d000 13400009 1694 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b1e000 13400009 1720 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b1f000 13300005 1614 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b20000 13300005 1594 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b21000 13400009 1512 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b22000 13300005 1558 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b23000 13300005 1552 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b24000 13400009 1500 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b25000 13400009 1524 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b26000 13400009 1470 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b27000 13300005 1450 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b28000 13300005 1474 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b29000 13300005 1486 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b2a000 13300005 1484 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b2b000 13300005 1442 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b2c000 13300005 1364 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b2d000 13300005 1350 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b2e000 13400009 1388 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b2f000 13300005 1328 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b30000 13400009 1238 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b31000 13400009 1246 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b32000 13400009 1250 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b33000 13400009 1250 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b34000 13400009 1216 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b35000 13400009 1180 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b36000 13300005 1196 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b37000 13400009 1154 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b38000 13300005 1144 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b39000 13400009 1170 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b3a000 13400009 1094 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b3b000 13300005 1036 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b3c000 13400009 1096 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b3d000 13300005 1054 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b3e000 13400009 1034 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b3f000 13300005 958 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b40000 13300005 1020 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b41000 13400009 992 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b42000 13400009 902 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b43000 13300005 944 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b44000 13300005 868 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b45000 13400009 858 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b46000 13400009 836 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b47000 13400009 802 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b48000 13400009 848 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b49000 13400009 786 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b4a000 13400009 768 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b4b000 13300005 732 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b4c000 13400009 740 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b4d000 13400009 694 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b4e000 13300005 778 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b4f000 13300005 750 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b50000 13400009 754 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b51000 13400009 634 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b52000 13400009 608 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b53000 13300005 640 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b54000 13300005 574 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b55000 13300005 592 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b56000 13400009 540 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x4b57000 13400009 556 0x1093d5 phases.c:34 ramp
dump-owner anon
dump-page data 0x1fff000000 13400009 3853843 0x1096dd phases.c:65 main
dump-owner stack 1
dump-end 1 302
13500027 1 302
13600031 1 302
13700035 1 302
13800039 1 301
13900001 1 302
14000001 1 301
14100005 1 302
14200009 1 301
14300013 1 301
14400017 1 302
14500021 1 301
14600025 1 302
14700029 1 302
14800033 1 302
14900037 1 302
15000041 1 301
15100003 1 302
15200003 1 302
15300007 1 302
15400011 1 302
15500015 1 302
15600019 1 302
15700023 1 302
15800027 1 302
15900031 1 302
16000035 1 301
16100039 1 301
16200001 1 302
16300001 1 302
16400005 1 302
16500009 1 301
16600013 1 302
16700017 1 302
16800021 1 302
16859471 1 302
event 16859471 final
event 16859471 stop
event 16859471 mark index
event 16859471 start
16900005 1 82
17000010 1 82
17100002 1 82
17200007 1 82
17300012 1 82
17400004 1 82
17500009 1 82
17600001 1 82
17700006 1 82
17800010 1 82
17900002 1 82
18000007 1 82
18100012 1 82
18200004 1 82
18300009 1 82
18400001 1 82
18500006 1 82
18600011 1 82
18700003 1 82
18800008 1 82
18900000 1 82
19000005 1 82
19100010 1 82
19200002 1 82
19300007 1 82
19400012 1 82
19489502 1 82
event 19489502 final
event 19489502 stop
event 19489502 mark load
event 19489502 start
19500002 1 11
19600006 1 33
19700018 1 45
19800004 1 55
19900008 1 63
20000006 1 70
20100006 1 76
20200002 1 82
20300010 1 87
20400016 1 92
20500012 1 97
20600014 1 102
20700008 1 106
20800014 1 111
20900012 1 115
21000016 1 119
21100020 1 123
21200000 1 126
21300016 1 130
21400002 1 133
21500010 1 137
21600010 1 140
21700016 1 143
21800008 1 146
21900006 1 150
21994229 1 152
event 21994229 final
event 21994229 stop
event 21994229 thread-exit 1
region 2 126 insn 1.0 1 2 data 182.8 302 454 label load
region 1 70 insn 1.0 1 1 data 301.5 302 302 label sort
region 1 27 insn 1.0 1 1 data 82.0 82 82 label index
hot insn 1 21994229 0x109000 0x1096da phases.c:65 main
hot data 1 6890775 0x1fff000000 0x1096dd phases.c:65 main
hot-owner stack 1
hot data 2 1064750 0x10c000 0x10939e phases.c:34 ramp
hot-owner global buf
hot data 3 9992 0x4a2c000 0x1093d5 phases.c:34 ramp
hot-owner anon
hot data 4 9930 0x4a2e000 0x1093d5 phases.c:34 ramp
hot-owner anon
hot data 5 9926 0x4a2d000 0x1093d5 phases.c:34 ramp
hot-owner anon
hot data 6 9878 0x4a30000 0x1093d5 phases.c:34 ramp
hot-owner anon
hot data 7 9834 0x4a2f000 0x1093d5 phases.c:34 ramp
hot-owner anon
hot data 8 9820 0x4a33000 0x1093d5 phases.c:34 ramp
hot-owner anon
hot data 9 9806 0x4a31000 0x1093d5 phases.c:34 ramp
hot-owner anon
hot data 10 9736 0x4a32000 0x1093d5 phases.c:34 ramp
hot-owner anon
hot data 11 9672 0x4a34000 0x1093d5 phases.c:34 ramp
hot-owner anon
hot data 12 9652 0x4a35000 0x1093d5 phases.c:34 ramp
hot-owner anon
hot data 13 9580 0x4a38000 0x1093d5 phases.c:34 ramp
hot-owner anon
hot data 14 9568 0x4a36000 0x1093d5 phases.c:34 ramp
hot-owner anon
hot data 15 9536 0x4a37000 0x1093d5 phases.c:34 ramp
hot-owner anon
hot data 16 9500 0x4a39000 0x1093d5 phases.c:34 ramp
hot-owner anon
hot data 17 9398 0x4a3a000 0x1093d5 phases.c:34 ramp
hot-owner anon
hot data 18 9344 0x4a3c000 0x1093d5 phases.c:34 ramp
hot-owner anon
hot data 19 9340 0x4a3b000 0x1093d5 phases.c:34 ramp
hot-owner anon
hot data 20 9310 0x4a3d000 0x1093d5 phases.c:34 ramp
hot-owner anon
stack 1 8
frame 0x48bc8cb filedoalloc.c:101 _IO_file_doallocate
inline 0x48ca09f genops.c:347 _IO_doallocbuf
frame 0x48ca09f genops.c:342 _IO_doallocbuf
frame 0x48c9477 fileops.c:744 _IO_file_overflow@@GLIBC_2.2.5
inline 0x48c863d fileops.c:1243 _IO_new_file_xsputn
frame 0x48c863d fileops.c:1196 _IO_file_xsputn@@GLIBC_2.2.5
frame 0x48bea47 ioputs.c:40 puts
frame 0x109b73 phases.c:83 main
heap-site 1 1 chunks 1 bytes 4096 peak-live 4096 usage 0.000 never 1 read-only 0 write-only 0 lifetime 0 first-delay 0 idle-tail 0 useful 0.000 threads 0 touched 0 never-bytes 4096 exit-live 1
stack 2 2
frame 0x10939e phases.c:34 ramp
frame 0x1096ee phases.c:66 main
peak 0 insn 100006 1 0 largest,region sample 2 0
peak-region 0 load
owner 0 1 code phases main
stack 3 2
frame 0x10952b phases.c:40 shuffle
frame 0x10984a phases.c:71 main
peak 1 insn 10000011 1 1 region sample 3 0
peak-region 1 sort
owner 1 1 code phases main
stack 4 2
frame 0x109566 phases.c:53 sweep
frame 0x1099ab phases.c:76 main
peak 2 insn 16900005 1 1 region sample 4 0
peak-region 2 index
owner 2 1 code phases main
stack 5 2
frame 0x1093d5 phases.c:34 ramp
frame 0x1096ee phases.c:66 main
peak 3 data 9400016 294 187 detected rise 5 0
owner 3 292 anon
owner 3 1 global buf
owner 3 1 stack 1
peak 4 data 9900008 302 195 largest,region rise 5 0
peak-region 4 load
owner 4 300 anon
owner 4 1 global buf
owner 4 1 stack 1
stack 6 2
frame 0x10948b phases.c:43 shuffle
frame 0x10984a phases.c:71 main
peak 5 data 10200019 302 202 region rise 6 0
peak-region 5 sort
owner 5 300 anon
owner 5 1 global buf
owner 5 1 stack 1
peak 6 data 13100001 301 242 detected rise 6 0
owner 6 299 anon
owner 6 1 global buf
owner 6 1 stack 1
peak 7 data 13500027 302 249 detected rise 6 0
owner 7 300 anon
owner 7 1 global buf
owner 7 1 stack 1
peak 8 data 16900005 82 296 region sample 4 0
peak-region 8 index
owner 8 80 anon
owner 8 1 global buf
owner 8 1 stack 1
peaks 9 found 3
summary insn 1.0 1 1
summary data 207.9 302 382
samples 223
end

ws-output-format: 4
tool: ws 0.1.0
command: tests/progs/marker /dev/null
pid: 17124
ppid: 17070
time-unit: i
every: 100000000
tau: 100000000
pagesize: 4096
syscalls: yes
per-thread: no
instr-atstart: yes
count-rep: once
heap-usage: yes
columns: t insn data
event 0 thread-start 1
129134 63 75
event 129134 final
event 129134 thread-exit 1
hot insn 1 25648 0x4013000 0x4013970 dl-tunables.c:282 __GI___tunables_init
hot insn 2 23931 0x4009000 0x4009970 dl-lookup.c:756 _dl_lookup_symbol_x
hot insn 3 19092 0x4008000 0x4007fff dl-load.c:2023 _dl_map_object
hot insn 4 12362 0x400d000 0x400dc20 dl-reloc.c:207 _dl_relocate_object
hot insn 5 11199 0x400e000 0x400e0a8 dl-reloc.c:252 _dl_relocate_object
hot insn 6 6088 0x4014000 0x4014060 dl-tunables.c:408 __tunable_get_val
hot insn 7 3706 0x4022000 0x40224a0 strcmp-sse2.S:131 strcmp
hot insn 8 3631 0x4012000 0x4012d90 dl-cache.c:206 search_cache
hot insn 9 2424 0x4023000 0x4023aa0 strlen-sse2.S:101 strlen
hot insn 10 2229 0x4006000 0x4006570 dl-load.c:876 _dl_process_pt_gnu_property
hot insn 11 2207 0x400a000 0x400ac50 dl-object.c:59 _dl_new_object
hot insn 12 1505 0x4018000 0x40180a0 dl-environ.c:29 _dl_next_ld_env_entry
hot insn 13 1443 0x4019000 0x4019180 dl-minimal.c:43 __rtld_malloc_init_stubs
hot insn 14 1059 0x4015000 0x4015690 cpu-features.c:399 init_cpu_features.constprop.0
hot insn 15 1055 0x4002000 0x40020c0 dl-debug.c:56 _dl_debug_initialize
hot insn 16 1035 0x401c000 0x401bff6 rtld.c:198 audit_list_init
hot insn 17 993 0x4004000 0x4004e10 dl-load.c:1578 open_verify.constprop.0
hot insn 18 962 0x4021000 0x4021720 memmove-vec-unaligned-erms.S:219 memcpy
hot insn 19 951 0x4005000 0x4005c90 dl-load.c:468 fillin_rpath.isra.0
hot insn 20 948 0x4007000 0x4007eb0 dl-load.c:1971 _dl_map_object
hot data 1 10601 0x1fff000000 0x401ab73 (ld-linux-x86-64.so.2) ???
hot-owner stack 1
hot data 2 7497 0x1ffefff000 0x4018947 dl-hwcaps.c:231 _dl_important_hwcaps
hot-owner stack 1
hot data 3 4432 0x4835000 0x400accf dl-object.c:98 _dl_new_object
hot-owner anon
hot data 4 3336 0x4032000 0x401b7ad rtld.c:550 _dl_start
hot-owner file /usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2
hot data 5 2026 0x4034000 0x401979e dl-sysdep.c:81 _dl_sysdep_parse_arguments
hot-owner global _environ
hot data 6 1416 0x4031000 0x401ba07 rtld.c:566 _dl_start
hot-owner file /usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2
hot data 7 929 0x4a19000 0x4006df9 get-dynamic-info.h:45 elf_get_dynamic_info
hot-owner file /usr/lib/x86_64-linux-gnu/libc.so.6
hot data 8 814 0x4033000 0x401b7ad rtld.c:550 _dl_start
hot-owner file /usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2
hot data 9 799 0x486b000 0x4012522 dl-version.c:94 match_symbol
hot-owner file /usr/lib/x86_64-linux-gnu/libc.so.6
hot data 10 729 0x4a17000 0x400ddcc dl-reloc.c:301 _dl_relocate_object
hot-owner file /usr/lib/x86_64-linux-gnu/libc.so.6
hot data 11 708 0x4a18000 0x400ddcc dl-reloc.c:301 _dl_relocate_object
hot-owner file /usr/lib/x86_64-linux-gnu/libc.so.6
hot data 12 656 0x4869000 0x40224b6 strcmp-sse2.S:160 strcmp
hot-owner file /usr/lib/x86_64-linux-gnu/libc.so.6
hot data 13 605 0x108000 0x401c6a8 rtld.c:1153 rtld_setup_main_map
hot-owner file /work/wt-tests/tests/progs/marker
hot data 14 603 0x4027000 0x4016560 cpu-features.c:513 init_cpu_features.constprop.0
hot-owner file /usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2
hot data 15 535 0x4000000 0x401ba13 rtld.c:566 _dl_start
hot-owner file /usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2
hot data 16 481 0x1ffeffe000 0x40183be dl-error-skeleton.c:175 _dl_catch_exception
hot-owner stack 1
hot data 17 372 0x4a16000 0x400dda7 dl-reloc.c:301 _dl_relocate_object
hot-owner file /usr/lib/x86_64-linux-gnu/libc.so.6
hot data 18 361 0x4a29000 0x40113f6 dl-tls.c:482 _dl_allocate_tls_storage
hot-owner anon
hot data 19 301 0x10b000 0x401cbd1 get-dynamic-info.h:45 elf_get_dynamic_info
hot-owner file /work/wt-tests/tests/progs/marker
hot data 20 293 0x4837000 0x40072b2 dl-load.c:1379 _dl_map_object_from_fd
hot-owner file /usr/libexec/valgrind/vgpreload_core-amd64-linux.so
stack 1 10
frame 0x4009970 dl-lookup.c:756 _dl_lookup_symbol_x
inline 0x400e460 dl-reloc.c:190 resolve_map
inline 0x400e460 dl-machine.h:271 elf_machine_rela
inline 0x400e460 do-rel.h:147 elf_dynamic_do_Rela
frame 0x400e460 dl-reloc.c:301 _dl_relocate_object
frame 0x401de38 rtld.c:2352 dl_main
frame 0x401a34e dl-sysdep.c:140 _dl_sysdep_start
inline 0x401bccb rtld.c:497 _dl_start_final
frame 0x401bccb rtld.c:584 _dl_start
frame 0x401ab77 (ld-linux-x86-64.so.2) ???
peak 0 insn 129134 63 0 largest rise 1 -
owner 0 3 code ld-linux-x86-64.so.2 dl_main
owner 0 2 code ld-linux-x86-64.so.2 ???
owner 0 2 code ld-linux-x86-64.so.2 _dl_map_object
owner 0 2 code ld-linux-x86-64.so.2 _dl_new_object
owner 0 2 code ld-linux-x86-64.so.2 _dl_relocate_object
owner 0 2 code libc.so.6 open
owner 0 1 code ld-linux-x86-64.so.2 __GI___tunables_init
owner 0 1 code ld-linux-x86-64.so.2 __rtld_malloc_init_stubs
owner 0 1 code ld-linux-x86-64.so.2 __sigsetjmp
owner 0 47 rest
stack 2 9
inline 0x400e3a4 dl-reloc.c:170 resolve_map
inline 0x400e3a4 dl-machine.h:271 elf_machine_rela
inline 0x400e3a4 do-rel.h:147 elf_dynamic_do_Rela
frame 0x400e3a4 dl-reloc.c:301 _dl_relocate_object
frame 0x401de38 rtld.c:2352 dl_main
frame 0x401a34e dl-sysdep.c:140 _dl_sysdep_start
inline 0x401bccb rtld.c:497 _dl_start_final
frame 0x401bccb rtld.c:584 _dl_start
frame 0x401ab77 (ld-linux-x86-64.so.2) ???
peak 1 data 129134 75 0 largest rise 2 -
owner 1 39 file /usr/lib/x86_64-linux-gnu/libc.so.6
owner 1 8 file /usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2
owner 1 7 unknown
owner 1 4 anon
owner 1 3 stack 1
owner 1 3 file /usr/libexec/valgrind/vgpreload_core-amd64-linux.so
owner 1 3 file /work/wt-tests/tests/progs/marker
owner 1 1 global __default_pthread_attr
owner 1 1 global __libc_initial
owner 1 6 rest
peaks 2 found 0
summary insn 63.0 63 63
summary data 75.0 75 75
samples 1
end

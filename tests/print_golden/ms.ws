ws-output-format: 4
tool: ws 0.1.0
command: tests/progs/touch 20 st,0,5,4096,10,20000000 st,0,15,4096,10,20000000
pid: 17119
ppid: 17070
time-unit: ms
every: 20
tau: 20
pagesize: 4096
syscalls: yes
per-thread: no
instr-atstart: yes
count-rep: once
heap-usage: yes
columns: t insn data
event 67 thread-start 1
89 0 0
143 0 0
513 0 0
525 6 46
547 23 60
591 0 0
603 1 5
627 1 5
647 1 5
660 1 5
683 1 5
700 1 5
720 2 18
743 1 15
763 1 15
780 1 15
816 19 32
event 816 final
event 816 thread-exit 1
hot insn 1 39999738 0x10b000 0x10b000 (touch) touch_st
hot insn 2 25648 0x4013000 0x4013970 dl-tunables.c:282 __GI___tunables_init
hot insn 3 24946 0x4009000 0x4009970 dl-lookup.c:756 _dl_lookup_symbol_x
hot insn 4 19960 0x4008000 0x4007fff dl-load.c:2023 _dl_map_object
hot insn 5 12452 0x400d000 0x400dc20 dl-reloc.c:207 _dl_relocate_object
hot insn 6 11433 0x400e000 0x400e0a8 dl-reloc.c:252 _dl_relocate_object
hot insn 7 6326 0x4014000 0x4014060 dl-tunables.c:408 __tunable_get_val
hot insn 8 3825 0x4022000 0x40224a0 strcmp-sse2.S:131 strcmp
hot insn 9 3791 0x4012000 0x4012d90 dl-cache.c:206 search_cache
hot insn 10 2591 0x4023000 0x4023aa0 strlen-sse2.S:101 strlen
hot insn 11 2229 0x4006000 0x4006570 dl-load.c:876 _dl_process_pt_gnu_property
hot insn 12 2207 0x400a000 0x400ac50 dl-object.c:59 _dl_new_object
hot insn 13 1688 0x488f000 0x488fc10 strtol.c:106 strtol
hot insn 14 1505 0x4018000 0x40180a0 dl-environ.c:29 _dl_next_ld_env_entry
hot insn 15 1464 0x10a000 0x10a000 (touch) (below main)
hot insn 16 1443 0x4019000 0x4019180 dl-minimal.c:43 __rtld_malloc_init_stubs
hot insn 17 1059 0x4015000 0x4015690 cpu-features.c:399 init_cpu_features.constprop.0
hot insn 18 1055 0x4002000 0x40020c0 dl-debug.c:56 _dl_debug_initialize
hot insn 19 1035 0x401c000 0x401bff6 rtld.c:198 audit_list_init
hot insn 20 993 0x4004000 0x4004e10 dl-load.c:1578 open_verify.constprop.0
hot data 1 207808 0x4c00000 0x10b00c (touch) touch_st
hot-owner anon
hot data 2 207808 0x4c01000 0x10b00c (touch) touch_st
hot-owner anon
hot data 3 207808 0x4c02000 0x10b00c (touch) touch_st
hot-owner anon
hot data 4 207808 0x4c03000 0x10b00c (touch) touch_st
hot-owner anon
hot data 5 207808 0x4c04000 0x10b00c (touch) touch_st
hot-owner anon
hot data 6 52770 0x4c05000 0x10b00c (touch) touch_st
hot-owner anon
hot data 7 52770 0x4c06000 0x10b00c (touch) touch_st
hot-owner anon
hot data 8 52770 0x4c07000 0x10b00c (touch) touch_st
hot-owner anon
hot data 9 52770 0x4c08000 0x10b00c (touch) touch_st
hot-owner anon
hot data 10 52770 0x4c09000 0x10b00c (touch) touch_st
hot-owner anon
hot data 11 52770 0x4c0a000 0x10b00c (touch) touch_st
hot-owner anon
hot data 12 52770 0x4c0b000 0x10b00c (touch) touch_st
hot-owner anon
hot data 13 52770 0x4c0c000 0x10b00c (touch) touch_st
hot-owner anon
hot data 14 52770 0x4c0d000 0x10b00c (touch) touch_st
hot-owner anon
hot data 15 52770 0x4c0e000 0x10b00c (touch) touch_st
hot-owner anon
hot data 16 11082 0x1fff000000 0x401ab73 (ld-linux-x86-64.so.2) ???
hot-owner stack 1
hot data 17 9301 0x1ffefff000 0x4018947 dl-hwcaps.c:231 _dl_important_hwcaps
hot-owner stack 1
hot data 18 4568 0x4835000 0x400accf dl-object.c:98 _dl_new_object
hot-owner anon
hot data 19 3388 0x4032000 0x401b7ad rtld.c:550 _dl_start
hot-owner file /usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2
hot data 20 2116 0x4034000 0x401979e dl-sysdep.c:81 _dl_sysdep_parse_arguments
hot-owner file /usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2
stack 1 1
frame 0x10a4c7 touch.c:117 main
heap-site 1 1 chunks 1 bytes 96 peak-live 96 usage 1.000 never 0 read-only 0 write-only 0 lifetime 237 first-delay 10 idle-tail 96 useful 0.553 threads 0 touched 96 never-bytes 0 exit-live 1
stack 2 10
inline 0x48e5960 ifunc-sse4_2.h:36 strcspn_ifunc_selector
frame 0x48e5960 strcspn.c:29 strcspn
inline 0x400e011 dl-machine.h:534 elf_machine_lazy_rel
inline 0x400e011 do-rel.h:99 elf_dynamic_do_Rela
frame 0x400e011 dl-reloc.c:301 _dl_relocate_object
frame 0x401de38 rtld.c:2352 dl_main
frame 0x401a34e dl-sysdep.c:140 _dl_sysdep_start
inline 0x401bccb rtld.c:497 _dl_start_final
frame 0x401bccb rtld.c:584 _dl_start
frame 0x401ab77 (ld-linux-x86-64.so.2) ???
peak 0 insn 547 23 2 largest rise 2 -
owner 0 2 code ld-linux-x86-64.so.2 _dl_find_object_init
owner 0 2 code ld-linux-x86-64.so.2 _dl_relocate_object
owner 0 2 code ld-linux-x86-64.so.2 dl_main
owner 0 2 code ld-linux-x86-64.so.2 strcmp
owner 0 1 code ld-linux-x86-64.so.2 __minimal_malloc
owner 0 1 code ld-linux-x86-64.so.2 __rtld_malloc_init_real
owner 0 1 code ld-linux-x86-64.so.2 _dl_add_to_slotinfo
owner 0 1 code ld-linux-x86-64.so.2 _dl_lookup_symbol_x
owner 0 1 code ld-linux-x86-64.so.2 do_lookup_x
owner 0 10 rest
stack 3 6
frame 0x48380c0 (vgpreload_core-amd64-linux.so) ???
frame 0x4001129 dl-call_fini.c:43 _dl_call_fini
frame 0x400486d dl-fini.c:114 _dl_fini
frame 0x488555c exit.c:116 __run_exit_handlers
frame 0x4885699 exit.c:146 exit
frame 0x486e250 libc_start_call_main.h:74 (below main)
peak 1 insn 816 19 2 detected rise 3 -
owner 1 2 code libc.so.6 __libc_cleanup_push_defer
owner 1 2 code touch ???
owner 1 1 code ld-linux-x86-64.so.2 _dl_audit_activity_nsid
owner 1 1 code ld-linux-x86-64.so.2 _dl_call_fini
owner 1 1 code ld-linux-x86-64.so.2 _dl_fini
owner 1 1 code ld-linux-x86-64.so.2 _dl_sort_maps
owner 1 1 code ld-linux-x86-64.so.2 memcpy
owner 1 1 code libc.so.6 (below main)
owner 1 1 code libc.so.6 _IO_cleanup
owner 1 8 rest
stack 4 10
inline 0x48f7a7a cacheinfo.h:67 init_cacheinfo
frame 0x48f7a7a cacheinfo.c:86 __x86_cacheinfo
inline 0x400e6b4 dl-machine.h:462 elf_machine_rela
inline 0x400e6b4 do-rel.h:169 elf_dynamic_do_Rela
frame 0x400e6b4 dl-reloc.c:301 _dl_relocate_object
frame 0x401de38 rtld.c:2352 dl_main
frame 0x401a34e dl-sysdep.c:140 _dl_sysdep_start
inline 0x401bccb rtld.c:497 _dl_start_final
frame 0x401bccb rtld.c:584 _dl_start
frame 0x401ab77 (ld-linux-x86-64.so.2) ???
peak 2 data 547 60 12 largest rise 4 -
owner 2 36 file /usr/lib/x86_64-linux-gnu/libc.so.6
owner 2 8 file /usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2
owner 2 4 anon
owner 2 3 file /usr/libexec/valgrind/vgpreload_core-amd64-linux.so
owner 2 3 file /work/wt-tests/tests/progs/touch
owner 2 2 stack 1
owner 2 1 global __x86_rep_movsb_stop_threshold
owner 2 1 global _rtld_local
owner 2 1 global builtin_modules
owner 2 1 global main_arena
stack 5 8
frame 0x491b5eb register-atfork.c:83 __unregister_atfork
frame 0x4885098 cxa_finalize.c:106 __cxa_finalize
frame 0x10a0c6 (touch) ???
frame 0x4001129 dl-call_fini.c:43 _dl_call_fini
frame 0x400486d dl-fini.c:114 _dl_fini
frame 0x488555c exit.c:116 __run_exit_handlers
frame 0x4885699 exit.c:146 exit
frame 0x486e250 libc_start_call_main.h:74 (below main)
peak 3 data 816 32 12 detected rise 5 2
owner 3 17 anon
owner 3 2 file /usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2
owner 3 2 file /usr/lib/x86_64-linux-gnu/libc.so.6
owner 3 2 file /usr/libexec/valgrind/vgpreload_core-amd64-linux.so
owner 3 1 global __exit_funcs
owner 3 1 global __exit_funcs_lock
owner 3 1 global __libc_single_threaded
owner 3 1 global _rtld_local
owner 3 1 global atfork_lock
owner 3 4 rest
peaks 4 found 2
summary insn 3.5 23 79
summary data 13.6 60 95
samples 17
end

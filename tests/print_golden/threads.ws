ws-output-format: 4
tool: ws 0.1.0
command: tests/progs/threads 5 3 4 2000000
pid: 17113
ppid: 17070
time-unit: i
every: 100000
tau: 100000
pagesize: 4096
syscalls: yes
per-thread: yes
instr-atstart: yes
count-rep: once
heap-usage: yes
columns: t insn data shared {tid insn data}...
event 0 thread-start 1
100001 32 68 0 1 32 68
event 134761 thread-start 2
200007 68 81 12 1 68 77 2 7 16
300007 1 13 6 1 1 9 2 1 10
400002 1 13 6 1 1 9 2 1 10
500004 1 13 6 1 1 9 2 1 10
600007 1 13 6 1 1 9 2 1 10
700003 1 13 6 1 1 9 2 1 10
800005 1 13 6 1 1 9 2 1 10
900001 1 13 6 1 1 9 2 1 10
1000006 1 13 6 1 1 9 2 1 10
1100002 1 13 6 1 1 9 2 1 10
1200002 1 13 6 1 1 9 2 1 10
1300002 1 13 6 1 1 9 2 1 10
1400000 1 13 6 1 1 9 2 1 10
1500005 1 13 6 1 1 9 2 1 10
1600005 1 13 6 1 1 9 2 1 10
1700003 1 13 6 1 1 9 2 1 10
1800007 1 13 6 1 1 9 2 1 10
1900005 1 13 6 1 1 9 2 1 10
2000001 1 13 6 1 1 9 2 1 10
event 2061456 thread-exit 2
2063616 37 43 10 1 26 38
event 2063616 final
event 2063616 thread-exit 1
hot insn 1 1926347 0x10b000 0x10b000 (threads) ???
hot insn 2 25648 0x4013000 0x4013970 dl-tunables.c:282 __GI___tunables_init
hot insn 3 25362 0x4009000 0x4009970 dl-lookup.c:756 _dl_lookup_symbol_x
hot insn 4 20280 0x4008000 0x4007fff dl-load.c:2023 _dl_map_object
hot insn 5 12452 0x400d000 0x400dc20 dl-reloc.c:207 _dl_relocate_object
hot insn 6 11199 0x400e000 0x400e0a8 dl-reloc.c:252 _dl_relocate_object
hot insn 7 6326 0x4014000 0x4014060 dl-tunables.c:408 __tunable_get_val
hot insn 8 4122 0x4022000 0x40224a0 strcmp-sse2.S:131 strcmp
hot insn 9 3831 0x4012000 0x4012d90 dl-cache.c:206 search_cache
hot insn 10 2666 0x4023000 0x4023aa0 strlen-sse2.S:101 strlen
hot insn 11 2229 0x4006000 0x4006570 dl-load.c:876 _dl_process_pt_gnu_property
hot insn 12 2207 0x400a000 0x400ac50 dl-object.c:59 _dl_new_object
hot insn 13 1505 0x4018000 0x40180a0 dl-environ.c:29 _dl_next_ld_env_entry
hot insn 14 1443 0x4019000 0x4019180 dl-minimal.c:43 __rtld_malloc_init_stubs
hot insn 15 1059 0x4015000 0x4015690 cpu-features.c:399 init_cpu_features.constprop.0
hot insn 16 1055 0x4002000 0x40020c0 dl-debug.c:56 _dl_debug_initialize
hot insn 17 1035 0x401c000 0x401bff6 rtld.c:198 audit_list_init
hot insn 18 998 0x4021000 0x4021720 memmove-vec-unaligned-erms.S:219 memcpy
hot insn 19 993 0x4004000 0x4004e10 dl-load.c:1578 open_verify.constprop.0
hot insn 20 951 0x4005000 0x4005c90 dl-load.c:468 fillin_rpath.isra.0
hot data 1 21526 0x4a38000 0x10b029 (threads) ???
hot-owner anon
hot data 2 10835 0x1fff000000 0x401ab73 (ld-linux-x86-64.so.2) ???
hot-owner stack 1
hot data 3 9138 0x1ffefff000 0x4018947 dl-hwcaps.c:231 _dl_important_hwcaps
hot-owner stack 1
hot data 4 8246 0x4a2c000 0x10b04a (threads) ???
hot-owner anon
hot data 5 8246 0x4a2d000 0x10b04a (threads) ???
hot-owner anon
hot data 6 8246 0x4a2e000 0x10b04a (threads) ???
hot-owner anon
hot data 7 8246 0x4a2f000 0x10b04a (threads) ???
hot-owner anon
hot data 8 8246 0x4a30000 0x10b04a (threads) ???
hot-owner anon
hot data 9 4615 0x4835000 0x400accf dl-object.c:98 _dl_new_object
hot-owner anon
hot data 10 4123 0x4a31000 0x10b064 (threads) ???
hot-owner anon
hot data 11 4123 0x4a32000 0x10b064 (threads) ???
hot-owner anon
hot data 12 4123 0x4a33000 0x10b064 (threads) ???
hot-owner anon
hot data 13 4123 0x4a34000 0x10b064 (threads) ???
hot-owner anon
hot data 14 4123 0x4a35000 0x10b064 (threads) ???
hot-owner anon
hot data 15 4123 0x4a36000 0x10b064 (threads) ???
hot-owner anon
hot data 16 4123 0x4a37000 0x10b064 (threads) ???
hot-owner anon
hot data 17 3402 0x4032000 0x401b7ad rtld.c:550 _dl_start
hot-owner file /usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2
hot data 18 2166 0x4034000 0x401979e dl-sysdep.c:81 _dl_sysdep_parse_arguments
hot-owner file /usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2
hot data 19 1428 0x4031000 0x401ba07 rtld.c:566 _dl_start
hot-owner file /usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2
hot data 20 1004 0x4a19000 0x4006df9 get-dynamic-info.h:45 elf_get_dynamic_info
hot-owner file /usr/lib/x86_64-linux-gnu/libc.so.6
stack 1 6
inline 0x4010cb2 rtld-malloc.h:44 calloc
frame 0x4010cb2 dl-tls.c:401 allocate_dtv
frame 0x401171d dl-tls.c:670 _dl_allocate_tls
inline 0x48d0dae allocatestack.c:423 allocate_stack
frame 0x48d0dae pthread_create.c:650 pthread_create@@GLIBC_2.34
frame 0x10a4a5 threads.c:140 main
heap-site 1 1 chunks 1 bytes 272 peak-live 272 usage 1.000 never 0 read-only 0 write-only 0 lifetime 1929341 first-delay 2 idle-tail 1928429 useful 0.000 threads 1 touched 272 never-bytes 0 exit-live 1
stack 2 1
frame 0x10a3b6 threads.c:133 main
heap-site 2 2 chunks 1 bytes 128 peak-live 128 usage 1.000 never 0 read-only 0 write-only 0 lifetime 1931700 first-delay 3 idle-tail 1928429 useful 0.002 threads 1 touched 128 never-bytes 0 exit-live 1
stack 3 3
frame 0x48cfd00 pthread_create.c:234 create_thread
frame 0x48d08ec pthread_create.c:831 pthread_create@@GLIBC_2.34
frame 0x10a4a5 threads.c:140 main
peak 0 insn 200007 68 32 largest rise 3 2
owner 0 2 code ld-linux-x86-64.so.2 ???
owner 0 2 code ld-linux-x86-64.so.2 _dl_relocate_object
owner 0 2 code ld-linux-x86-64.so.2 dl_main
owner 0 2 code threads ???
owner 0 1 code ld-linux-x86-64.so.2 __GI___tunables_init
owner 0 1 code ld-linux-x86-64.so.2 __rtld_malloc_init_stubs
owner 0 1 code ld-linux-x86-64.so.2 __sigsetjmp
owner 0 1 code ld-linux-x86-64.so.2 __tls_pre_init_tp
owner 0 1 code ld-linux-x86-64.so.2 __tunable_get_val
owner 0 55 rest
stack 4 7
frame 0x40224a0 strcmp-sse2.S:131 strcmp
frame 0x4008c26 dl-lookup.c:90 check_match
frame 0x4009119 dl-lookup.c:416 do_lookup_x
frame 0x4009a97 dl-lookup.c:776 _dl_lookup_symbol_x
frame 0x400ff0d dl-runtime.c:95 _dl_fixup
frame 0x4012249 dl-trampoline.h:130 _dl_runtime_resolve_xsave
frame 0x486e249 libc_start_call_main.h:58 (below main)
peak 1 insn 2063616 37 6 detected rise 4 -
owner 1 3 code threads ???
owner 1 2 code ld-linux-x86-64.so.2 _dl_fixup
owner 1 2 code ld-linux-x86-64.so.2 strcmp
owner 1 1 code ld-linux-x86-64.so.2 _dl_audit_activity_nsid
owner 1 1 code ld-linux-x86-64.so.2 _dl_call_fini
owner 1 1 code ld-linux-x86-64.so.2 _dl_fini
owner 1 1 code ld-linux-x86-64.so.2 _dl_lookup_symbol_x
owner 1 1 code ld-linux-x86-64.so.2 _dl_runtime_resolve_xsave
owner 1 1 code ld-linux-x86-64.so.2 do_lookup_x
owner 1 24 rest
stack 5 3
frame 0x488541d exit.c:48 __run_exit_handlers
frame 0x4885699 exit.c:146 exit
frame 0x486e250 libc_start_call_main.h:74 (below main)
peak 2 data 2063616 43 19 detected rise 5 -
owner 2 16 anon
owner 2 9 file /usr/lib/x86_64-linux-gnu/libc.so.6
owner 2 3 file /usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2
owner 2 3 file /usr/libexec/valgrind/vgpreload_core-amd64-linux.so
owner 2 3 file /work/wt-tests/tests/progs/threads
owner 2 2 stack 1
owner 2 1 global __exit_funcs_lock
owner 2 1 global __libc_single_threaded
owner 2 1 global __nptl_nthreads
owner 2 4 rest
stack 6 1
frame 0x10b029 (threads) ???
peak 3 data 200007 81 68 largest rise 6 0
owner 3 36 file /usr/lib/x86_64-linux-gnu/libc.so.6
owner 3 18 anon
owner 3 8 file /usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2
owner 3 3 file /usr/libexec/valgrind/vgpreload_core-amd64-linux.so
owner 3 3 file /work/wt-tests/tests/progs/threads
owner 3 2 stack 1
owner 3 1 heap 2
owner 3 1 global __default_pthread_attr
owner 3 1 global __libc_initial
owner 3 8 rest
heap-window 3 2 live 128 window 128
peaks 4 found 2
summary insn 7.4 68 84
summary data 20.3 81 93
samples 21
end

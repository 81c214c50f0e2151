ws-output-format: 4
tool: ws 0.1.0
command: demo/reindex
pid: 17108
ppid: 17070
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
event 0 mark requests
event 0 start
100007 1 65
200003 1 65
300007 1 65
400003 1 65
500007 1 65
600003 1 65
700002 1 65
800006 1 65
900002 1 65
1000000 18 4198
1100004 1 65
1200000 1 65
1300004 1 65
1400000 1 65
1500004 1 65
1600003 1 65
1700007 1 65
1800003 1 65
1900007 1 65
2000005 19 8303
2100001 1 65
2200005 1 65
2300001 1 65
2400005 1 65
2500001 1 65
2600000 1 65
2700004 1 65
2800000 1 65
2900004 1 65
2957360 1 65
event 2957360 final
event 2957360 stop
event 2957360 thread-exit 1
region 1 30 insn 2.2 19 20 data 477.4 8303 8312 label requests
hot insn 1 2953140 0x109000 0x10943d reindex.cc:64 (anonymous namespace)::serve((anonymous namespace)::Index&) [clone .constprop.0]
hot insn 2 1251 0x4008000 0x4008d60 dl-lookup.c:348 do_lookup_x
hot insn 3 1212 0x4009000 0x4009970 dl-lookup.c:756 _dl_lookup_symbol_x
hot insn 4 470 0x400f000 0x400fe10 dl-runtime.c:46 _dl_fixup
hot insn 5 222 0x4b18000 0x4b18360 malloc.c:1338 checked_request2size
hot insn 6 203 0x4022000 0x40224a0 strcmp-sse2.S:131 strcmp
hot insn 7 200 0x4012000 0x40121c0 dl-trampoline.h:76 _dl_runtime_resolve_xsave
hot insn 8 169 0x4023000 0x40234d0 strcmp-sse2.S:1732 strcmp
hot insn 9 133 0x4b19000 0x4b19930 malloc.c:3281 malloc
hot insn 10 108 0x4b16000 0x4b16ee0 malloc.c:2414 sysmalloc_mmap.constprop.0
hot insn 11 84 0x4b17000 0x4b17b20 malloc.c:2542 sysmalloc
hot insn 12 37 0x4b15000 0x4b15990 malloc.c:1999 alloc_perturb
hot insn 13 32 0x4bd4000 0x4bd4480 memset-vec-unaligned-erms.S:167 __memset_avx2_unaligned_erms
hot insn 14 25 0x4b1d000 0x4b1d840 ifunc-memset.h:54 memset_ifunc_selector
hot insn 15 24 0x48f0000 0x48f0570 (libstdc++.so.6.0.30) operator new(unsigned long)
hot insn 16 21 0x4b82000 0x4b829a0 mmap64.c:47 mmap
hot insn 17 13 0x4010000 0x4010001 dl-runtime.c:162 _dl_fixup
hot insn 18 6 0x48e0000 0x48e0df0 (libstdc++.so.6.0.30) ???
hot insn 19 6 0x48e1000 0x48e1000 (libstdc++.so.6.0.30) ???
hot insn 20 4 0x48ee000 0x48ee8e0 (libstdc++.so.6.0.30) operator delete(void*, unsigned long)
hot data 1 6737 0x137000 0x1092b8 reindex.cc:56 (anonymous namespace)::lookup(unsigned int)
hot-owner global (anonymous namespace)::table
hot data 2 6682 0x144000 0x1092b8 reindex.cc:56 (anonymous namespace)::lookup(unsigned int)
hot-owner global (anonymous namespace)::table
hot data 3 6593 0x141000 0x1092b8 reindex.cc:56 (anonymous namespace)::lookup(unsigned int)
hot-owner global (anonymous namespace)::table
hot data 4 6478 0x121000 0x1092b8 reindex.cc:56 (anonymous namespace)::lookup(unsigned int)
hot-owner global (anonymous namespace)::table
hot data 5 6416 0x114000 0x1092b8 reindex.cc:56 (anonymous namespace)::lookup(unsigned int)
hot-owner global (anonymous namespace)::table
hot data 6 6168 0x11b000 0x1092b8 reindex.cc:56 (anonymous namespace)::lookup(unsigned int)
hot-owner global (anonymous namespace)::table
hot data 7 6106 0x11c000 0x1092b8 reindex.cc:56 (anonymous namespace)::lookup(unsigned int)
hot-owner global (anonymous namespace)::table
hot data 8 6072 0x122000 0x1092b8 reindex.cc:56 (anonymous namespace)::lookup(unsigned int)
hot-owner global (anonymous namespace)::table
hot data 9 5984 0x119000 0x1092b8 reindex.cc:56 (anonymous namespace)::lookup(unsigned int)
hot-owner global (anonymous namespace)::table
hot data 10 5900 0x113000 0x1092b8 reindex.cc:56 (anonymous namespace)::lookup(unsigned int)
hot-owner global (anonymous namespace)::table
hot data 11 5887 0x13a000 0x1092b8 reindex.cc:56 (anonymous namespace)::lookup(unsigned int)
hot-owner global (anonymous namespace)::table
hot data 12 5862 0x12f000 0x1092b8 reindex.cc:56 (anonymous namespace)::lookup(unsigned int)
hot-owner global (anonymous namespace)::table
hot data 13 5860 0x146000 0x1092b8 reindex.cc:56 (anonymous namespace)::lookup(unsigned int)
hot-owner global (anonymous namespace)::table
hot data 14 5841 0x12c000 0x1092b8 reindex.cc:56 (anonymous namespace)::lookup(unsigned int)
hot-owner global (anonymous namespace)::table
hot data 15 5826 0x131000 0x1092b8 reindex.cc:56 (anonymous namespace)::lookup(unsigned int)
hot-owner global (anonymous namespace)::table
hot data 16 5790 0x10c000 0x1092b8 reindex.cc:56 (anonymous namespace)::lookup(unsigned int)
hot-owner global (anonymous namespace)::table
hot data 17 5738 0x126000 0x1092b8 reindex.cc:56 (anonymous namespace)::lookup(unsigned int)
hot-owner global (anonymous namespace)::table
hot data 18 5734 0x138000 0x1092b8 reindex.cc:56 (anonymous namespace)::lookup(unsigned int)
hot-owner global (anonymous namespace)::table
hot data 19 5732 0x14a000 0x1092b8 reindex.cc:56 (anonymous namespace)::lookup(unsigned int)
hot-owner global (anonymous namespace)::table
hot data 20 5728 0x142000 0x1092b8 reindex.cc:56 (anonymous namespace)::lookup(unsigned int)
hot-owner global (anonymous namespace)::table
stack 1 5
frame 0x48ec7b9 (libstdc++.so.6.0.30) ???
inline 0x4004a1d dl-init.c:74 call_init
frame 0x4004a1d dl-init.c:26 call_init
frame 0x4004b03 dl-init.c:121 _dl_init
frame 0x401ab9f (ld-linux-x86-64.so.2) ???
heap-site 1 1 chunks 1 bytes 72704 peak-live 72704 usage 0.000 never 1 read-only 0 write-only 0 lifetime 2957360 first-delay 0 idle-tail 0 useful 0.000 threads 0 touched 0 never-bytes 72704 exit-live 1
stack 2 10
frame 0x4af68cb filedoalloc.c:101 _IO_file_doallocate
inline 0x4b0409f genops.c:347 _IO_doallocbuf
frame 0x4b0409f genops.c:342 _IO_doallocbuf
frame 0x4b03477 fileops.c:744 _IO_file_overflow@@GLIBC_2.2.5
inline 0x4b0263d fileops.c:1243 _IO_new_file_xsputn
frame 0x4b0263d fileops.c:1196 _IO_file_xsputn@@GLIBC_2.2.5
inline 0x4addf75 vfprintf-internal.c:239 outstring_func
frame 0x4addf75 vfprintf-process-arg.c:213 __vfprintf_internal
frame 0x4ad365a printf.c:33 printf
frame 0x10917e reindex.cc:90 main
heap-site 2 2 chunks 1 bytes 4096 peak-live 4096 usage 0.000 never 1 read-only 0 write-only 0 lifetime 0 first-delay 0 idle-tail 0 useful 0.000 threads 0 touched 0 never-bytes 4096 exit-live 1
stack 3 9
inline 0x1092e8 new_allocator.h:137 allocate
inline 0x1092e8 alloc_traits.h:464 allocate
inline 0x1092e8 stl_vector.h:378 _M_allocate
inline 0x1092e8 stl_vector.h:395 _M_create_storage
inline 0x1092e8 stl_vector.h:332 _Vector_base
inline 0x1092e8 stl_vector.h:552 vector
frame 0x1092e8 reindex.cc:46 (anonymous namespace)::rebuild((anonymous namespace)::Index&, unsigned int)
frame 0x109471 reindex.cc:67 (anonymous namespace)::serve((anonymous namespace)::Index&) [clone .constprop.0]
frame 0x109168 reindex.cc:89 main
heap-site 3 3 chunks 2 bytes 33554432 peak-live 33554432 usage 1.000 never 0 read-only 0 write-only 1 lifetime 1040863 first-delay 0 idle-tail 478678 useful 0.533 threads 0 touched 33554432 never-bytes 0 exit-live 0
stack 4 2
frame 0x400fe10 dl-runtime.c:46 _dl_fixup
frame 0x4012249 dl-trampoline.h:130 _dl_runtime_resolve_xsave
peak 0 insn 2000005 19 1 largest,region,detected rise 4 -
peak-region 0 requests
owner 0 2 code ld-linux-x86-64.so.2 _dl_fixup
owner 0 2 code ld-linux-x86-64.so.2 strcmp
owner 0 2 code libstdc++.so.6.0.30 ???
owner 0 1 code ld-linux-x86-64.so.2 _dl_lookup_symbol_x
owner 0 1 code ld-linux-x86-64.so.2 _dl_runtime_resolve_xsave
owner 0 1 code ld-linux-x86-64.so.2 do_lookup_x
owner 0 1 code libc.so.6 __memset_avx2_unaligned_erms
owner 0 1 code libc.so.6 _int_malloc
owner 0 1 code libc.so.6 alloc_perturb
owner 0 7 rest
stack 5 13
frame 0x4b15990 malloc.c:1999 alloc_perturb
frame 0x4b1909c malloc.c:4405 _int_malloc
frame 0x4b19ac9 malloc.c:3315 malloc
frame 0x48f058b (libstdc++.so.6.0.30) operator new(unsigned long)
inline 0x1092e8 new_allocator.h:137 allocate
inline 0x1092e8 alloc_traits.h:464 allocate
inline 0x1092e8 stl_vector.h:378 _M_allocate
inline 0x1092e8 stl_vector.h:395 _M_create_storage
inline 0x1092e8 stl_vector.h:332 _Vector_base
inline 0x1092e8 stl_vector.h:552 vector
frame 0x1092e8 reindex.cc:46 (anonymous namespace)::rebuild((anonymous namespace)::Index&, unsigned int)
frame 0x109471 reindex.cc:67 (anonymous namespace)::serve((anonymous namespace)::Index&) [clone .constprop.0]
frame 0x109168 reindex.cc:89 main
peak 1 insn 1000000 18 1 detected rise 5 10
owner 1 2 code ld-linux-x86-64.so.2 _dl_fixup
owner 1 2 code ld-linux-x86-64.so.2 strcmp
owner 1 1 code ld-linux-x86-64.so.2 _dl_lookup_symbol_x
owner 1 1 code ld-linux-x86-64.so.2 _dl_runtime_resolve_xsave
owner 1 1 code ld-linux-x86-64.so.2 do_lookup_x
owner 1 1 code libc.so.6 __memset_avx2_unaligned_erms
owner 1 1 code libc.so.6 _int_malloc
owner 1 1 code libc.so.6 alloc_perturb
owner 1 1 code libc.so.6 malloc
owner 1 7 rest
stack 6 3
frame 0x10931f reindex.cc:48 (anonymous namespace)::rebuild((anonymous namespace)::Index&, unsigned int)
frame 0x109471 reindex.cc:67 (anonymous namespace)::serve((anonymous namespace)::Index&) [clone .constprop.0]
frame 0x109168 reindex.cc:89 main
peak 2 data 2000005 8303 118 largest,region,detected rise 6 0
peak-region 2 requests
owner 2 4097 heap 3
owner 2 4096 freed 3
owner 2 64 global (anonymous namespace)::table
owner 2 19 file /usr/lib/x86_64-linux-gnu/libstdc++.so.6.0.30
owner 2 6 file /usr/lib/x86_64-linux-gnu/libc.so.6
owner 2 4 anon
owner 2 3 file /usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2
owner 2 2 stack 1
owner 2 2 file /usr/lib/x86_64-linux-gnu/libgcc_s.so.1
owner 2 10 rest
heap-window 2 3 live 16777216 window 16777216
stack 7 15
frame 0x4bd454a memset-vec-unaligned-erms.S:336 __memset_avx2_unaligned_erms
inline 0x109308 stl_algobase.h:922 __fill_a1<unsigned int*, unsigned int>
inline 0x109308 stl_algobase.h:968 __fill_a<unsigned int*, unsigned int>
inline 0x109308 stl_algobase.h:1119 __fill_n_a<unsigned int*, long unsigned int, unsigned int>
inline 0x109308 stl_algobase.h:1108 __fill_n_a<unsigned int*, long unsigned int, unsigned int>
inline 0x109308 stl_algobase.h:1148 fill_n<unsigned int*, long unsigned int, unsigned int>
inline 0x109308 stl_uninitialized.h:663 __uninit_default_n<unsigned int*, long unsigned int>
inline 0x109308 stl_uninitialized.h:655 __uninit_default_n<unsigned int*, long unsigned int>
inline 0x109308 stl_uninitialized.h:701 __uninitialized_default_n<unsigned int*, long unsigned int>
inline 0x109308 stl_uninitialized.h:766 __uninitialized_default_n_a<unsigned int*, long unsigned int, unsigned int>
inline 0x109308 stl_vector.h:1713 _M_default_initialize
inline 0x109308 stl_vector.h:553 vector
frame 0x109308 reindex.cc:46 (anonymous namespace)::rebuild((anonymous namespace)::Index&, unsigned int)
frame 0x109471 reindex.cc:67 (anonymous namespace)::serve((anonymous namespace)::Index&) [clone .constprop.0]
frame 0x109168 reindex.cc:89 main
peak 3 data 1000000 4198 65 detected rise 7 12
owner 3 4097 heap 3
owner 3 64 global (anonymous namespace)::table
owner 3 9 file /usr/lib/x86_64-linux-gnu/libstdc++.so.6.0.30
owner 3 7 file /usr/lib/x86_64-linux-gnu/libc.so.6
owner 3 4 anon
owner 3 3 file /usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2
owner 3 2 stack 1
owner 3 2 file /usr/lib/x86_64-linux-gnu/libgcc_s.so.1
owner 3 2 file /usr/libexec/valgrind/vgpreload_core-amd64-linux.so
owner 3 8 rest
heap-window 3 3 live 16777216 window 16777216
peaks 4 found 4
summary insn 2.2 19 20
summary data 477.4 8303 8312
samples 30
end

ws-dump-format: 4
pid: 7
output-file: /tmp/ws\x20out.7
time-unit: ms
every: 20
tau: 40
pagesize: 4096
dump-begin 1500
dump-page insn 0x10b000 1000 912 0x10b1a0 marker.c:41 main
dump-page insn 0x4001000 0 27 0x4001040 (ld-linux-x86-64.so.2) ???
dump-page data 0x108000 1000 844 0x401c6a8 rtld.c:1153 rtld_setup_main_map
dump-owner file /work/tests/progs/marker
dump-page data 0x402a000 0 47 0x4018ff8 dl-hwcaps_split.c:34 _dl_hwcaps_split
dump-owner global _dl_hwcaps_subdirs
dump-page data 0x4a2c000 1000 40 0x10b1c4 marker.c:44 main
stack 1 2
inline 0x10b1c0 vec.h:12 grow
frame 0x10b1c0 marker.c:43 main
dump-owner heap 1 0x4a2c040 8192
dump-page data 0x4a2d000 0 3 0x10b1c4 marker.c:44 main
dump-owner freed 1
dump-page data 0x4a35000 1000 4600 0x400accf dl-object.c:98 _dl_new_object
dump-owner anon
dump-page data 0x4a40000 0 10 0x4012cba dl-cache.c:372 _dl_cache_libcmp
dump-owner unknown
dump-page data 0x4a4c000 0 10 0x4012cba dl-cache.c:372 _dl_cache_libcmp
dump-owner heap-other
dump-page data 0x1ffefff000 1000 17420 0x401c00e rtld.c:196 audit_list_init
dump-owner stack 1
dump-end 2 8

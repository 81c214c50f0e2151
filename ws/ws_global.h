/*--------------------------------------------------------------------*/
/*--- ws: a working-set measurement tool.            ws_global.h ---*/
/*--------------------------------------------------------------------*/

/*
   This file is part of ws, a Valgrind tool that measures a program's
   instruction and data working sets over time.

   Copyright (C) 2026 the ws authors.

   This program is free software; you can redistribute it and/or
   modify it under the terms of the GNU General Public License as
   published by the Free Software Foundation; either version 2 of the
   License, or (at your option) any later version.

   This program is distributed in the hope that it will be useful, but
   WITHOUT ANY WARRANTY; without even the implied warranty of
   MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
   General Public License for more details.

   The GNU General Public License is contained in the file COPYING.
*/

/* What the modules of ws share.  Each module owns one concern:

     ws_options.c     command-line options: parsing, checking, usage
     ws_pagetable.c   the two-level page tables (one stamp per page)
     ws_sampler.c     the clock, stamps, window counters and samples
     ws_threads.c     per-thread working sets and shared pages
     ws_instrument.c  the VEX IR emitted for every superblock
     ws_syscalls.c    memory touched by the kernel, unmapped ranges
     ws_regions.c     summaries of named measured regions
     ws_peaks.c       the online peak detector, peaks and their stacks
     ws_stacks.c      call stacks and code locations in the output
     ws_hot.c         per-page access counts, first accesses, hot pages
     ws_heap.c        the program's heap blocks (wrapped malloc/free)
     ws_heapuse.c     how the program uses each heap chunk, per site
     ws_heapsites.c   the allocation sites' figures, written
     ws_owners.c      what lives in a data page; breakdowns by owner
     ws_misses.c      working-set misses per code address (--ws-miss-file)
     ws_control.c     what steering can do: marks, labels, dumps
     ws_clientreq.c   the client requests of valgrind/ws.h    } two doors
     ws_monitor.c     the "ws ..." monitor commands           } onto it
     ws_output.c      the output file and the stderr summary
     ws_main.c        tool registration, start-up and exit

   Data flow: guest code -> instrumentation -> page table -> sampler
   -> output.  The fast path lives entirely in the IR that
   ws_instrument.c emits; the C functions here run only when a page
   changes state or a time boundary is crossed. */

#ifndef __WS_GLOBAL_H
#define __WS_GLOBAL_H

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_execontext.h"
#include "pub_tool_hashtable.h"

#define WS_(str)    VGAPPEND(vgWS_,str)

#define WS_VERSION        "0.1.0"
#define WS_FORMAT_VERSION 4

/*------------------------------------------------------------*/
/*--- Options (ws_options.c)                               ---*/
/*------------------------------------------------------------*/

typedef enum { WS_TimeInsns, WS_TimeMillis } WS_TimeUnit;

extern ULong        WS_(clo_every);      /* sampling interval T */
extern ULong        WS_(clo_tau);        /* window; 0 = same as T until
                                            post_clo_init fixes it */
extern UInt         WS_(clo_pagesize);
extern WS_TimeUnit  WS_(clo_time_unit);
extern const HChar* WS_(clo_file);
extern const HChar* WS_(clo_file_option);  /* "--ws-file" or its alias */
extern Bool         WS_(clo_per_thread);
extern Bool         WS_(clo_syscalls);
extern Bool         WS_(clo_instr_atstart);
extern Bool         WS_(clo_peak_detect);
extern ULong        WS_(clo_peak_window);  /* samples */
extern ULong        WS_(clo_peak_thresh);  /* dynamic */
extern ULong        WS_(clo_hot);          /* hot pages of each kind */
extern Bool         WS_(clo_list_pages);
extern Bool         WS_(clo_locations);
extern Bool         WS_(clo_heap);
extern Bool         WS_(clo_heap_usage);
extern const HChar* WS_(clo_miss_file);    /* NULL: no miss profile */

#define WS_MAX_PEAK_WINDOW  1000000
#define WS_MAX_PEAK_THRESH  1000
#define WS_MAX_HOT          100000

extern UInt         WS_(page_shift);     /* log2(clo_pagesize) */

/* The largest T or tau: times are kept in 64 bits, this leaves room
   for sums. */
#define WS_MAX_INTERVAL   1000000000000000ULL

Bool WS_(process_cmd_line_option)(const HChar* arg);
/* Whether |s| is a whole number from 1 to WS_MAX_INTERVAL (the values
   --ws-every and --ws-tau accept); if so it is stored in |out|. */
Bool WS_(interval_value)(const HChar* s, ULong* out);
void WS_(print_usage)(void);
void WS_(print_debug_usage)(void);
void WS_(post_clo_check)(void);

/*------------------------------------------------------------*/
/*--- Page tables (ws_pagetable.c)                         ---*/
/*------------------------------------------------------------*/

/* A page's state is one 32-bit stamp: the epoch of its most recent
   access.  0 means never touched; the top bit means "unmapped since
   that access", so the next touch counts as a new page in the totals
   while the stamp still tells whether it is in the window. */
typedef UInt Stamp;
#define WS_STAMP_NEVER  0u
#define WS_STAMP_DEAD   0x80000000u
#define WS_STAMP_MASK   0x7FFFFFFFu

/* Two levels: a fixed first level of WS_L1_ENTRIES pointers, each to a
   chunk of 2^chunk_bits stamps.  Untouched first-level slots point to
   one shared all-zero chunk, so the inline lookup needs no NULL test;
   only the slow path ever writes a stamp, and it gives a slot its own
   chunk first.  Addresses above the 47-bit user space alias lower ones
   (the index is masked); see docs/limits.md. */
#define WS_L1_BITS      17
#define WS_L1_ENTRIES   (1u << WS_L1_BITS)
#define WS_ADDR_BITS    47

typedef struct {
   Stamp** l1;          /* WS_L1_ENTRIES chunk pointers */
   UInt    chunk_bits;  /* pages per chunk = 2^chunk_bits */
   SizeT   elem_size;   /* bytes per page: sizeof(Stamp), or a record's */
   UInt*   span;        /* per chunk: first and last + 1 slot used */
   UInt*   used;        /* indices of the chunks in use, ascending */
   UInt    n_used;
   Stamp** blocks;      /* per chunk: the latest stamp of each block of
                           WS_BLOCK_PAGES pages, or NULL if its table
                           is never walked by window */
   Bool    owns_l1;     /* l1 was allocated by pt_init */
} WS_PageTable;

#define WS_BLOCK_SHIFT  6
#define WS_BLOCK_PAGES  (1u << WS_BLOCK_SHIFT)

/* |l1_storage|: WS_L1_ENTRIES slots to use as the first level, or NULL
   to allocate them (the two process-wide tables use static storage;
   per-thread tables are allocated and freed with their threads). */
void   WS_(pt_init)(WS_PageTable* pt, Bool sparse, Stamp** l1_storage);
void   WS_(pt_free)(WS_PageTable* pt);
/* The stamp slot of page number |page|, creating its chunk. */
Stamp* WS_(pt_slot)(WS_PageTable* pt, Addr page);
/* Makes pt_for_window visit only the blocks of pages that hold a
   stamp in the window; every stamp must then be written by pt_stamp. */
void   WS_(pt_track_windows)(WS_PageTable* pt);
/* *slot = s, for |slot| = pt_slot(pt, page). */
void   WS_(pt_stamp)(WS_PageTable* pt, Stamp* slot, Addr page, Stamp s);
/* A sparse table of |record_size|-byte records per page (zero until
   written), and its lookups: creating the chunk, or NULL without. */
void   WS_(pt_init_records)(WS_PageTable* pt, SizeT record_size);
void*  WS_(pt_record)(WS_PageTable* pt, Addr page);
void*  WS_(pt_record_if_any)(const WS_PageTable* pt, Addr page);
/* Calls |fn| on every existing slot for pages [first, last] (in a
   record table |slot| points to the page's record). */
void   WS_(pt_for_range)(WS_PageTable* pt, Addr first, Addr last,
                         void (*fn)(Stamp* slot, Addr page, void* opaque),
                         void* opaque);
/* The same for the pages of a stamp table whose stamp is at or after
   |first| (a window's pages). */
void   WS_(pt_for_window)(WS_PageTable* pt, Stamp first,
                          void (*fn)(Stamp* slot, Addr page, void* opaque),
                          void* opaque);
/* The same for every page of the user address space. */
void   WS_(pt_for_all)(WS_PageTable* pt,
                       void (*fn)(Stamp* slot, Addr page, void* opaque),
                       void* opaque);

/* The data TLB: page numbers known to be current in this epoch, direct
   mapped by page number.  The inline check of a data access is one
   load from it and one compare; the page tables are walked only by the
   helper on a miss, which refills the entry.  Each entry also counts
   the accesses to its page since it was filled: the inline code adds
   to it (the same cache line as the tag), and ws_hot.c moves the count
   to the page's record when the entry is refilled or emptied.
   Emptied (all entries WS_DTLB_EMPTY) whenever an epoch begins or
   memory is unmapped.

   An entry holds its page once per kind of check (loads only, stores
   only, both), and a check compares the tag of its kind, so that a
   kind of access to a page can be kept out of the TLB while the rest
   hits: ws_heapuse.c makes the first read and the first write of a
   heap page after an allocation on it reach the helper.  A tag kept
   out has WS_DTLB_TRAP set, which no address's page has: the compare
   fails, and the entry still holds the page for the counts. */
typedef enum { WS_Read = 1, WS_Write = 2, WS_ReadWrite = 3 } WS_AccessKind;
#define WS_DTLB_ENTRIES  4096
#define WS_DTLB_EMPTY    (~0ULL)
#define WS_DTLB_TRAP     (1ULL << 62)
typedef struct {
   ULong tag[3];        /* the page, indexed by WS_AccessKind - 1 */
   ULong accesses;
} WS_DtlbEntry;
#define WS_DTLB_ENTRY_SHIFT 5        /* log2(sizeof(WS_DtlbEntry)) */
extern WS_DtlbEntry WS_(dtlb)[WS_DTLB_ENTRIES];
/* The page an entry holds (the both-kinds tag is trapped whenever a
   kind is), or WS_DTLB_EMPTY. */
#define WS_DTLB_PAGE(e) \
   ((e)->tag[WS_ReadWrite - 1] == WS_DTLB_EMPTY \
    ? WS_DTLB_EMPTY : (e)->tag[WS_ReadWrite - 1] & ~WS_DTLB_TRAP)
/* Fills the entry for |page| (its old entry's count is kept). */
void WS_(dtlb_fill)(Addr page);
/* Moves the count of |page|'s entry, if it holds the page, to the page
   now (the entry stays filled). */
void WS_(dtlb_settle_page)(Addr page);
/* Empties the TLB now (every page's next access reaches the helper). */
void WS_(dtlb_flush)(void);
/* Gives |page|'s entry, if it holds the page, the tags ws_heapuse.c
   wants for it now, so that a kind of access it keeps out reaches the
   helper from now on. */
void WS_(dtlb_refresh_page)(Addr page);

/*------------------------------------------------------------*/
/*--- Window counters and the sampler (ws_sampler.c)       ---*/
/*------------------------------------------------------------*/

/* Counts, for one set of pages, how many pages have their latest
   stamp s in [first, current]: a ring indexed by stamp.  |size| is the
   sum of the ring, i.e. the working set size, kept up to date on
   every change so that a sample never scans the pages. */
typedef struct {
   UInt*  counts;   /* ring of 'cap' counters, index = stamp & (cap-1) */
   UInt   cap;      /* power of two, > current - first */
   Stamp  first;    /* oldest stamp still in the window */
   ULong  size;     /* pages whose stamp is in [first, current] */
} WS_Window;

void  WS_(win_init)(WS_Window* w);
void  WS_(win_free)(WS_Window* w);
/* A page's stamp moves from |old| to |new| (either may be 0, never, or
   older than the window). */
void  WS_(win_set)(WS_Window* w, Stamp old, Stamp new);
/* Drop stamps older than |first| from the window. */
void  WS_(win_advance)(WS_Window* w, Stamp first);

typedef enum { WS_Insn = 0, WS_Data = 1 } WS_Kind;

extern Stamp WS_(cur_stamp);    /* current epoch */
extern WS_PageTable WS_(tables)[2];

/* While a thread runs translations, the clock and the current epoch
   live in its guest state's first shadow area (ws keeps no shadow
   registers), where the IR reaches them off the guest state pointer:
   the instructions left before the next boundary, which the IR counts
   down, and a copy of WS_(cur_stamp).  Offsets into that area. */
#define WS_SHADOW_LEFT   0      /* Long */
#define WS_SHADOW_STAMP  8      /* Stamp */

void  WS_(sampler_init)(void);
/* The clock passes to thread |tid|'s shadow area as it starts running
   translations, and back when it stops. */
void  WS_(clock_to_thread)(ThreadId tid);
void  WS_(clock_from_thread)(ThreadId tid);
/* Called (from IR) at the start of a superblock when no instruction is
   left before the next boundary. */
void  WS_(boundary)(void);
/* A new epoch now (e.g. another thread starts running). */
void  WS_(new_stamp)(void);
/* Records an access of |kind| to bytes [a, a+size-1] by the
   instruction at |ip|. */
void  WS_(touch_range)(WS_Kind kind, Addr a, SizeT size, Addr ip);
/* The slow paths called from IR. */
/* |site|: the access's size and its instruction's address in one
   word, WS_MISS_SITE(size, ip) (user addresses have 47 bits); or, with
   WS_SITE_RECORD set, a WS_SiteRecord for a check that counts several
   accesses which may lie on two pages. */
#define WS_MISS_SITE(size, ip)  (((HWord)(size) << 48) | (HWord)(ip))
#define WS_SITE_RECORD          (1ULL << 63)

/* One access counted on a check: its last byte, off the check's first
   byte, and how many accesses it counts. */
typedef struct {
   UInt last;
   UInt weight;
} WS_CheckPart;

typedef struct {
   Addr  ip;
   UInt  size;          /* bytes the check covers */
   UInt  weight;        /* the parts' weights summed */
   UInt  n_parts;
   WS_CheckPart parts[0];
} WS_SiteRecord;

/* The record for these parts at |ip| (the same one for the same
   arguments, so that retranslations share it). */
WS_SiteRecord* WS_(site_record)(Addr ip, UInt size,
                                const WS_CheckPart* parts, UInt n_parts);
/* Shares the parts' accesses out among the pages of a check at |a|
   whose range crossed a page boundary (e: its TLB entry). */
void WS_(share_out)(const WS_SiteRecord* r, Addr a, WS_DtlbEntry* e);
/* The helpers of a data check's miss, one per kind of check (what
   the accesses it counts do): VG_REGPARM(2) void (Addr a, HWord site). */
typedef struct {
   const HChar* name;
   void*        fn;
} WS_DataMiss;
const WS_DataMiss* WS_(data_miss_of_kind)(WS_AccessKind kind);
/* The same for a check of |size| bytes, with the instruction's address
   taken from the guest state, for a check where that holds it (see
   ws_instrument.c), so that the IR passes the address alone:
   VG_REGPARM(1) void (Addr a); NULL if |size| has no such helper. */
const WS_DataMiss* WS_(data_miss_of_size)(UInt size, WS_AccessKind kind);
/* |a|: an address in the code page, where it was reached. */
VG_REGPARM(1) void WS_(insn_miss)(Addr a);
/* The same, for the page of the guest's instruction pointer. */
void WS_(insn_miss_at_ip)(void);
/* The page after |ip|'s, which the instruction at |ip| reaches into. */
VG_REGPARM(1) void WS_(insn_miss_straddling)(Addr ip);
/* Marks pages [a, a+len) as unmapped. */
void  WS_(unmapped)(Addr a, SizeT len);
/* The current time in the user's time unit. */
ULong WS_(now)(void);

/* How often the slow paths and the instrumentation ran, for
   --stats=yes (they tell where the time goes). */
typedef struct {
   ULong data_misses;      /* data-check helper calls */
   ULong insn_misses;      /* WS_(insn_miss) calls */
   ULong boundaries;       /* WS_(boundary) calls */
   ULong sbs;              /* superblocks instrumented */
   ULong data_checks;      /* inline data checks emitted */
   ULong data_elided;      /* data checks left out */
   ULong insn_checks;      /* inline code-page checks emitted */
} WS_Counters;
extern WS_Counters WS_(counters);
void WS_(print_counters)(void);

/* Measurement on or off (WS_START / WS_STOP, "ws start" / "ws stop").
   While off, code runs uninstrumented, the clock stands still and no
   sample is taken. */
extern Bool WS_(measuring);
void  WS_(measure_start)(void);
void  WS_(measure_stop)(void);
/* Change T or tau from now on (a new epoch begins at once). */
void  WS_(set_every)(ULong every);
void  WS_(set_tau)(ULong tau);
/* Pages with a stamp in the window of the last sample or later: the
   working set over a window that started at the last sample's window
   start (between tau and tau + T long). */
void  WS_(current_sizes)(ULong sizes[2]);
Stamp WS_(window_first_stamp)(void);
/* When epoch |s| began, if it is still in the window; else 0. */
ULong WS_(stamp_start_time)(Stamp s);

typedef struct { ULong t, insn, data; } WS_Sample;
/* Copies the last min(n, kept) samples, oldest first; returns how many.
   The last 1024 samples are kept. */
ULong WS_(series)(ULong n, WS_Sample* out);

/* Run-wide statistics for the summaries. */
typedef struct {
   ULong samples;
   ULong sum[2];        /* sum of sample sizes, per kind */
   ULong peak[2];
   ULong total[2];      /* distinct pages ever touched */
} WS_Stats;
extern WS_Stats WS_(stats);
/* In a forked child: no samples yet (its file has none of the
   parent's). */
void  WS_(sampler_after_fork)(void);

/*------------------------------------------------------------*/
/*--- Regions (ws_regions.c)                               ---*/
/*------------------------------------------------------------*/

extern Stamp WS_(region_first);     /* first epoch of the open region,
                                       0 when none is open */
extern ULong WS_(region_total)[2];  /* distinct pages it touched */
void  WS_(region_mark)(const HChar* label);
void  WS_(region_open)(void);
void  WS_(region_close)(void);
void  WS_(region_sample)(ULong insn, ULong data);
/* In a forked child: only the open region, without the parent's
   samples. */
void  WS_(regions_after_fork)(void);
void  WS_(regions_report)(void (*report)(const HChar* label, ULong regions,
                                         ULong samples, const ULong sum[2],
                                         const ULong peak[2],
                                         const ULong total[2]));

/*------------------------------------------------------------*/
/*--- Control (ws_control.c, ws_clientreq.c, ws_monitor.c) ---*/
/*------------------------------------------------------------*/

/* Labels are at most this many characters (the NUL not counted). */
#define WS_LABEL_MAX  255

typedef enum { WS_Label_OK, WS_Label_Empty, WS_Label_Control }
   WS_LabelCheck;
/* Makes |s| fit an event line (blanks trimmed and folded), in place. */
WS_LabelCheck WS_(tidy_label)(HChar* s);
/* A mark event now; it names the open region. */
void WS_(mark)(const HChar* label);
/* The current window's pages: into the output file after a "dump
   label" event; to the gdb/vgdb output; into a file of its own
   (False, with the reason told to gdb, if it cannot be made). */
void WS_(dump_to_output)(const HChar* label);
void WS_(dump_to_monitor)(void);
Bool WS_(dump_to_file)(const HChar* name);

/* Registered with VG_(needs_client_requests): the WS_* requests of
   include/valgrind/ws.h and VG_USERREQ__GDB_MONITOR_COMMAND. */
Bool WS_(handle_client_request)(ThreadId tid, UWord* arg, UWord* ret);
/* True if |req| was a ws command (answered, even if refused). */
Bool WS_(handle_monitor_command)(const HChar* req);

/*------------------------------------------------------------*/
/*--- Threads (ws_threads.c)                               ---*/
/*------------------------------------------------------------*/

void  WS_(threads_init)(void);
/* Slow-path hook: thread |tid| touched |page| of |kind|, whose stamp
   before this touch was |prev|. */
void  WS_(thread_touch)(ThreadId tid, WS_Kind kind, Addr page, Stamp prev);
/* Before a sample: move every thread's window to start at |first|. */
/* In a forked child: only thread |tid| is left. */
void  WS_(threads_after_fork)(ThreadId tid);
void  WS_(threads_advance)(Stamp first);
/* Appends " shared tid insn data ..." columns to a sample line. */
void  WS_(threads_write_columns)(void);
void  WS_(thread_created)(ThreadId parent, ThreadId child);
void  WS_(thread_exited)(ThreadId tid);
void  WS_(thread_running)(ThreadId tid);

/*------------------------------------------------------------*/
/*--- Instrumentation (ws_instrument.c)                    ---*/
/*------------------------------------------------------------*/

IRSB* WS_(instrument)(VgCallbackClosure* closure, IRSB* sbIn,
                      const VexGuestLayout* layout,
                      const VexGuestExtents* vge,
                      const VexArchInfo* archinfo_host,
                      IRType gWordTy, IRType hWordTy);

/*------------------------------------------------------------*/
/*--- Kernel-side accesses and unmaps (ws_syscalls.c)      ---*/
/*------------------------------------------------------------*/

void WS_(syscalls_init)(void);
void WS_(pre_syscall)(ThreadId tid, UInt syscallno, UWord* args,
                      UInt nArgs);
void WS_(post_syscall)(ThreadId tid, UInt syscallno, UWord* args,
                       UInt nArgs, SysRes res);

/*------------------------------------------------------------*/
/*--- Call stacks and locations (ws_stacks.c)              ---*/
/*------------------------------------------------------------*/

/* A file that stack blocks are written into, and the stacks it holds:
   the output file, or a dump file, which names its own.  The blocks'
   text goes through |put_char|, newlines included. */
typedef struct {
   VgHashTable* written;        /* ECU -> id; NULL: none yet */
   UInt         next_id;        /* from 1 */
   void       (*put_char)(HChar c, void* opaque);
   void*        opaque;
} WS_StackFile;
/* Stack ids in |sf|: a stack is written as a "stack" block the first
   time it is referred to (so call this before starting the line that
   refers to it; never while a line is half built).  Returns the id,
   unique in that file. */
UInt WS_(stack_id)(WS_StackFile* sf, ExeContext* ec);
/* Forgets what |sf| holds (its file was closed or started afresh). */
void WS_(stack_file_forget)(WS_StackFile* sf);
/* The output file's, and WS_(stack_id) for it. */
WS_StackFile* WS_(out_stacks)(void);
UInt WS_(out_stack)(ExeContext* ec);
/* Appends " <ip> <location> <function>" for code address |ip| to the
   line being built (docs/output-format.md, "Stacks"). */
void WS_(out_where)(Addr ip);
/* The same into |buf| (without the leading blank), for lines that do
   not go to the output file. */
#define WS_TEXT_MAX 1024
void WS_(where_text)(Addr ip, HChar* buf, SizeT size);
/* The same for the gdb/vgdb output, and whole stacks there. */
void WS_(monitor_where)(Addr ip);
void WS_(monitor_stack)(ExeContext* ec, const HChar* indent);

/*------------------------------------------------------------*/
/*--- Peaks (ws_peaks.c)                                   ---*/
/*------------------------------------------------------------*/

/* Called after every sample is written, with its sizes. */
void  WS_(peaks_sample)(ULong t, ULong insn, ULong data);
void  WS_(set_peak_thresh)(ULong thresh);
ULong WS_(peaks_count)(void);
void  WS_(peaks_to_monitor)(void);      /* "ws peaks" */
void  WS_(peaks_trailer)(void);         /* the "peaks N" line */
/* In a forked child: no peaks yet (its file has none of the parent's). */
void  WS_(peaks_after_fork)(void);

/*------------------------------------------------------------*/
/*--- Access counts and hot pages (ws_hot.c)               ---*/
/*------------------------------------------------------------*/

/* Accesses counted inline sit in the data TLB's counters until the
   entry is refilled or emptied; this moves them to the pages. */
void  WS_(flush_access_counts)(void);
/* Slow-path hooks: the first touch ever of |page| of |kind|, by the
   instruction at |ip|; |n| accesses to data page |page|. */
void  WS_(first_touch)(WS_Kind kind, Addr page, Addr ip);
void  WS_(add_accesses)(Addr page, ULong n);
ULong WS_(page_accesses)(WS_Kind kind, Addr page);
Addr  WS_(page_first_ip)(WS_Kind kind, Addr page);
/* The access counter of page |page|, at a fixed address. */
ULong* WS_(access_counter)(WS_Kind kind, Addr page);
/* At exit: finds the hot pages and writes the stacks they will name
   (in the body), then their lines and --ws-list-pages (trailer). */
void  WS_(hot_prepare)(void);
void  WS_(hot_trailer)(void);
/* "ws hot [n] [insn|data]": |kinds| bit 1 insn, bit 2 data. */
void  WS_(hot_to_monitor)(ULong n, UInt kinds);

/*------------------------------------------------------------*/
/*--- Heap blocks and owners (ws_heap.c, ws_owners.c)      ---*/
/*------------------------------------------------------------*/

typedef enum {
   WS_OwnHeap, WS_OwnHeapOther, WS_OwnGlobal, WS_OwnStack, WS_OwnFile,
   WS_OwnAnon, WS_OwnUnknown
} WS_OwnerKind;

typedef struct {
   WS_OwnerKind kind;
   ExeContext*  site;      /* WS_OwnHeap: the allocating stack */
   Addr         block;     /* WS_OwnHeap: the block */
   SizeT        size;
   ThreadId     tid;       /* WS_OwnStack */
   const HChar* name;      /* WS_OwnGlobal: symbol; WS_OwnFile: path */
} WS_Owner;

void WS_(heap_init)(void);
void WS_(heapuse_init)(void);
/* In a forked child: only the chunks it inherited live count. */
void WS_(heapuse_after_fork)(void);

/* Heap usage (ws_heapuse.c) is followed: --ws-heap=yes and
   --ws-heap-usage=yes.  Its hooks on the slow paths: an access of
   |kind| to [a, a+size) reached the helper, or a system call of |tid|
   made one; the accesses the TLB let through on |page| were moved off
   its entry; the tags of a TLB entry being filled for |page| (kinds it
   keeps out get WS_DTLB_TRAP); thread |tid| starts running; epoch |s|
   began at |t|. */
extern Bool WS_(heap_usage);
typedef struct WS_ChunkUse WS_ChunkUse;
void WS_(heapuse_access)(Addr a, SizeT size, WS_AccessKind kind);
void WS_(heapuse_kernel_access)(Addr a, SizeT size, WS_AccessKind kind,
                                ThreadId tid);
void WS_(heapuse_settled)(Addr page);
void WS_(heapuse_thread_running)(ThreadId tid);

/* What the helper needs to know of a page for ws_heapuse.c, on every
   call: one byte per page, in a sparse table of its own.  WS_Read and
   WS_Write: the kinds of access the TLB keeps out of the page (a chunk
   on it waits to hear of one). */
#define WS_HEAP_SPAN     8u   /* it lies in a chunk that began on an
                                 earlier page and may still wait */
#define WS_HEAP_PAGE     16u  /* a chunk has lain here */
#define WS_HEAP_ALLOC    32u  /* the allocator made it current in this
                                 epoch, the program has not accessed
                                 it since: the TLB keeps it out */
#define WS_HEAP_EDGE     64u  /* the first or last page of a chunk has
                                 lain here: its accesses are ordered
                                 (ws_heapuse.c's PageUse) */
#define WS_HEAP_HEARD    128u /* the program accessed it since the
                                 latest allocation on it */
#define WS_HEAP_WAITING  (WS_Read | WS_Write | WS_HEAP_SPAN | WS_HEAP_ALLOC)
extern WS_PageTable WS_(heap_flags);
static inline UChar* WS_(heap_flags_of)(Addr page)
{
   const WS_PageTable* pt = &WS_(heap_flags);
   UChar* chunk = (UChar*)pt->l1[(page >> pt->chunk_bits)
                                 & (WS_L1_ENTRIES - 1)];
   return chunk == NULL ? NULL
        : chunk + (page & (((Addr)1 << pt->chunk_bits) - 1));
}
/* Whether a chunk on page |page| waits to hear of an access. */
static inline Bool WS_(heap_waits)(Addr page)
{
   const UChar* f = WS_(heap_flags_of)(page);
   return f != NULL && (*f & WS_HEAP_WAITING);
}
/* Several threads have run: the TLB's accesses are noted per thread
   when they leave it (WS_(heapuse_settled)). */
extern Bool WS_(heap_threads);
/* How many threads are inside an allocation function (ws_heap.c): the
   helper tells ws_heapuse.c of every access to a heap page then. */
extern ULong WS_(heap_calls);
void WS_(heapuse_new_epoch)(Stamp s, ULong t);
/* The live heap block containing |a|, if any. */
Bool WS_(heap_block_of)(Addr a, Addr* block, SizeT* size, ExeContext** site);
void WS_(owner_of)(Addr a, WS_Owner* o);
/* A thread ends: its stack keeps its name afterwards. */
void WS_(owners_thread_exited)(ThreadId tid);
/* Writes a whole "<prefix> <owner>" line (stack blocks first). */
void WS_(out_owner_line)(const HChar* prefix, const WS_Owner* o,
                         Bool with_block);
void WS_(monitor_owner)(const WS_Owner* o);
/* |o| as the output grammar spells it, into |buf| (a heap owner's
   stack is written to |stacks| first, if it is not there). */
void WS_(owner_text)(const WS_Owner* o, Bool with_block,
                     WS_StackFile* stacks, HChar* buf, SizeT size);
/* The "owner" lines of peak |n|: the data window by owner. */
void WS_(out_breakdown)(ULong n);

/*------------------------------------------------------------*/
/*--- Working-set misses (ws_misses.c)                     ---*/
/*------------------------------------------------------------*/

/* At start-up: opens the miss file, or exits with status 1. */
void WS_(misses_init)(void);
/* A page of |kind| entered the window at code address |ip|. */
void WS_(miss_at)(WS_Kind kind, Addr ip);
void WS_(misses_write)(void);          /* at exit, if asked for */

/*------------------------------------------------------------*/
/*--- Output (ws_output.c)                                 ---*/
/*------------------------------------------------------------*/

void WS_(out_open)(void);
void WS_(out_header)(void);
/* printf-style: appends to the current line buffer. */
void WS_(out_printf)(const HChar* format, ...) PRINTF_CHECK(1, 2);
/* Ends a record; whole records are what reach the file. */
void WS_(out_end_line)(void);
/* One character of the output file, for VG_(vcbprintf); '\n' ends the
   line as WS_(out_end_line) does. */
void WS_(out_put_char)(HChar c, void* opaque);
void WS_(out_event)(const HChar* format, ...) PRINTF_CHECK(1, 2);
void WS_(out_maybe_flush)(void);
/* Writes every complete record out now. */
void WS_(out_flush)(void);
void WS_(out_trailer)(void);
void WS_(out_stderr_summary)(void);
void WS_(out_after_fork)(ThreadId tid);
const HChar* WS_(out_name)(void);

#endif /* __WS_GLOBAL_H */

/*--------------------------------------------------------------------*/
/*--- end                                              ws_global.h ---*/
/*--------------------------------------------------------------------*/

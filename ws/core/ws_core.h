/*--------------------------------------------------------------------*/
/*--- ws: the measuring core.                         ws_core.h ---*/
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
     ws_clock.c       the instruction clock, the ms timer, epochs
     ws_window.c      the stamp tables, window counters, touching pages
     ws_dtlb.c        the data TLB and the slow paths the IR calls
     ws_codeslots.c   code pages' stamps and counts at 32-bit addresses
     ws_sampler.c     samples and their schedule, start/stop, T and tau
     ws_threads.c     per-thread working sets and shared pages
     ws_instrument.c  the VEX IR emitted for every superblock
     ws_rep.c         rep-prefixed string instructions, counted once
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
     ws_control.c     the one control API: start/stop, the settable
                      parameters, marks and labels, status, dumps
     ws_clientreq.c   the client requests of valgrind/ws.h    } doors
     ws_monitor.c     the "ws ..." monitor commands (a table) } onto it
                      (and v.clo, through ws_options.c)
     ws_output.c      the output file and the stderr summary
     ws_file.c        how every file is opened, escaped and written
     ws_main.c        tool registration, start-up and exit

   Data flow: guest code -> instrumentation (ws_instrument.c) -> on a
   stale entry, the slow path (ws_dtlb.c) -> page tables and windows
   (ws_window.c) -> at a boundary, samples (ws_sampler.c) -> output.
   The fast path lives entirely in the IR that ws_instrument.c emits;
   the C functions run only when a page's entry or stamp is stale in
   the current epoch or a time boundary is crossed. */

#ifndef __WS_CORE_H
#define __WS_CORE_H

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"

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
/* Whether the process that exec'd this program wrote an output file
   and a miss profile of its own (--ws-image, set by ws_main.c). */
extern Bool         WS_(image_out);
extern Bool         WS_(image_miss);
extern Bool         WS_(clo_count_rep_once); /* --ws-count-rep=once */
extern ULong        WS_(clo_peaks);        /* peaks of each kind reported */

#define WS_MAX_PEAK_WINDOW  1000000
#define WS_MAX_PEAK_THRESH  1000
#define WS_MAX_HOT          100000
#define WS_MAX_PEAKS        1000

extern UInt         WS_(page_shift);     /* log2(clo_pagesize) */

/* The largest T or tau: times are kept in 64 bits, this leaves room
   for sums. */
#define WS_MAX_INTERVAL   1000000000000000ULL


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
   (the index is masked); docs/manual.md, Limits. */
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

typedef enum { WS_Insn = 0, WS_Data = 1 } WS_Kind;

/* The first page number at or above 2^47, the end of amd64's user
   address space.  An access that reaches there faults without touching
   memory, and the tables, which index 47 bits, would take its page for
   a lower one: ws counts neither it nor its page (docs/manual.md,
   Limits). */
static inline Addr WS_(beyond_user_space)(void)
{
   return (Addr)1 << (WS_ADDR_BITS - WS_(page_shift));
}

/*------------------------------------------------------------*/
/*--- The clock and the epochs (ws_clock.c)                ---*/
/*------------------------------------------------------------*/

extern Stamp WS_(cur_stamp);    /* current epoch */

/* While a thread runs translations, the clock and the current epoch
   live in its guest state's first shadow area (ws keeps no shadow
   registers), where the IR reaches them off the guest state pointer:
   the instructions left before the next boundary, which the IR counts
   down, and a copy of WS_(cur_stamp), zero-extended to 64 bits so that
   a 64-bit compare with a code slot's stamp (ws_codeslots.c) takes the
   slot's from memory; and a zero, to which the IR adds a code slot's
   address (below 2^31) to reach it through a displacement.  Offsets
   into that area. */
#define WS_SHADOW_LEFT   0      /* Long */
#define WS_SHADOW_STAMP  8      /* ULong: the Stamp */
#define WS_SHADOW_REP    16     /* Addr: the rep-prefixed string
                                   instruction whose next iteration
                                   comes, or 0 (--ws-count-rep=once) */
#define WS_SHADOW_ZERO   24     /* ULong: 0 */

/* At start-up: the timer's origin, and epoch 1 began at 0. */
void  WS_(clock_init)(void);
/* The clock passes to thread |tid|'s shadow area as it starts running
   translations, and back when it stops. */
void  WS_(clock_to_thread)(ThreadId tid);
void  WS_(clock_from_thread)(ThreadId tid);
/* Instructions executed so far; the next boundary (WS_(boundary)) at
   instruction |at|; whether the clock has reached it. */
ULong WS_(clock_insns)(void);
void  WS_(clock_next_event)(ULong at);
Bool  WS_(clock_due)(void);
/* The current time in the user's time unit. */
ULong WS_(now)(void);
/* In ms mode, measurement starts or stops at one instant: from these
   until WS_(clock_release) the clock stands at the start or the stop
   (the time off does not count). */
void  WS_(clock_hold_start)(void);
void  WS_(clock_hold_stop)(void);
void  WS_(clock_release)(void);

/* A new epoch now (e.g. another thread starts running); the data TLB
   is emptied. */
void  WS_(new_stamp)(void);
/* When epoch |s| began (it must not have left the window); the same,
   or 0 if it is not in the window. */
ULong WS_(stamp_time)(Stamp s);
ULong WS_(stamp_start_time)(Stamp s);
/* The first epoch of the next sample's window, whose first touch of a
   page is a working-set miss (ws_misses.c), or WS_STAMP_MASK while
   none has begun; planned after each sample, for the sample at
   |sample_at|. */
extern Stamp WS_(miss_first);
void  WS_(plan_miss_window)(ULong sample_at);

/*------------------------------------------------------------*/
/*--- Windows and the pages in them (ws_window.c)          ---*/
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

/* The page tables of code and data pages, and their windows. */
extern WS_PageTable WS_(tables)[2];
void  WS_(windows_init)(void);
/* Every window (the threads' too) now starts at epoch |first|. */
void  WS_(windows_advance)(Stamp first);
/* Records an access to |page| of |kind| by the instruction at |ip|,
   reaching byte |a| of it; the same for bytes [a, a+size-1]. */
void  WS_(touch_page)(WS_Kind kind, Addr page, Addr ip, Addr a);
void  WS_(touch_range)(WS_Kind kind, Addr a, SizeT size, Addr ip);
/* Marks pages [a, a+len) as unmapped. */
void  WS_(unmapped)(Addr a, SizeT len);
/* The pages of |kind| in the current window (the last sample's, up to
   now), as page numbers in an XArray of Addr that the caller frees. */
struct _XArray;
struct _XArray* WS_(window_pages)(WS_Kind kind);
/* Pages with a stamp in the window of the last sample or later: the
   working set over a window that started at the last sample's window
   start (between tau and tau + T long). */
void  WS_(current_sizes)(ULong sizes[2]);
Stamp WS_(window_first_stamp)(void);

/*------------------------------------------------------------*/
/*--- The data TLB and the slow paths (ws_dtlb.c)          ---*/
/*------------------------------------------------------------*/

/* The data TLB: page numbers known to be current in this epoch, direct
   mapped by page number.  The inline check of a data access is one
   load from it and one compare; the page tables are walked only by the
   helper when the entry is stale, which refills it.  Each entry also
   counts the accesses to its page since it was filled: the inline code
   adds to it (the same cache line as the tag), and they move to the
   page's record (ws_hot.c) when the entry is refilled or emptied.
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
void WS_(dtlb_init)(void);
/* Moves the count of |page|'s entry, if it holds the page, to the page
   now (the entry stays filled). */
void WS_(dtlb_settle_page)(Addr page);
/* Accesses counted inline sit in the entries' counters until the
   entry is refilled or emptied, and code pages' in their code slots;
   this moves them all to the pages' records. */
void WS_(flush_access_counts)(void);
/* Empties the TLB now (every page's next access reaches the helper). */
void WS_(dtlb_flush)(void);
/* Gives |page|'s entry, if it holds the page, the tags ws_heapuse.c
   wants for it now, so that a kind of access it keeps out reaches the
   helper from now on. */
void WS_(dtlb_refresh_page)(Addr page);

/* What a data check passes its helper, |site|: the check's size, the
   accesses it counts and its instruction's address in one word,
   WS_CHECK_SITE(size, weight, ip) (user addresses have 47 bits, a size
   below WS_SITE_MAX_SIZE, a weight below WS_SITE_MAX_WEIGHT); or, with
   WS_SITE_RECORD set, a WS_SiteRecord for any other check, and for one
   that counts several accesses which may lie on two pages.  The inline
   code adds a check's accesses to its entry before it compares the
   tag, so the helper has to know how many it added. */
#define WS_SITE_MAX_WEIGHT       8
#define WS_SITE_MAX_SIZE         0x2000
#define WS_CHECK_SITE(size, weight, ip) \
   (((HWord)(size) << 50) | ((HWord)(weight) << 47) | (HWord)(ip))
#define WS_SITE_SIZE(site)       (((site) >> 50) & (WS_SITE_MAX_SIZE - 1))
#define WS_SITE_WEIGHT(site)     (((site) >> 47) & (WS_SITE_MAX_WEIGHT - 1))
#define WS_SITE_IP(site)         ((site) & ((1ULL << 47) - 1))
#define WS_SITE_RECORD           (1ULL << 63)

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

/* The helpers that refill a data check's stale entry, one per kind of
   check (what the accesses it counts do):
   VG_REGPARM(2) void (Addr a, HWord site). */
typedef struct {
   const HChar* name;
   void*        fn;
} WS_DataRefill;
const WS_DataRefill* WS_(data_refill_of_kind)(WS_AccessKind kind);
/* The same for a check of |size| bytes that counts |weight| accesses,
   with the instruction's address taken from the guest state, for a
   check where that holds it (see ws_instrument.c), so that the IR
   passes the address alone: VG_REGPARM(1) void (Addr a); NULL if there
   is no such helper. */
const WS_DataRefill* WS_(data_refill_of_size)(UInt size, UInt weight,
                                              WS_AccessKind kind);
/* A code check found its page's stamp stale.  |a|: an address in the
   code page, where it was reached. */
VG_REGPARM(1) void WS_(insn_restamp)(Addr a);
/* The same, for the page of the guest's instruction pointer. */
void WS_(insn_restamp_at_ip)(void);
/* The page after |ip|'s, which the instruction at |ip| reaches into. */
VG_REGPARM(1) void WS_(insn_restamp_straddling)(Addr ip);

/*------------------------------------------------------------*/
/*--- The code pages' slots (ws_codeslots.c)               ---*/
/*------------------------------------------------------------*/

/* A code page's stamp and access count at an address below 2^31 (the
   table is in the tool image, loaded at 0x58000000), which the IR can
   make an addressing mode's displacement.  A page gets a slot the first time a superblock on it is
   instrumented, while slots are left (programs at 4 KiB pages touch a
   few hundred code pages; at --ws-pagesize=64 a large program runs out
   of them, and its later pages are checked and counted through the
   page table and their records instead).  |stamp| is always the page
   table's stamp of the page; |accesses| the instructions counted
   inline since the slot was last flushed to the page's record. */
typedef struct {
   ULong stamp;         /* a Stamp, zero-extended */
   ULong accesses;
} WS_CodeSlot;
#define WS_CODE_SLOTS 8192
extern WS_CodeSlot WS_(code_slots)[WS_CODE_SLOTS];
/* |page|'s slot, given one now if it has none and any is left; NULL
   if it has none. */
WS_CodeSlot* WS_(code_slot)(Addr page);
/* |page|'s stamp in the page table is now |s|. */
void WS_(code_slot_stamp)(Addr page, Stamp s);
/* Moves the slots' counts to their pages' records (from
   WS_(flush_access_counts)); costs the slots given out. */
void WS_(flush_code_counts)(void);
UInt WS_(code_slots_used)(void);

/*------------------------------------------------------------*/
/*--- Samples, starting and stopping (ws_sampler.c)        ---*/
/*------------------------------------------------------------*/

void  WS_(sampler_init)(void);
/* Called (from IR) at the start of a superblock when no instruction is
   left before the next boundary. */
void  WS_(boundary)(void);

/* How often the slow paths and the instrumentation ran, for
   --stats=yes (they tell where the time goes). */
typedef struct {
   ULong data_refills;     /* data-check helper calls */
   ULong insn_restamps;    /* code-check helper calls */
   ULong boundaries;       /* WS_(boundary) calls */
   ULong sbs;              /* superblocks instrumented */
   ULong data_checks;      /* inline data checks emitted */
   ULong data_elided;      /* data checks left out */
   ULong insn_checks;      /* inline code-page checks emitted */
   ULong insn_unslotted;   /* code pages that found no slot left */
   ULong rises;            /* stacks taken where a window rose */
   ULong peak_records;     /* peak records made (a window's page list) */
   ULong breakdowns;       /* of those, broken down by owner */
} WS_Counters;
extern WS_Counters WS_(counters);
void WS_(print_counters)(void);

/* Measurement on or off (WS_START / WS_STOP, "ws start" / "ws stop").
   While off, code runs uninstrumented, the clock stands still and no
   sample is taken. */
extern Bool WS_(measuring);
/* Both return the time of the change (the time of their events). */
ULong WS_(measure_start)(void);
ULong WS_(measure_stop)(void);
/* A start while measuring: the window goes on as it is, a region
   begins (a new epoch, so that the region's total counts the pages it
   touches from now on; event "region-start"); returns the time. */
ULong WS_(measure_region_begin)(void);
/* Change T or tau from now on (a new epoch begins at once). */
void  WS_(set_every)(ULong every);
void  WS_(set_tau)(ULong tau);
/* Takes the final sample, when measurement stops (WS_STOP, "ws stop",
   exit): over the window the last sample's began, at the current time
   (unless a sample was just taken at that time). */
void  WS_(final_sample)(void);

typedef struct { ULong t, insn, data; } WS_Sample;
/* The last WS_SERIES_LEN samples are kept, for "ws series": a fixed
   ring, so memory does not grow with the length of the run. */
#define WS_SERIES_LEN 1024
/* Copies the last min(n, kept) samples, oldest first; returns how many. */
ULong WS_(series)(ULong n, WS_Sample* out);

/* Samples taken so far in this process, a forked child's included
   (never reset: it orders heap blocks' lives against samples). */
extern ULong WS_(sample_seq);

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
/*--- Instrumentation (ws_instrument.c, ws_accesses.c)     ---*/
/*------------------------------------------------------------*/

/* An address as the first pass knows it: temporary |root| of the
   input superblock plus |off|, or an absolute address, or nothing. */
#define WS_ROOT_CONST   (-1)    /* |off| is an absolute address */
#define WS_ROOT_NONE    (-2)    /* nothing known */
typedef struct { Int root; Long off; } WS_SymAddr;

/* One memory access of the input superblock, found by the first pass. */
typedef struct {
   IRExpr* addr;       /* an atom; NULL: the statement accesses nothing */
   Int     size;
   IRExpr* guard;      /* NULL when unconditional */
   WS_SymAddr sym;
   Int     segment;    /* number of side exits before it */
   Int     weight;     /* accesses it counts: 2 for a read-modify-write
                          in one statement (CAS, a modifying helper) */
   WS_AccessKind kind;
} WS_Access;

/* The access of each statement of |sbIn|, in an array that stays the
   pass's until its next call. */
WS_Access* WS_(find_accesses)(IRSB* sbIn);
/* Widens the byte range [*lo, *hi] (off its root) of access |i| to the
   unconditional accesses off the same root later in the same
   exit-free stretch, while the whole stays shorter than a page. */
void WS_(widen_to_group)(const WS_Access* access, Int i, Int n_stmts,
                         Long* lo, Long* hi);

/* A buffer that one instrumentation pass lends to the next: the
   passes run one at a time, and a malloc and free of each per-statement
   array per superblock cost more than their use (a fifth of the pass).
   Grows to the largest superblock seen, never shrinks. */
typedef struct { void* buf; SizeT bytes; const HChar* cc; } WS_Scratch;
void* WS_(scratch)(WS_Scratch* s, SizeT bytes);

/* Whether the |len| bytes at |a| are a rep-prefixed string instruction
   (ws_rep.c says how the instrumenter counts them). */
Bool  WS_(is_rep_string)(Addr a, UInt len);

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

#endif /* __WS_CORE_H */

/*--------------------------------------------------------------------*/
/*--- end                                                ws_core.h ---*/
/*--------------------------------------------------------------------*/

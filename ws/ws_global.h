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
     ws_clock.c       the instruction clock, the ms timer, epochs
     ws_window.c      the stamp tables, window counters, touching pages
     ws_dtlb.c        the data TLB and the slow paths the IR calls
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

Bool WS_(process_cmd_line_option)(const HChar* arg);
/* Whether |s| is a whole number (decimal digits only) from |lo| to |hi|;
   if so it is stored in |out|. */
Bool WS_(whole_number)(const HChar* s, ULong lo, ULong hi, ULong* out);
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
   down, and a copy of WS_(cur_stamp).  Offsets into that area. */
#define WS_SHADOW_LEFT   0      /* Long */
#define WS_SHADOW_STAMP  8      /* Stamp */
#define WS_SHADOW_REP    16     /* Addr: the rep-prefixed string
                                   instruction whose next iteration
                                   comes, or 0 (--ws-count-rep=once) */

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
   entry is refilled or emptied; this moves them all to the pages. */
void WS_(flush_access_counts)(void);
/* Empties the TLB now (every page's next access reaches the helper). */
void WS_(dtlb_flush)(void);
/* Gives |page|'s entry, if it holds the page, the tags ws_heapuse.c
   wants for it now, so that a kind of access it keeps out reaches the
   helper from now on. */
void WS_(dtlb_refresh_page)(Addr page);

/* What a data check passes its helper, |site|: the access's size and
   its instruction's address in one word, WS_CHECK_SITE(size, ip) (user
   addresses have 47 bits); or, with WS_SITE_RECORD set, a
   WS_SiteRecord for a check that counts several accesses which may lie
   on two pages. */
#define WS_CHECK_SITE(size, ip)  (((HWord)(size) << 48) | (HWord)(ip))
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
/* The same for a check of |size| bytes, with the instruction's address
   taken from the guest state, for a check where that holds it (see
   ws_instrument.c), so that the IR passes the address alone:
   VG_REGPARM(1) void (Addr a); NULL if |size| has no such helper. */
const WS_DataRefill* WS_(data_refill_of_size)(UInt size,
                                              WS_AccessKind kind);
/* A code check found its page's stamp stale.  |a|: an address in the
   code page, where it was reached. */
VG_REGPARM(1) void WS_(insn_restamp)(Addr a);
/* The same, for the page of the guest's instruction pointer. */
void WS_(insn_restamp_at_ip)(void);
/* The page after |ip|'s, which the instruction at |ip| reaches into. */
VG_REGPARM(1) void WS_(insn_restamp_straddling)(Addr ip);

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

/* What a request through any door (client request, monitor command,
   v.clo) comes to.  The doors say why in their own words. */
typedef enum {
   WS_Ctl_OK,
   WS_Ctl_RegionBegun,    /* start while measuring: a region begins */
   WS_Ctl_AlreadyOn,      /* start within a region: nothing changed */
   WS_Ctl_AlreadyOff,     /* stop while not measuring */
   WS_Ctl_BadValue        /* a parameter's value out of its range */
} WS_CtlResult;

/* |at| (if not NULL): the time of the change. */
WS_CtlResult WS_(ctl_start)(ULong* at);
WS_CtlResult WS_(ctl_stop)(ULong* at);

/* A parameter that may change while the program runs ("ws set", v.clo,
   VALGRIND_CLO_CHANGE) and is given at start-up as an option. */
typedef struct {
   const HChar* name;       /* as "ws set" takes it: "tau" */
   const HChar* option;     /* "--ws-tau" */
   ULong        lo, hi;     /* the whole numbers accepted */
   ULong*       value;      /* the option variable: the current value */
   void       (*set)(ULong);  /* the change from now on, and its event */
   const HChar* help;       /* for "ws help", with lo and hi as %llu;
                               NULL: the next parameter's */
} WS_Param;
extern const WS_Param WS_(params)[];
extern const UInt     WS_(n_params);
/* Whether |text| is a value |p| accepts; if so it is stored in |out|. */
Bool WS_(param_value)(const WS_Param* p, const HChar* text, ULong* out);
/* Sets |p| to |text| from now on (WS_Ctl_BadValue: nothing changed);
   |old| and |now| get the values before and after. */
WS_CtlResult WS_(ctl_set)(const WS_Param* p, const HChar* text,
                          ULong* old, ULong* now);

/* Labels are at most this many characters (the NUL not counted). */
#define WS_LABEL_MAX  255

typedef enum {
   WS_Label_OK, WS_Label_Empty, WS_Label_Control, WS_Label_TooLong
} WS_LabelCheck;
/* Makes |s| fit an event line (blanks trimmed and folded, in place)
   and says whether it may be used. */
WS_LabelCheck WS_(ctl_label)(HChar* s);
/* A mark event now, if the label (tidied in place) may be used; it
   names the open region. */
WS_LabelCheck WS_(ctl_mark)(HChar* label);

/* The state "ws status" shows. */
typedef struct {
   Bool         measuring;
   ULong        now;          /* in the time unit */
   WS_TimeUnit  unit;
   ULong        tau, every;
   UInt         pagesize;
   ULong        sizes[2];     /* the current window's pages per kind */
   ULong        samples, peaks;
   const HChar* out_name;     /* NULL: no output file */
} WS_CtlStatus;
void WS_(ctl_status)(WS_CtlStatus* st);

/* One page of a dump of the current window. */
typedef struct {
   WS_Kind  kind;
   Addr     addr;
   ULong    since;        /* the epoch of its last access began then */
   ULong    accesses;
   Addr     first_ip;     /* its first access */
   const struct _WS_Owner* owner;   /* data pages only (ws_owners.c) */
} WS_DumpPage;
typedef void (*WS_DumpVisitor)(const WS_DumpPage* p, void* opaque);
/* WS_DUMP(label): the current window's pages into the output file,
   after a "dump label" event, if the label may be used. */
WS_LabelCheck WS_(ctl_dump_label)(HChar* label);
/* "ws dump": event "dump monitor", then every page of the window to
   |visit|, instruction pages first, each kind by address; |n| gets the
   count per kind. */
void WS_(ctl_dump_to)(WS_DumpVisitor visit, void* opaque, ULong n[2]);
/* "ws dump <file>": the pages into a dump file of that name (%p,
   %q{VAR}, %n expanded), then event "dump file <path>". */
typedef enum {
   WS_Dump_OK,
   WS_Dump_BadName,       /* |why| says what is wrong with the name */
   WS_Dump_CannotCreate,  /* |reason| says why |path| cannot be made */
   WS_Dump_Incomplete     /* a write to |path| failed */
} WS_DumpResult;
typedef struct {
   HChar*       path;         /* the name expanded; VG_(free) it */
   const HChar* why;
   HChar        reason[512];
   ULong        n[2];         /* pages written per kind */
} WS_DumpFile;
WS_DumpResult WS_(ctl_dump_file)(const HChar* name, WS_DumpFile* d);

/* Registered with VG_(needs_client_requests): the WS_* requests of
   include/valgrind/ws.h and VG_USERREQ__GDB_MONITOR_COMMAND. */
Bool WS_(handle_client_request)(ThreadId tid, UWord* arg, UWord* ret);
/* True if |req| was a ws command (answered, even if refused). */
Bool WS_(handle_monitor_command)(const HChar* req);

/* The program is about to exec |path| (ws_main.c): ws finishes its
   files as at exit.  If the exec fails after all, the run goes on in
   files of its own. */
void WS_(image_end)(const HChar* path);
void WS_(image_exec_failed)(void);
/* The client's string at |a|, read so that no fault can come of it:
   up to |size| - 1 bytes into |buf| (NUL-terminated; NULL: only its
   length); returns its length and whether its NUL was within reach. */
SizeT WS_(client_string)(Addr a, HChar* buf, SizeT size, Bool* whole);

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

/* The access of each statement of |sbIn| (VG_(free) the array). */
WS_Access* WS_(find_accesses)(IRSB* sbIn);
/* Widens the byte range [*lo, *hi] (off its root) of access |i| to the
   unconditional accesses off the same root later in the same
   exit-free stretch, while the whole stays shorter than a page. */
void WS_(widen_to_group)(const WS_Access* access, Int i, Int n_stmts,
                         Long* lo, Long* hi);

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

/*------------------------------------------------------------*/
/*--- Call stacks and locations (ws_stacks.c)              ---*/
/*------------------------------------------------------------*/

/* A file that stack blocks are written into, and the stacks it holds:
   the output file, or a dump file, which names its own. */
typedef struct {
   VgHashTable*     written;    /* ECU -> id; NULL: none yet */
   UInt             next_id;    /* from 1 */
   struct _WS_File* file;
} WS_StackFile;
/* Stack ids in |sf|: a stack is written as a "stack" block the first
   time it is referred to (so call this before starting the line that
   refers to it; never while a line is half built).  Returns the id,
   unique in that file. */
UInt WS_(stack_id)(WS_StackFile* sf, ExeContext* ec);
/* Forgets what |sf| holds (its file was closed or started afresh). */
void WS_(stack_file_forget)(WS_StackFile* sf);
/* Appends " <ip> <location> <function>" for code address |ip| to the
   line being built in |f| (docs/output-format.md, "Stacks"). */
void WS_(write_where)(struct _WS_File* f, Addr ip);
/* A whole stack for people, each line after |indent| (|own|: the line
   to mark as the first in the program's code, or -1). */
void WS_(show_stack)(struct _WS_File* f, ExeContext* ec,
                     const HChar* indent, Int own);
/* Finds the program's executable, at start-up. */
void WS_(stacks_init)(void);
/* The running thread's stack at code address |ip| (0: where the guest
   state says), without the frames past the real end of the stack;
   when no thread runs, the first thread's where it waits; NULL if
   there is none. */
ExeContext* WS_(stack_here)(Addr ip);
/* How many of the |n| frames of |ips| are real: the unwinder's frames
   past the outermost one are not code addresses. */
UInt WS_(real_stack_depth)(const Addr* ips, UInt n);
/* The first line (frame or inline, as a stack block has them) that is
   the program's own code: in its executable, not a C++ library
   template; -1 if none. */
Int  WS_(own_level)(ExeContext* ec);
/* One lasting copy of |s| (the same for equal strings). */
const HChar* WS_(intern)(const HChar* s);
/* |name| demangled (C++, as --demangle says), interned. */
const HChar* WS_(demangled)(const HChar* name);

/*------------------------------------------------------------*/
/*--- Peaks (ws_peaks.c)                                   ---*/
/*------------------------------------------------------------*/

/* Called after every sample is written, with its sizes. */
void  WS_(peaks_sample)(ULong t, ULong insn, ULong data, Bool final);
/* Measurement starts and stops (after the final sample); a region
   closes, named |label| (NULL: no name). */
void  WS_(peaks_init)(void);
void  WS_(peaks_started)(void);
void  WS_(peaks_stopped)(void);
void  WS_(peaks_region_closed)(const HChar* label);
void  WS_(set_peak_thresh)(ULong thresh);
ULong WS_(peaks_count)(void);           /* reported, as things stand */
ULong WS_(peaks_found)(void);           /* runs the detector flagged */
void  WS_(show_peaks)(struct _WS_File* f);  /* "ws peaks" */
void  WS_(peaks_trailer)(void);         /* the peaks and "peaks N" */
/* In a forked child: no peaks yet (its file has none of the parent's). */
void  WS_(peaks_after_fork)(void);
/* Where the working set rose: WS_(rising) counts the pages that came
   into the next sample's window since it began (the working-set misses
   of ws_misses.c); when it reaches WS_(rise_mark), the slow path calls
   WS_(window_rose) with the instruction that brought the page in, and
   ws_peaks.c records the stack there. */
extern ULong WS_(rising)[2];
extern ULong WS_(rise_mark)[2];
void  WS_(window_rose)(WS_Kind kind, Addr ip);

/*------------------------------------------------------------*/
/*--- Access counts and hot pages (ws_hot.c)               ---*/
/*------------------------------------------------------------*/

/* Slow-path hooks: the first touch ever of |page| of |kind|, by the
   instruction at |ip|; |n| accesses to data page |page|. */
void  WS_(first_touch)(WS_Kind kind, Addr page, Addr ip);
/* |page| entered the window (or was mapped anew) through an access to
   byte |a| (for code, the instruction at |a|); the byte that names the
   page's owner, and 0 if none was recorded. */
void  WS_(entered_window)(WS_Kind kind, Addr page, Addr a);
Addr  WS_(entry_byte)(WS_Kind kind, Addr page);
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
void  WS_(show_hot)(struct _WS_File* f, ULong n, UInt kinds);

/*------------------------------------------------------------*/
/*--- Heap blocks and owners (ws_heap.c, ws_owners.c)      ---*/
/*------------------------------------------------------------*/

/* In the order of the owner table of docs/output-format.md; code
   owners only name code pages. */
typedef enum {
   WS_OwnHeap, WS_OwnFreed, WS_OwnHeapOther, WS_OwnGlobal, WS_OwnStack,
   WS_OwnFile, WS_OwnAnon, WS_OwnUnknown, WS_OwnCode
} WS_OwnerKind;

typedef struct _WS_Owner {
   WS_OwnerKind kind;
   ExeContext*  site;      /* WS_OwnHeap, WS_OwnFreed: the allocating
                              stack */
   Addr         block;     /* WS_OwnHeap, WS_OwnFreed: the block */
   SizeT        size;
   ThreadId     tid;       /* WS_OwnStack */
   const HChar* name;      /* WS_OwnGlobal: symbol (demangled);
                              WS_OwnFile: path; WS_OwnCode: function */
   const HChar* object;    /* WS_OwnCode: the object file's path */
} WS_Owner;

void WS_(heap_init)(void);
/* Freed blocks are remembered, to name the pages they leave in a
   window, until they were freed before the sample of sequence number
   |before| (WS_(sample_seq)). */
void WS_(heap_forget_freed)(ULong before);
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
/* What lives in the data page holding |a|: named by the byte through
   which the page last entered the window (the owner of the bytes the
   program accessed), or |a| if none is known. */
void WS_(owner_of)(Addr a, WS_Owner* o);
/* The stack an owner names (a heap block's, live or freed), or NULL. */
ExeContext* WS_(owner_stack)(const WS_Owner* o);
/* A thread ends: its stack keeps its name afterwards. */
void WS_(owners_thread_exited)(ThreadId tid);
/* Writes a whole "<prefix> <owner>" line into |sf|'s file, after the
   stack block the owner names if the file does not hold it yet. */
void WS_(write_owner_line)(WS_StackFile* sf, const HChar* prefix,
                           const WS_Owner* o, Bool with_block);
/* The "owner:" line under a page's line for people, and a heap
   block's stack. */
void WS_(show_owner)(struct _WS_File* f, const WS_Owner* o);
/* A window's pages by owner: for data pages what lives there, for code
   pages the object file and function; the largest first, at most
   WS_BREAKDOWN_LINES groups, the last of them "rest" when there are
   more. */
#define WS_BREAKDOWN_LINES 10
typedef struct {
   WS_Owner owner;          /* its strings are the breakdown's own */
   ULong    pages;
   Bool     rest;           /* the other owners' pages together */
   /* a live heap owner, with heap usage followed: its site's live
      bytes and those of them on the window's pages */
   Bool     heap_window;
   ULong    live_bytes, window_bytes;
} WS_OwnerPages;
typedef struct {
   UInt          n;
   WS_OwnerPages lines[WS_BREAKDOWN_LINES];
} WS_Breakdown;
/* The |pages| (page numbers) of |kind| by owner as at the sample of
   sequence number |sample| (WS_(sample_seq)): heap blocks as they were
   then (live, or freed by then), everything else as it is now. */
WS_Breakdown* WS_(breakdown)(WS_Kind kind, const struct _XArray* pages,
                             ULong sample);
void WS_(breakdown_free)(WS_Breakdown* b);
/* The "owner <n> <pages> <owner>" lines of peak |n|, and for people. */
void WS_(write_breakdown)(WS_StackFile* sf, ULong n, const WS_Breakdown* b);
void WS_(show_breakdown)(struct _WS_File* f, const WS_Breakdown* b,
                         ULong total, const HChar* indent);

/* What ws_heap.c and ws_owners.c offer the rest: the hook ws_main.c
   chains after the instrumentation, the questions ws_owners.c asks,
   and the --stats=yes lines. */

/* Adds the heap hooks to a superblock that has already been through
   WS_(instrument): a helper call at the entry of every allocation
   function of the C and C++ runtimes, and one (guarded inline, so
   nearly free) at each return in them.  The guest executes exactly
   the instructions it would without ws; the hooks only read.  Returns
   |sb| itself when the superblock needs no hook. */
IRSB* WS_(heap_instrument)(IRSB* sb, const VexGuestLayout* layout,
                           const VexGuestExtents* vge);

/* The heap block that held |a| when the sample of sequence number
   |sample| (WS_(sample_seq)) was taken: a live block then, or one freed
   by then whose pages may still be in a window.  True and |o| filled in
   (WS_OwnHeap or WS_OwnFreed), or False. */
Bool WS_(heap_owner_at)(Addr a, ULong sample, WS_Owner* o);

/* The first block that starts in [from, to) and was live at the sample
   |sample|, else the latest freed block made by then that overlaps
   [from, to): True and |o| filled in, or False. */
Bool WS_(heap_block_in)(Addr from, Addr to, ULong sample, WS_Owner* o);

/* Whether |a| lies in memory the allocator manages (the brk heap, or
   an anonymous mapping in which ws has seen blocks: an arena). */
Bool WS_(heap_arena_contains)(Addr a);

/* Whether thread |tid| is inside an allocation function (malloc, free,
   operator new, ...): its accesses are the allocator's own. */
Bool WS_(heap_in_allocator)(ThreadId tid);

/* The "heap:" lines of --stats=yes. */
void WS_(heap_print_stats)(void);

/* The usage of the live block containing |a| (NULL if none, or
   --ws-heap-usage=no); |fn| on the usage of each live block that
   overlaps [from, to), in address order; on every live block's. */
WS_ChunkUse* WS_(heap_use_of)(Addr a);
void WS_(heap_for_blocks_in)(Addr from, Addr to,
                             void (*fn)(WS_ChunkUse* use, void* opaque),
                             void* opaque);
void WS_(heap_for_each_block)(void (*fn)(WS_ChunkUse* use, void* opaque),
                              void* opaque);

/*------------------------------------------------------------*/
/*--- Heap usage (ws_heapuse.c, ws_heapsites.c)            ---*/
/*------------------------------------------------------------*/

/* ws_heapuse.c follows how the program uses each heap chunk from its
   allocation to its free and sums it up per allocation site;
   ws_heapsites.c writes the sums (the trailer's heap-site lines, "ws
   heap", the heap-window lines of a peak).  What they share: a site's
   sums, and the figures made from them. */

/* ws_heap.c's hooks: a block was allocated (its usage record is
   returned, for the block to keep), or freed or overlapped by a newer
   one. */
WS_ChunkUse* WS_(heapuse_alloc)(Addr block, SizeT size, ExeContext* site);
void WS_(heapuse_free)(WS_ChunkUse* use);
/* At exit, before the trailer's heap-site lines: the live blocks end
   now. */
void WS_(heapuse_end_live)(void);
/* The trailer's heap-site lines (with their stack blocks). */
void WS_(heapsites_trailer)(void);
/* For the |n_sites| heap owners a data peak's owner lines name: each
   site's live bytes, and how many of them lie on |pages| (the window's
   page numbers at the peak, in address order), in |live| and |window|.
   False (nothing filled in) if heap usage is not followed. */
Bool WS_(heapsites_window)(const struct _XArray* pages,
                           ExeContext* const* sites, UInt n_sites,
                           ULong* live, ULong* window);
/* What sites are ranked by (docs/manual.md, "Heap usage"), in the
   order of WS_HEAP_KEYS. */
typedef enum { WS_KeyUsage, WS_KeyUseful, WS_KeyBytes, WS_KeyNever }
   WS_HeapKey;
#define WS_HEAP_KEYS "usage useful bytes never"
/* "ws heap [<n>] [<key>]": the |n| worst sites by |key|, on the
   gdb/vgdb output. */
void WS_(heapsites_monitor)(ULong n, WS_HeapKey key);
void WS_(heapuse_print_stats)(void);

/* What one allocation site did with its chunks: sums over the chunks
   that ended (freed, or live at exit once the trailer is written). */
typedef struct {
   ULong  chunks;       /* chunks allocated, ended or not */
   ULong  bytes;        /* bytes asked for, ended or not */
   ULong  live;         /* bytes of its live chunks now */
   ULong  live_chunks;
   ULong  peak_live;    /* the most |live| has been */
   /* Over the ended chunks: */
   ULong  ended;
   ULong  ended_bytes;
   ULong  touched;      /* bytes on pages accessed while they lived */
   ULong  never;        /* chunks never accessed */
   ULong  never_bytes;
   ULong  read_only;    /* chunks read and never written */
   ULong  write_only;   /* chunks written and never read */
   ULong  threads;      /* chunks accessed by more than one thread */
   ULong  lifetime;     /* sum of (end - allocation) */
   ULong  first_delay;  /* over the accessed chunks: sum of (first
                           access - allocation) */
   ULong  idle_tail;    /* ... sum of (end - last access) */
   Double useful;       /* sum of (last - first access) / lifetime; 0
                           for a chunk never accessed */
   ULong  exit_live;    /* chunks that ended at exit */
} WS_SiteSums;

typedef struct {
   ExeContext* site;
   WS_SiteSums sums;
} WS_SiteUse;

/* The sites with a chunk so far (|*n| of them), in no order, their
   live chunks counted as if they ended now (at exit: they have
   ended).  Freed with VG_(free). */
WS_SiteUse* WS_(heapuse_sites)(UInt* n);
/* What ws_heap.c knows of a chunk too. */
void WS_(heapuse_chunk)(const WS_ChunkUse* c, Addr* start, SizeT* size,
                        ExeContext** site);
/* The live bytes of |site| now (0 if it has none). */
ULong WS_(heapuse_live_bytes)(ExeContext* site);

/* The bytes a site wastes by |key|, its rank: never touched (usage),
   idle (useful: bytes x (1 - useful)), allocated (bytes), in chunks
   never touched (never). */
ULong WS_(heapuse_rank_value)(const WS_SiteSums* s, WS_HeapKey key);
/* Sorts |sites| worst first by |key| (ties: more bytes first, then by
   stack number, so that the order does not depend on addresses). */
void  WS_(heapuse_sort)(WS_SiteUse* sites, UInt n, WS_HeapKey key);
/* A fraction in thousandths, rounded: usage, and the mean useful
   lifetime. */
ULong WS_(heapuse_usage_milli)(const WS_SiteSums* s);
ULong WS_(heapuse_useful_milli)(const WS_SiteSums* s);
/* The means of a site's times (0 when there is nothing to average). */
ULong WS_(heapuse_mean)(ULong sum, ULong n);

/*------------------------------------------------------------*/
/*--- Working-set misses (ws_misses.c)                     ---*/
/*------------------------------------------------------------*/

/* At start-up: opens the miss file, or exits with status 1 (also when
   it would be the output file, |out_name|). */
void WS_(misses_init)(const HChar* out_name);
/* A page of |kind| entered the window at code address |ip|. */
void WS_(miss_at)(WS_Kind kind, Addr ip);
/* At exit, or before an exec (|exec_path|, said in the profile); the
   name of the profile if it is complete, else NULL. */
const HChar* WS_(misses_write)(const HChar* exec_path);
/* Its name, NULL if this process writes none. */
const HChar* WS_(misses_name)(void);
/* Start-up refused: removes the miss file just made. */
void WS_(misses_abandon)(void);
void WS_(misses_after_fork)(void);
void WS_(misses_new_image)(void);

/*------------------------------------------------------------*/
/*--- Files (ws_file.c)                                    ---*/
/*------------------------------------------------------------*/

/* How a string is escaped (docs/output-format.md, "Escaping"): text
   that runs to the end of its line keeps single spaces inside it; a
   word (a location, an argument of the command line) keeps none. */
typedef enum { WS_EscText, WS_EscWord } WS_Escape;

/* Writes |s| escaped through |put|. */
void  WS_(escape)(const HChar* s, WS_Escape how,
                  void (*put)(HChar c, void* opaque), void* opaque);
/* The same into |buf| of |size| bytes, cut (never inside an escape or
   a character) if it does not fit; returns the length. */
SizeT WS_(escape_into)(const HChar* s, WS_Escape how, HChar* buf,
                       SizeT size);

/* A file name as given (--ws-file, ws dump ...) checked, with every
   %q{VAR} replaced by the variable's value now: a template holding
   only %p, %n and %%.  NULL, with the reason in |why|, if refused. */
HChar* WS_(name_template)(const HChar* name, const HChar** why);
/* The template's name in this process (this image, see WS_(image)). */
HChar* WS_(name_expand)(const HChar* option, const HChar* template);
/* Which program of this process this is: 0, or k after the program's
   k-th exec under --trace-children=yes, whose files are named
   "<name>.exec<k>" (set by the hidden option --ws-image). */
extern UInt WS_(image);

#define WS_FILE_BUF (64 * 1024)

/* A file ws writes, or the gdb/vgdb output (to_monitor).  Zero but
   for |what| and |fd| (-1) when nothing is open. */
typedef struct _WS_File {
   const HChar*     what;       /* "output file", ... for messages */
   Int              fd;         /* -1: not writing */
   Bool             to_monitor; /* writes go to VG_(gdb_printf) */
   HChar*           name;       /* as opened (expanded) */
   Bool             failed;     /* a write failed; said so */
   Bool             created;    /* did not exist before */
   ULong            dev, ino;
   HChar*           buf;
   UInt             size, used;
   UInt             lines;      /* bytes of buf that are whole lines */
   struct _WS_File* next;       /* ws's open files */
} WS_File;
#define WS_FILE(what)     { what, -1, False, NULL }
/* The gdb/vgdb output: what the monitor commands reply. */
WS_File* WS_(monitor_file)(void);

/* Creates (truncates) |name| for writing; False with the reason in
   |why| if it cannot, or if it is a file ws, Valgrind or the program
   already has open. */
Bool WS_(file_create)(WS_File* f, const HChar* name, HChar* why,
                      SizeT why_size);
/* Formatted text, escaped strings, single characters ('\n' ends a
   line: only whole lines reach the file). */
void WS_(file_printf)(WS_File* f, const HChar* format, ...)
   PRINTF_CHECK(2, 3);
void WS_(file_vprintf)(WS_File* f, const HChar* format, va_list vargs);
void WS_(file_text)(WS_File* f, const HChar* s, WS_Escape how);
void WS_(file_put_char)(HChar c, void* f);
/* Writes the whole lines waiting; how many bytes of them wait. */
void WS_(file_flush)(WS_File* f);
UInt WS_(file_pending)(const WS_File* f);
/* Whether |f| is written (open, no write failed). */
Bool WS_(file_writing)(const WS_File* f);
/* Writes what is left and closes; False if a write failed. */
Bool WS_(file_close)(WS_File* f);
/* Closes and removes a file just created (a refusal at start-up). */
void WS_(file_abandon)(WS_File* f);
/* Drops the descriptor and what waits, writing nothing. */
void WS_(file_forget)(WS_File* f);
/* In a forked child: |f| is the parent's; the child makes its own when
   |template| (as |option|=|value| gave it) expands to a new name, and
   says why not otherwise.  Returns whether it has one. */
Bool WS_(file_after_fork)(WS_File* f, const HChar* option,
                          const HChar* value, const HChar* template);
/* The client's command line, each argument an escaped word. */
void WS_(file_command)(WS_File* f);
/* "insn" or "data". */
const HChar* WS_(kind_name)(WS_Kind kind);

/*------------------------------------------------------------*/
/*--- Output (ws_output.c)                                 ---*/
/*------------------------------------------------------------*/

/* The template of a file-name option (%q{VAR} expanded), or exit with
   status 1 saying why: at start-up only. */
HChar* WS_(option_template)(const HChar* option, const HChar* value);
/* The name the output file has in this process, then opening it (or
   exit with status 1); |name| is the first's result, freed. */
HChar* WS_(out_expected_name)(void);
void WS_(out_open)(HChar* name);
WS_File* WS_(out_file)(void);
/* The stacks the output file holds, and WS_(stack_id) for it. */
WS_StackFile* WS_(out_stacks)(void);
UInt WS_(out_stack)(ExeContext* ec);
/* The "key: value" header of the output file, or of a dump file. */
void WS_(write_header)(WS_File* f, Bool dump_file);
void WS_(out_header)(void);
/* printf-style: appends to the current line buffer. */
void WS_(out_printf)(const HChar* format, ...) PRINTF_CHECK(1, 2);
/* A string, escaped as text that runs to the end of its line. */
void WS_(out_text)(const HChar* s);
/* Ends a record; whole records are what reach the file. */
void WS_(out_end_line)(void);
void WS_(out_event)(const HChar* format, ...) PRINTF_CHECK(1, 2);
void WS_(out_maybe_flush)(void);
/* Writes every complete record out now. */
void WS_(out_flush)(void);
/* The trailer, after an "exec" event when the program is about to exec
   |exec_path| (else NULL); closes the file. */
void WS_(out_trailer)(const HChar* exec_path);
void WS_(out_stderr_summary)(void);
/* After the summary: how to look at the output file and at the miss
   profile |miss_name| (NULL: none). */
void WS_(out_view_hint)(const HChar* miss_name);
void WS_(out_after_fork)(ThreadId tid);
/* After an exec that failed once the files were finished: the rest of
   the run is a new image, in a file of its own. */
void WS_(out_new_image)(void);
const HChar* WS_(out_name)(void);

#endif /* __WS_GLOBAL_H */

/*--------------------------------------------------------------------*/
/*--- end                                              ws_global.h ---*/
/*--------------------------------------------------------------------*/

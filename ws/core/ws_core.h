/*--------------------------------------------------------------------*/
/*--- ws: the measuring core.                          ws_core.h ---*/
/*--------------------------------------------------------------------*/

/*
   This file is part of ws, a Valgrind tool that measures a program's
   instruction and data working sets over time.

   Copyright (C) 2026 the ws authors.

   This program is free software; you can redistribute it and/or
   modify it under the terms of the GNU General Public License as
   published by the Free Software Foundation; either version 2 of the
   License, or (at your option) any later version.

   The GNU General Public License is contained in the file COPYING.
*/

/* The core measures; it knows nothing of what is made of its
   measurements.  Its files:

     ws_pagetable.c   the two-level page tables (a stamp or a record
                      per page)
     ws_clock.c       the instruction clock, the ms timer, epochs
     ws_wincount.c    window counters: how many pages of a set have
                      their latest stamp in each epoch of the window
     ws_window.c      the stamp tables, their windows, touching pages,
                      the open region's count
     ws_records.c     each page's access count, first access and the
                      byte it last entered the window through
     ws_dtlb.c        the data TLB and the slow paths the IR calls; the
                      watch on data accesses
     ws_codeslots.c   code pages' stamps and counts at 32-bit addresses
     ws_sampler.c     samples and their schedule, start/stop, T and tau
     ws_perthread.c   per-thread working sets, shared pages
     ws_threads.c     the threads alive, the one running
     ws_instrument.c  the VEX IR emitted for every superblock, and the
                      analyses' own instrumentation passes
     ws_accesses.c    the first pass: the accesses of a superblock and
                      their symbolic addresses
     ws_rep.c         rep-prefixed string instructions, counted once
     ws_syscalls.c    memory touched by the kernel, unmapped ranges,
                      the client's strings read safely
     ws_events.c      the events the core tells, and who listens

   Data flow: guest code -> instrumentation (ws_instrument.c) -> on a
   stale entry, the slow path (ws_dtlb.c) -> page tables and windows
   (ws_window.c) -> at a boundary, samples (ws_sampler.c).  The fast
   path lives entirely in the IR that ws_instrument.c emits; the C
   functions run only when a page's entry or stamp is stale in the
   current epoch or a time boundary is crossed.

   The core includes this header and no other of ws's, and calls
   nothing above it: what the layers above need to hear (a page that
   entered the window, an epoch, a sample, a start or stop, a thread)
   it tells through one interface, the events at the end of this
   header, to those that registered; the one thing an analysis needs
   back on the slow path (heap usage: accesses kept out of the data
   TLB) goes through the watch (the data TLB's section), and an
   analysis that instruments code of its own adds a pass
   (WS_(add_instrument_pass)).  The layers above: output/ws_output.h,
   analyses/ws_analyses.h, control/ws_control.h, each including the
   one below. */

#ifndef __WS_CORE_H
#define __WS_CORE_H

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"

#define WS_(str)    VGAPPEND(vgWS_,str)

#define WS_VERSION        "0.1.0"
#define WS_FORMAT_VERSION 6
#define WS_DUMP_FORMAT_VERSION 5

/*------------------------------------------------------------*/
/*--- What the core assumes of the platform                ---*/
/*------------------------------------------------------------*/

/* ws is built for amd64-linux and, where Valgrind has it as its
   secondary platform, for x86-linux (32-bit programs).  What the core
   takes from the platform, stated here and nowhere else
   (docs/design.md, "Platforms"):

   - Words.  Guest and host words are both 64 bits on amd64, both 32
     bits on x86 (WS_(instrument) asserts it): addresses and the shadow
     words the IR reads as addresses are words (WS_Ity_W and the
     WS_Iop_*W operations below, cW()), while access counters are
     64-bit everywhere (VEX's x86 back end adds, loads and stores them
     as register pairs).  The countdown (WS_SHADOW_LEFT) is a signed
     word: on x86 it never holds more than WS_COUNTDOWN_MAX, and the
     boundary it runs out at early plans the next again (ws_clock.c).
   - Addresses.  User addresses have WS_ADDR_BITS bits (47 on amd64,
     32 on x86): the page tables index that many (an address above
     aliases a lower one; WS_(beyond_user_space)), and on amd64 a data
     check's site word (WS_CHECK_SITE) keeps its instruction's address
     in the low 47 bits, its weight and size above them and a record
     flag in bit 63.  On x86 a word has no room beside an address:
     every site that is not passed through the guest state is a
     WS_SiteRecord (WS_SITE_PACKS is 0).
   - Tags.  A data TLB tag is a page number, below 2^(WS_ADDR_BITS - 6),
     so that WS_DTLB_TRAP (bit 62 on amd64, bit 30 on x86) is set in no
     page number and WS_DTLB_EMPTY (a word of ones, which a page variable of type Addr
     compares equal to) is no page.  Tags are
     64-bit in memory; x86's IR compares their low word, which holds
     both the page and the trap bit.
   - The tool image.  Valgrind loads it at 0x58000000 on both (the
     link's -Ttext-segment), below 2^31: the code slots and the data
     TLB live in it, so that their addresses fit an addressing mode's
     32-bit displacement (VEX's amd64 back end has no 64-bit absolute
     addressing mode; a table above 2^31 would still work, through a
     64-bit constant in a register, only slower).  On x86 every
     address fits a displacement. */
#if VG_WORDSIZE == 8
#  define WS_ADDR_BITS          47
#  define WS_DTLB_TRAP          (1ULL << 62)
#  define WS_SITE_PACKS         1
#  define WS_SITE_WEIGHT_SHIFT  WS_ADDR_BITS
#  define WS_SITE_SIZE_SHIFT    50
#  define WS_SITE_RECORD        (1ULL << 63)
#  define WS_SITE_IS_RECORD(site) (((site) & WS_SITE_RECORD) != 0)
#  define WS_COUNTDOWN_MAX      (1LL << 62)
#  define WS_Ity_W      Ity_I64
#  define WS_Iop_AddW   Iop_Add64
#  define WS_Iop_SubW   Iop_Sub64
#  define WS_Iop_AndW   Iop_And64
#  define WS_Iop_ShrW   Iop_Shr64
#  define WS_Iop_CmpNEW Iop_CmpNE64
#  define WS_Iop_CmpLEWS Iop_CmpLE64S
#  define WS_Iop_CmpLTWU Iop_CmpLT64U
#  define WS_Iop_1UtoW  Iop_1Uto64
#  define WS_Iop_WtoU8  Iop_64to8
#  define WS_Ico_W      Ico_U64
#  define WS_ICO_W(c)   ((c)->Ico.U64)
#  define WS_IRConst_W(v) IRConst_U64(v)
#elif VG_WORDSIZE == 4
#  define WS_ADDR_BITS          32
#  define WS_DTLB_TRAP          (1ULL << 30)
#  define WS_SITE_PACKS         0
#  define WS_SITE_RECORD        0
#  define WS_SITE_IS_RECORD(site) True
#  define WS_COUNTDOWN_MAX      (1LL << 30)
#  define WS_Ity_W      Ity_I32
#  define WS_Iop_AddW   Iop_Add32
#  define WS_Iop_SubW   Iop_Sub32
#  define WS_Iop_AndW   Iop_And32
#  define WS_Iop_ShrW   Iop_Shr32
#  define WS_Iop_CmpNEW Iop_CmpNE32
#  define WS_Iop_CmpLEWS Iop_CmpLE32S
#  define WS_Iop_CmpLTWU Iop_CmpLT32U
#  define WS_Iop_WtoU8  Iop_32to8
#  define WS_Iop_1UtoW  Iop_1Uto32
#  define WS_Ico_W      Ico_U32
#  define WS_ICO_W(c)   ((c)->Ico.U32)
#  define WS_IRConst_W(v) IRConst_U32((UInt)(v))
#else
#  error "ws knows words of 64 and 32 bits only"
#endif
#define WS_DTLB_EMPTY         ((ULong)~(Addr)0)   /* a word of ones */

/* A word constant, an address or a count. */
static inline IRExpr* WS_(cW)(ULong v)
{
   return IRExpr_Const(WS_IRConst_W(v));
}

/* Whether [a, a+size) reaches beyond the user address space (or wraps):
   such an access faults without touching memory. */
static inline Bool WS_(beyond_reach)(Addr a, SizeT size)
{
#if VG_WORDSIZE == 8
   return ((a | (a + size - 1)) >> WS_ADDR_BITS) != 0;
#else
   return a + size - 1 < a;
#endif
}

/* While a thread runs translations, the clock and the current epoch
   live in its guest state's first shadow area (ws keeps no shadow
   registers), where the IR reaches them off the guest state pointer:
   the instructions left before the next boundary, which the IR counts
   down, and a copy of WS_(cur_stamp), zero-extended to 64 bits so that
   a 64-bit compare with a code slot's stamp (ws_codeslots.c) takes the
   slot's from memory; and a zero, to which the IR adds a code slot's
   address (below 2^31) to reach it through a displacement.
   Offsets into that area, one 64-bit word each. */
#define WS_SHADOW_LEFT   0      /* Long */
#define WS_SHADOW_STAMP  8      /* ULong: the Stamp */
#define WS_SHADOW_REP    16     /* Addr: the rep-prefixed string
                                   instruction whose next iteration
                                   comes, or 0 (--ws-count-rep=once) */
#define WS_SHADOW_ZERO   24     /* ULong: 0 */
/* From here on the words are the analyses' own (ws_routines.c). */
#define WS_SHADOW_ANALYSES 32

/*------------------------------------------------------------*/
/*--- Options                                              ---*/
/*------------------------------------------------------------*/

/* The options that are fixed for the run: one struct, which the
   control layer fills from the command line (control/ws_options.c
   parses, checks and documents every one) and completes when Valgrind
   calls post_clo_init; read-only from then on.  The parameters that
   may change while the program runs (T, tau, the peak threshold) are
   not here: each belongs to the module that uses it (WS_(every),
   WS_(tau) below, the peaks'), and changes only through the control
   API's table of them. */
typedef enum { WS_TimeInsns, WS_TimeMillis } WS_TimeUnit;

/* --ws-curves: the locality curves, off, exact, or estimated from
   observed windows (ws_curves.c). */
typedef enum { WS_CurvesNo, WS_CurvesExact, WS_CurvesSampled } WS_CurvesMode;

typedef struct {
   /* What is measured (the core's) */
   UInt         pagesize;        /* bytes, a power of two */
   UInt         page_shift;      /* log2(pagesize) */
   UInt         linesize;        /* bytes, a power of two <= pagesize;
                                    0: lines not measured */
   UInt         line_shift;      /* log2(linesize) */
   WS_TimeUnit  time_unit;
   Bool         count_rep_once;  /* --ws-count-rep=once */
   Bool         per_thread;
   Bool         syscalls;
   Bool         instr_atstart;
   /* The files (the output layer's) */
   const HChar* file;            /* the output file's name, as given */
   const HChar* file_option;     /* "--ws-file" or its alias, as given */
   const HChar* miss_file;       /* NULL: no miss profile */
   /* Whether the process that exec'd this program wrote an output file
      and a miss profile of its own (--ws-image, ws_main.c says why). */
   Bool         image_out;
   Bool         image_miss;
   /* What is made of it (the analyses') */
   Bool         peak_detect;
   ULong        peak_window;     /* samples */
   ULong        peaks;           /* peaks of each kind reported */
   ULong        hot;             /* hot pages of each kind */
   Bool         list_pages;
   Bool         locations;
   Bool         heap;
   Bool         heap_usage;      /* followed: --ws-heap=yes too */
   Bool         heap_exact;      /* --ws-heap-usage=exact: each access */
   ULong        heap_chunks;     /* chunk records kept per site */
   Bool         routines;        /* per-routine footprint */
   WS_CurvesMode curves;         /* --ws-curves */
} WS_Clo;
extern WS_Clo WS_(clo);

/* The page size in bytes, and its log2: fixed at start-up. */
static inline UInt WS_(page_size)(void)
{
   return WS_(clo).pagesize;
}
static inline UInt WS_(page_shift)(void)
{
   return WS_(clo).page_shift;
}

/* Cache lines (--ws-linesize): whether the run measures them, and
   whether they need tables of their own (a line smaller than a page;
   at --ws-pagesize=64 the lines are the pages). */
static inline Bool WS_(lines_on)(void)
{
   return WS_(clo).linesize != 0;
}
static inline Bool WS_(lines_apart)(void)
{
   return WS_(clo).linesize != 0 && WS_(clo).linesize < WS_(clo).pagesize;
}
static inline UInt WS_(line_shift)(void)
{
   return WS_(clo).line_shift;
}
/* log2 of the lines per page */
static inline UInt WS_(lpp_shift)(void)
{
   return WS_(clo).page_shift - WS_(clo).line_shift;
}
/* Whether the IR flags lines inline (in the data TLB's and the code
   slots' line flags): up to 64 lines a page.  With more (small lines
   in large pages) a helper called on every data check and code
   stretch touches them, exact but slow. */
#define WS_MAX_INLINE_LPP_SHIFT 6
static inline Bool WS_(lines_inline)(void)
{
   return WS_(lines_apart)() && WS_(lpp_shift)() <= WS_MAX_INLINE_LPP_SHIFT;
}
/* Whether the IR flags the lines of a data check of |size| bytes (both
   of its ends' lines, which are all it touches when it is no longer
   than a line: a group is kept that short, ws_accesses.c); a check it
   does not flag calls the helper on every run, which touches them.
   Always true when lines are not apart from pages. */
static inline Bool WS_(check_flags_lines)(SizeT size)
{
   return !WS_(lines_apart)()
          || (WS_(lines_inline)() && size <= WS_(clo).linesize);
}

#define WS_MAX_PEAK_WINDOW  1000000
#define WS_MAX_PEAK_THRESH  1000
#define WS_MAX_HOT          100000
#define WS_MAX_PEAKS        1000

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
   (the index is masked); docs/manual.md, Limits.  The first level is
   sized by the address space: 2^17 slots for amd64's 47 bits, 2^12 for
   x86's 32; a chunk holds 2^(WS_ADDR_BITS - WS_L1_BITS - the page or
   line shift) slots, and at least WS_BLOCK_PAGES (x86's 2 MiB pages
   then use the first 32 slots of the first level only). */
#if VG_WORDSIZE == 8
#  define WS_L1_BITS    17
#else
#  define WS_L1_BITS    12
#endif
#define WS_L1_ENTRIES   (1u << WS_L1_BITS)

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
/* The same for blocks of 2^shift bytes (cache lines). */
void   WS_(pt_init_at)(WS_PageTable* pt, Bool sparse, Stamp** l1_storage,
                       UInt shift);
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
   return (Addr)1 << (WS_ADDR_BITS - WS_(page_shift)());
}

/*------------------------------------------------------------*/
/*--- The clock and the epochs (ws_clock.c)                ---*/
/*------------------------------------------------------------*/

extern Stamp WS_(cur_stamp);    /* current epoch */

/* At start-up: the timer's origin, and epoch 1 began at 0. */
void  WS_(clock_init)(void);
/* The clock passes to thread |tid|'s shadow area as it starts running
   translations, and back when it stops. */
void  WS_(clock_to_thread)(ThreadId tid);
void  WS_(clock_from_thread)(ThreadId tid);
/* Instructions executed so far; the next boundary (WS_(boundary)) at
   instruction |at|; whether the clock has reached it. */
ULong WS_(clock_insns)(void);
/* The same in a helper the IR called, given the countdown it reads in
   the running thread's shadow area (WS_SHADOW_LEFT). */
ULong WS_(clock_at_countdown)(Word left);
void  WS_(clock_next_event)(ULong at);
Bool  WS_(clock_due)(void);
/* Measurement stops: the clock stands still (whatever instrumented
   code runs while off) and no boundary comes due, until it starts
   again. */
void  WS_(clock_freeze)(void);
void  WS_(clock_thaw)(void);
/* The current time in the user's time unit. */
ULong WS_(now)(void);
/* In ms mode, measurement starts or stops at one instant: from these
   until WS_(clock_release) the clock stands at the start or the stop
   (the time off does not count). */
void  WS_(clock_hold_start)(void);
void  WS_(clock_hold_stop)(void);
void  WS_(clock_release)(void);
/* In ms mode, the clock reads at least |t| from now on (a sample was
   dated |t|: ws_sampler.c, record_sample). */
void  WS_(clock_not_before)(ULong t);

/* A new epoch now (e.g. another thread starts running); the data TLB
   is emptied. */
void  WS_(new_stamp)(void);
/* When epoch |s| began (it must not have left the window); the same,
   or 0 if it is not in the window. */
ULong WS_(stamp_time)(Stamp s);
ULong WS_(stamp_start_time)(Stamp s);
/* The first epoch of the next sample's window, whose first touch of a
   page is a working-set miss (event WS_EvEntered), or WS_STAMP_MASK
   while none has begun; planned after each sample, for the window that
   begins at time |from|.  |rising| counts the pages that came into that window
   since it was planned or began. */
extern Stamp WS_(miss_first);
extern ULong WS_(rising)[2];
void  WS_(plan_miss_window)(ULong from);

/*------------------------------------------------------------*/
/*--- Windows and the pages in them (ws_window.c,         ---*/
/*--- ws_wincount.c)                                       ---*/
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

/* (ws_wincount.c) A window that starts at epoch |first|. */
void  WS_(win_init)(WS_Window* w, Stamp first);
void  WS_(win_free)(WS_Window* w);
/* A page's stamp moves from |old| to |new| (either may be 0, never, or
   older than the window). */
void  WS_(win_set)(WS_Window* w, Stamp old, Stamp new);
/* The same for |n| pages that all move from |old| to |new|. */
void  WS_(win_move)(WS_Window* w, Stamp old, Stamp new, UInt n);
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
/* Cache lines, when they are apart from pages (WS_(lines_apart)): the
   line tables, and an access to line number |line| of |kind| in the
   current epoch; the lines of bytes [a, a+size-1]. */
extern WS_PageTable WS_(line_tables)[2];
void  WS_(touch_line)(WS_Kind kind, Addr line);
/* The same, for the lines of page number |page| that are the bits of
   |lines| (lines inline only: at most 64 a page). */
void  WS_(touch_lines)(WS_Kind kind, Addr page, ULong lines);
/* Pages [first, last] are unmapped: their lines' stamps are all in the
   line table before it marks them (ws_syscalls.c). */
void  WS_(lines_unmapping)(WS_Kind kind, Addr first, Addr last);
void  WS_(touch_line_range)(WS_Kind kind, Addr a, SizeT size);
/* The lines that the IR flagged (data TLB entries, code slots) and no
   one has read yet go to the line tables in the current epoch: before
   an epoch ends, and before line sizes are read.  Flags made while
   measurement is off are dropped. */
void  WS_(settle_lines)(void);
/* The window's lines of each kind, as current_sizes's pages (the
   pages' when lines are the pages, 0 when lines are off), as far as
   they are settled: call WS_(settle_lines) first. */
void  WS_(current_line_sizes)(ULong sizes[2]);
/* The pages of |kind| in the current window (the last sample's, up to
   now), as page numbers in an XArray of Addr that the caller frees. */
struct _XArray;
struct _XArray* WS_(window_pages)(WS_Kind kind);
/* Pages with a stamp in the window of the last sample or later: the
   working set over a window that started at the last sample's window
   start (between tau and tau + T long). */
void  WS_(current_sizes)(ULong sizes[2]);
Stamp WS_(window_first_stamp)(void);

/* Event WS_EvRose when WS_(rising) of |kind| reaches |pages| (~0ULL:
   never): an analysis sets the next mark when it hears one, and after
   each sample (the count starts again at 0 then). */
void  WS_(notify_rise)(WS_Kind kind, ULong pages);

/* The open region: from a start of measurement (WS_START, "ws start",
   or a start while measuring) to the next stop.  Its first epoch (0
   while none is open) and the distinct pages it touched so far: a
   region begins an epoch and stamps only grow, so a page is new to it
   exactly when its stamp is older than that epoch.  The sampler opens
   and closes it; what a region is called and sums up is
   ws_regions.c's. */
extern Stamp WS_(region_first);
extern ULong WS_(region_pages)[2];
extern ULong WS_(region_lines)[2];   /* the same in lines (lines apart) */
void  WS_(region_open)(void);
void  WS_(region_close)(void);

/*------------------------------------------------------------*/
/*--- What the core knows of each page (ws_records.c)      ---*/
/*------------------------------------------------------------*/

/* Beyond its stamp, per page of each kind: how often it was accessed,
   the instruction of its first access, and the byte through which it
   last entered the window (what names its owner), the instruction that
   reached it and the number of that entry among the kind's entries
   (WS_(entries): "ws since" lists the pages whose entry came after a
   given one). */
typedef struct {
   ULong accesses;      /* exact once WS_(flush_access_counts) ran */
   Addr  first_ip;      /* 0: never touched */
   Addr  entry;
   Addr  entry_ip;
   ULong entry_number;  /* 0: never entered */
} WS_PageRecord;

/* The access counter of page |page|, at a fixed address (the IR adds
   to it; records never move). */
ULong* WS_(access_counter)(WS_Kind kind, Addr page);
void   WS_(add_accesses)(Addr page, ULong n);
/* Slow-path hooks of touch_page: the first touch ever of |page| by the
   instruction at |ip|; |page| entered the window (or was mapped anew)
   through the access of the instruction at |ip| to byte |a| (for code,
   the instruction's first byte on the page). */
void   WS_(first_touch)(WS_Kind kind, Addr page, Addr ip);
void   WS_(entered_window)(WS_Kind kind, Addr page, Addr ip, Addr a);
/* How many times pages of each kind entered a window so far: the number
   of the latest entry. */
extern ULong WS_(entries)[2];
/* A page's entry byte, access count and first access; 0 if it has no
   record. */
Addr   WS_(entry_byte)(WS_Kind kind, Addr page);
/* The instruction of |page|'s latest entry into the window and its
   number (both 0 if it never entered one). */
Addr   WS_(entry_ip)(WS_Kind kind, Addr page, ULong* number);
ULong  WS_(page_accesses)(WS_Kind kind, Addr page);
Addr   WS_(page_first_ip)(WS_Kind kind, Addr page);
/* |visit| on the record of every page of |kind| that has one, by
   address (the counts as they stand: flush them first). */
void   WS_(for_each_record)(WS_Kind kind,
                            void (*visit)(const WS_PageRecord* r,
                                          Addr page, void* opaque),
                            void* opaque);

/*------------------------------------------------------------*/
/*--- The data TLB and the slow paths (ws_dtlb.c)          ---*/
/*------------------------------------------------------------*/

/* The data TLB: page numbers known to be current in this epoch, direct
   mapped by page number.  The inline check of a data access is one
   load from it and one compare; the page tables are walked only by the
   helper when the entry is stale, which refills it.  Each entry also
   counts the accesses to its page since it was filled: the inline code
   adds to it (the same cache line as the tag), and they move to the
   page's record (ws_records.c) when the entry is refilled or emptied.
   Emptied (all entries WS_DTLB_EMPTY) whenever an epoch begins or
   memory is unmapped.

   An entry holds its page once per kind of check (loads only, stores
   only, both), and a check compares the tag of its kind, so that a
   kind of access to a page can be kept out of the TLB while the rest
   hits: a watch (below) keeps out the kinds of access it asks for.  A
   tag kept out has WS_DTLB_TRAP set, which no address's page has: the
   compare fails, and the entry still holds the page for the counts. */
typedef enum { WS_Read = 1, WS_Write = 2, WS_ReadWrite = 3 } WS_AccessKind;
#define WS_DTLB_ENTRIES  4096
typedef struct {
   ULong tag[3];        /* the page, indexed by WS_AccessKind - 1 */
   ULong accesses;
} WS_DtlbEntry;
#define WS_DTLB_ENTRY_SHIFT 5        /* log2(sizeof(WS_DtlbEntry)) */
extern WS_DtlbEntry WS_(dtlb)[WS_DTLB_ENTRIES];
/* Lines apart from pages, at most 2^WS_MAX_INLINE_LPP_SHIFT a page
   (WS_(lines_inline)): a flag byte per line of each entry's page (the
   low byte of its index when flagged, ws_dtlb.c), at index (entry's index << lines per page's log2) + the line's in its
   page, i.e. the line number masked.  The IR sets those of both
   ends of a check after it (ws_instrument.c); they go to the line
   table when the entry is settled, or by WS_(settle_lines).  A guarded
   access that does not run sets WS_(dtlb_no_line) instead. */
#define WS_DTLB_LINE_FLAGS (WS_DTLB_ENTRIES << WS_MAX_INLINE_LPP_SHIFT)
extern UChar WS_(dtlb_lines)[WS_DTLB_LINE_FLAGS];
extern UChar WS_(dtlb_no_line);
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
/* Empties the TLB now (every page's next access reaches the helper),
   its lines settled first; the same when the caller settled them just
   before (WS_(settle_lines)), with no client code run since. */
void WS_(dtlb_flush)(void);
void WS_(dtlb_empty)(void);
/* Gives |page|'s entry, if it holds the page, the tags the watch's
   marks ask for now, so that a kind of access they keep out reaches
   the helper from now on. */
void WS_(dtlb_refresh_page)(Addr page);

/* The watch on data accesses, for an analysis that must hear of
   accesses the data TLB would let through (heap usage: the first read
   and the first write of a chunk's page after its allocation): one
   watcher at most.  It marks data pages in a table of one byte per page
   that the core owns and the slow path reads inline (no call); what the
   bits mean is the watcher's, and the core reads them through three
   masks: the marks that keep loads, or stores, out of the TLB (a tag
   that is kept out traps every access of its kind to the page), and
   those that make the helper tell the watcher of an access to the
   page.  The helper tells it, before the pages' stamps change, of every
   access that reaches it on a page marked to wake it, of one larger
   than a page, and of every one while |*all| is not 0 (a thread inside
   the allocator); the kernel's accesses for the program too (while
   measuring).  With WS_(watch_settling), also of every page whose
   entry's count moves to its record (the accesses the TLB let through
   on it since the entry was filled).  Lines apart from pages: on a page
   marked |lines|, the watcher hears of every line the program touched
   (while measuring): the lines the IR flagged, when the page's entry
   is settled (|lines_settled|, a page's line word as the line table
   gets it), and every check whose lines the IR does not flag
   (|access|, as if the page woke it). */
typedef struct {
   UChar        trap_read;    /* marks that keep loads out */
   UChar        trap_write;   /* marks that keep stores out */
   UChar        wake;         /* marks that wake the watcher */
   UChar        lines;        /* marks that tell it the lines touched */
   const ULong* all;          /* not 0: every access wakes it */
   void       (*access)(Addr a, SizeT size, WS_AccessKind kind);
   void       (*kernel_access)(Addr a, SizeT size, WS_AccessKind kind,
                               ThreadId tid);
   void       (*lines_settled)(Addr page, ULong lines);
} WS_Watch;
void WS_(watch_accesses)(const WS_Watch* w);
void WS_(watch_settling)(void (*settled)(Addr page));
/* For ws_syscalls.c: the kernel accessed [a, a+size) for thread |tid|. */
void WS_(watch_kernel)(Addr a, SizeT size, WS_AccessKind kind, ThreadId tid);
/* The marks, and a page's (NULL when no mark was ever made near it);
   WS_(pt_record)(&WS_(watch_marks), page) makes one. */
extern WS_PageTable WS_(watch_marks);
static inline UChar* WS_(watch_mark)(Addr page)
{
   const WS_PageTable* pt = &WS_(watch_marks);
   UChar* chunk = (UChar*)pt->l1[(page >> pt->chunk_bits)
                                 & (WS_L1_ENTRIES - 1)];
   return chunk == NULL ? NULL
        : chunk + (page & (((Addr)1 << pt->chunk_bits) - 1));
}

/* What a data check passes its helper, |site|: the check's size, the
   accesses it counts and its instruction's address in one word,
   WS_CHECK_SITE(size, weight, ip) (the layout is the platform's, at
   the top: a size below WS_SITE_MAX_SIZE, a weight below
   WS_SITE_MAX_WEIGHT); or, with WS_SITE_RECORD set, a WS_SiteRecord for
   any other check, and for one that counts several accesses which may
   lie on two pages.  The inline code adds a check's accesses to its
   entry before it compares the tag, so the helper has to know how many
   it added. */
#define WS_SITE_MAX_WEIGHT       8
#define WS_SITE_MAX_SIZE         0x2000
#define WS_CHECK_SITE(size, weight, ip)                               \
   (((HWord)(size) << WS_SITE_SIZE_SHIFT)                             \
    | ((HWord)(weight) << WS_SITE_WEIGHT_SHIFT) | (HWord)(ip))
#define WS_SITE_SIZE(site) \
   (((site) >> WS_SITE_SIZE_SHIFT) & (WS_SITE_MAX_SIZE - 1))
#define WS_SITE_WEIGHT(site) \
   (((site) >> WS_SITE_WEIGHT_SHIFT) & (WS_SITE_MAX_WEIGHT - 1))
#define WS_SITE_IP(site)         ((site) & (((HWord)1 << WS_ADDR_BITS) - 1))

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
/* The same at a superblock's first instruction, the page of the
   guest's instruction pointer. */
void WS_(insn_restamp_at_ip)(void);
/* Code bytes [a, a+len) ran, whose lines the IR does not flag (no
   slot, or more lines a page than flags inline). */
VG_REGPARM(2) void WS_(insn_lines)(Addr a, HWord len);
/* The page after |ip|'s, which the instruction at |ip| reaches into. */
VG_REGPARM(1) void WS_(insn_restamp_straddling)(Addr ip);

/* Observing every access, for an analysis that must see each one
   while it asks (the sampled locality curves' windows) and adds no IR
   of its own: while on, every data TLB tag is trapped and the running
   thread's shadow stamp is one no code page has (WS_OBSERVE_STAMP), so
   that every data check and every superblock's first code check reach
   their helpers, which tell the observer (while measuring) before they
   do their own work; a data check whose entry already holds its page
   then returns at once (the inline code counted it), unless a watch's
   mark on the page asks for more.  |superblock|: a superblock starting
   at |ip| begins, the clock exact (WS_(clock_insns): the instructions
   before it); |data|: a data check of [a, a+size) at instruction |ip|
   ran, the clock as at the superblock's last exit, or (|later|) an
   access of the check's group at a later instruction (below), told
   with the check.  One observer at
   most; WS_(observe_all) switches it on and off at a superblock
   boundary (the TLB emptied, the stamp rewritten). */
typedef struct {
   void (*superblock)(Addr ip);
   void (*data)(Addr a, SizeT size, Addr ip, Bool later);
} WS_Observer;
#define WS_OBSERVE_STAMP 0xFFFFFFFFu       /* above WS_STAMP_MASK */
extern Bool WS_(observed);       /* an observer is set */
extern Bool WS_(observing);
void WS_(observe_with)(const WS_Observer* o);
void WS_(observe_all)(Bool on);          /* ws_clock.c */
/* A check that counts the accesses of more than one instruction (a
   group: ws_instrument.c), noted as it is instrumented while an
   observer is set: its parts' instructions and bytes (off the check's
   first), so that the helper tells the observer of each part at its
   own instruction; a check is known by its instruction, size, weight
   and kind, as its helper finds them. */
typedef struct {
   Addr ip;
   UInt first, last;
} WS_GroupPart;
void WS_(note_group)(Addr ip, UInt size, UInt weight, WS_AccessKind kind,
                     const WS_GroupPart* parts, UInt n_parts);

/*------------------------------------------------------------*/
/*--- The code pages' slots (ws_codeslots.c)               ---*/
/*------------------------------------------------------------*/

/* A code page's stamp and access count at an address below 2^31 (the
   table is in the tool image; see the platform's assumptions at the
   top), which the IR can make an addressing mode's displacement.  A page gets a slot the first
   time a superblock on it is instrumented, while slots are left (programs at 4 KiB pages touch a
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
extern Addr        WS_(code_slot_page)[WS_CODE_SLOTS];
/* Lines apart from pages, at most 2^WS_MAX_INLINE_LPP_SHIFT a page
   (WS_(lines_inline)): a 32-bit flag per line of each slot's page, which
   the IR sets (1) at every exit for the lines of the instructions run
   on the page since the last; WS_(settle_lines) (ws_dtlb.c) moves
   them to the line table. */
extern UInt        WS_(code_lines)[WS_CODE_SLOTS << WS_MAX_INLINE_LPP_SHIFT];
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
/* An analysis's own boundary (the sampled curves' windows, which must
   not line up with T): |fn| runs from the boundary handler once
   WS_(clock_insns) reaches |at| while measuring.  One client, one
   time at a time: |fn| may ask for the next. */
void  WS_(sampler_call_at)(ULong at, void (*fn)(void));

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
   ULong retranslations;   /* translations thrown away (start, stop) */
} WS_Counters;
extern WS_Counters WS_(counters);
void WS_(print_counters)(void);

/* Measurement on or off (WS_START / WS_STOP, "ws start" / "ws stop").
   While off, the clock stands still, nothing is counted and no sample
   is taken; code runs uninstrumented, or instrumented while starts and
   stops come fast (ws_sampler.c says when). */
extern Bool WS_(measuring);
/* Whether a translation made now gets the core's IR; a translation
   made without it, while off, although it should have had it (its
   code page found no slot left: ws_instrument.c). */
Bool WS_(instrumenting)(void);
void WS_(instrumented_plain)(void);
/* Both return the time of the change (the time of their events:
   WS_EvStart with a fresh window, WS_EvStop after the final sample). */
ULong WS_(measure_start)(void);
ULong WS_(measure_stop)(void);
/* A start while measuring: the window goes on as it is, a region
   begins (a new epoch, so that the region's total counts the pages it
   touches from now on; WS_EvStart without a fresh window); returns the
   time. */
ULong WS_(measure_region_begin)(void);
/* The program ends (exit, or an exec replaces it): the final sample,
   then WS_EvStop with |end| set. */
void  WS_(measure_end)(void);
/* The sampling interval T and the window tau (--ws-every, --ws-tau;
   tau is T unless given), and their changes from now on (a new epoch
   begins at once; before start-up, the options' values).  The
   control API's table is the one door to the setters. */
ULong WS_(every)(void);
ULong WS_(tau)(void);
void  WS_(set_every)(ULong every);
void  WS_(set_tau)(ULong tau);
/* Takes the final sample, when measurement stops (WS_STOP, "ws stop",
   exit, the last thread's exit): over the window the last sample's
   began, at the current time (unless a sample was just taken at that
   time). */
void  WS_(final_sample)(void);

typedef struct { ULong t, insn, data, insn_lines, data_lines; } WS_Sample;
/* The last WS_SERIES_LEN samples are kept, for "ws series": a fixed
   ring, so memory does not grow with the length of the run. */
#define WS_SERIES_LEN 1024
/* Copies the last min(n, kept) samples, oldest first; returns how many. */
ULong WS_(series)(ULong n, WS_Sample* out);

/* Samples taken so far in this process, a forked child's included
   (never reset: it orders heap blocks' lives against samples). */
extern ULong WS_(sample_seq);

/* The lines ever touched of |kind|, and those the open region touched
   (the pages' when lines are the pages). */
static inline ULong WS_(total_lines)(const ULong total_lines[2],
                                     const ULong total_pages[2],
                                     WS_Kind kind)
{
   return WS_(lines_apart)() ? total_lines[kind] : total_pages[kind];
}

/* Run-wide statistics for the summaries. */
typedef struct {
   ULong samples;
   ULong sum[2];        /* sum of sample sizes, per kind */
   ULong peak[2];
   ULong total[2];      /* distinct pages ever touched */
   ULong line_sum[2];   /* the same in lines */
   ULong line_peak[2];
   ULong total_lines[2];
} WS_Stats;
extern WS_Stats WS_(stats);
/* In a forked child: no samples yet (its file has none of the
   parent's). */
void  WS_(sampler_after_fork)(void);

/*------------------------------------------------------------*/
/*--- Threads (ws_threads.c, ws_perthread.c)              ---*/
/*------------------------------------------------------------*/

/* Threads alive (the exit of the last one takes the final sample) and
   the one running (ws_threads.c): the core hears of them from
   Valgrind (ws_main.c registers these hooks) and tells
   WS_EvThreadStart, WS_EvThreadExit and WS_EvThreadRuns. */
void  WS_(threads_init)(void);
void  WS_(thread_created)(ThreadId parent, ThreadId child);
void  WS_(thread_exited)(ThreadId tid);
/* Thread |tid| is about to run client code: the clock passes to it. */
void  WS_(thread_running)(ThreadId tid);
/* In a forked child: only thread |tid| is left. */
void  WS_(threads_after_fork)(ThreadId tid);

/* With --ws-per-thread=yes (ws_perthread.c), each thread's own working
   sets and the data pages in the window touched by more than one
   thread, all on the slow path: the windows start at epoch |first|; a
   thread is added (or its first touch adds it) and dropped; the slow
   path's hook (thread |tid| touched |page| of |kind|, whose stamp
   before this touch was |prev|); every window moves to start at
   |first| before a sample. */
void  WS_(perthread_init)(Stamp first);
void  WS_(perthread_add)(ThreadId tid);
void  WS_(perthread_drop)(ThreadId tid);
void  WS_(thread_touch)(ThreadId tid, WS_Kind kind, Addr page, Stamp prev);
void  WS_(threads_advance)(Stamp first);
/* The data pages in the window that more than one thread touched; a
   thread's own window sizes (False for a thread without any). */
ULong WS_(shared_pages)(void);
Bool  WS_(thread_sizes)(ThreadId tid, ULong sizes[2]);

/*------------------------------------------------------------*/
/*--- Instrumentation (ws_instrument.c, ws_accesses.c,     ---*/
/*--- ws_rep.c)                                            ---*/
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

/* Valgrind's instrumentation callback: the core's IR while measuring,
   then every pass an analysis added, whether measuring or not (what
   they add is never counted: it comes after the core's). */
IRSB* WS_(instrument)(VgCallbackClosure* closure, IRSB* sbIn,
                      const VexGuestLayout* layout,
                      const VexGuestExtents* vge,
                      const VexArchInfo* archinfo_host,
                      IRType gWordTy, IRType hWordTy);
/* An analysis's own instrumentation (heap blocks: the allocation
   functions' entries and returns), added at start-up only when it is
   on, so that nothing is added to a run without it.  A pass returns
   |sb| itself when it adds nothing. */
typedef IRSB* (*WS_InstrumentPass)(IRSB* sb, const VexGuestLayout* layout,
                                   const VexGuestExtents* vge);
void WS_(add_instrument_pass)(WS_InstrumentPass pass);
/* An analysis that must see every instruction and access of the
   program as it is (the exact locality curves): its pass runs before
   the core's, whose own IR then sees the helper calls it added as
   accesses of nothing.  One at most. */
void WS_(set_first_pass)(WS_InstrumentPass pass);
/* An analysis whose IR must sit among the core's (per-routine
   footprint: the activations' bounds and the accesses' lines), added
   at start-up only when it is on.  While the core instruments |sbIn|
   into |out|: |enter| before its first access, after the core's
   prologue; |access| after the core's check of access |i|; |leave| at
   the end, after the clock has counted the superblock.  One hook at
   most. */
typedef struct {
   void (*enter)(IRSB* out, IRSB* sbIn, const VexGuestLayout* layout);
   void (*access)(IRSB* out, IRSB* sbIn, const WS_Access* access, Int i);
   void (*leave)(IRSB* out, IRSB* sbIn);
} WS_InstrumentHook;
void WS_(hook_instrument)(const WS_InstrumentHook* hook);

/*------------------------------------------------------------*/
/*--- Kernel-side accesses and unmaps (ws_syscalls.c)      ---*/
/*------------------------------------------------------------*/

void  WS_(syscalls_init)(void);
/* The kernel's accesses to the program's memory for thread |tid|'s
   system calls, told to one listener (the per-routine footprint)
   whatever --ws-syscalls says. */
void  WS_(hear_kernel)(void (*fn)(Addr a, SizeT size, WS_AccessKind kind,
                                  ThreadId tid));
/* The client's string at |a|, read so that no fault can come of it:
   up to |size| - 1 bytes into |buf| (NUL-terminated; NULL: only its
   length); returns its length and whether its NUL was within reach. */
SizeT WS_(client_string)(Addr a, HChar* buf, SizeT size, Bool* whole);

/*------------------------------------------------------------*/
/*--- Events: what the core tells (ws_events.c)            ---*/
/*------------------------------------------------------------*/

/* The core's one door upwards.  An analysis (or the output layer)
   registers for the events it needs at start-up, and hears of each in
   the order of registration (ws_main.c says the order that matters).
   All of them come from the slow path or more rarely: a page touched
   at most once per page and epoch, entering the window at most once
   per page and window, the rest once per epoch, sample, start, stop or
   thread; an event nobody listens to costs a load and a test. */
typedef enum {
   WS_EvEntered,     /* a page entered the next sample's window: a
                        working-set miss (kind, page, ip) */
   WS_EvRose,        /* the pages that entered it reached the mark set
                        by WS_(notify_rise) (kind, ip) */
   WS_EvEpoch,       /* an epoch began (stamp, t) */
   WS_EvSample,      /* a sample was taken (t, sizes, final, window) */
   WS_EvStart,       /* measurement started with a fresh window
                        (fresh), or a region began while it was on;
                        told before the core opens the region (t) */
   WS_EvStop,        /* measurement stopped after its final sample, or
                        the program ends (end); told before the core
                        closes the region (t) */
   WS_EvThreadStart, /* thread tid was made by thread parent */
   WS_EvThreadExit,  /* thread tid ends (after the last one's final
                        sample) */
   WS_EvThreadRuns,  /* thread tid is about to run client code */
   WS_EvSettled,     /* the boundary handler the IR called is done (its
                        sample taken, the next planned): the program
                        may be stopped here (t) */
   WS_EvTouched,     /* a page's first touch in the current epoch
                        (kind, page, stamp: its stamp before, with
                        WS_STAMP_DEAD if it was unmapped since) */
   WS_N_EVENTS
} WS_EventKind;

typedef struct {
   WS_EventKind what;
   ULong        t;          /* Epoch, Sample, Start, Stop: when, in the
                               time unit */
   WS_Kind      kind;       /* Entered, Rose */
   Addr         page;       /* Entered: its page number */
   Addr         ip;         /* Entered, Rose: the instruction */
   Stamp        stamp;      /* Epoch; Touched: the page's stamp before */
   ULong        sizes[2];   /* Sample: the window's pages per kind */
   ULong        lines[2];   /* Sample: its lines per kind (0: off) */
   Bool         final;      /* Sample: the one a stop or exit takes */
   ULong        window;     /* Sample: its window's length (tau, or
                               at most tau for a final one) */
   Bool         fresh;      /* Start: a fresh window */
   Bool         end;        /* Stop: the program ends */
   ThreadId     tid, parent;
} WS_Event;

typedef void (*WS_Listener)(const WS_Event* ev);
#define WS_MAX_LISTENERS 6
void WS_(listen)(WS_EventKind what, WS_Listener fn);

/* For the core: tells |ev|'s listeners; whether |what| has any. */
void WS_(tell)(const WS_Event* ev);
extern UInt WS_(n_listeners)[WS_N_EVENTS];
static inline Bool WS_(heard)(WS_EventKind what)
{
   return WS_(n_listeners)[what] != 0;
}

#endif /* __WS_CORE_H */

/*--------------------------------------------------------------------*/
/*--- end                                                ws_core.h ---*/
/*--------------------------------------------------------------------*/

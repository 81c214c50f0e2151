/*--------------------------------------------------------------------*/
/*--- ws: what reads the core.                     ws_analyses.h ---*/
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

/* The analyses' header: what ws makes of the core's measurements and
   names in its files (stacks and C++ names, peaks, hot pages, heap
   blocks and owners, heap usage, misses, regions).  It sits on the
   output layer (ws_output.h), which sits on the core. */

#ifndef __WS_ANALYSES_H
#define __WS_ANALYSES_H

#include "pub_tool_execontext.h"
#include "pub_tool_hashtable.h"

#include "ws_output.h"

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
/* The stacks the output file holds, and WS_(stack_id) for it; forgotten
   when the output file starts afresh (a forked child, a new image). */
WS_StackFile* WS_(out_stacks)(void);
UInt WS_(out_stack)(ExeContext* ec);
void WS_(out_stacks_forget)(void);
/* Appends " <ip> <location> <function>" for code address |ip| to the
   line being built in |f| (docs/output-format.md, "Stacks"). */
void WS_(write_where)(struct _WS_File* f, Addr ip);
/* A whole stack for people, each line after |indent| (|own|: the line
   to mark as the first in the program's code, or -1). */
void WS_(show_stack)(struct _WS_File* f, ExeContext* ec,
                     const HChar* indent, Int own);
/* Code on one line for people, interned: "function (file:line)",
   "function (in object)", or for code without a symbol its object and
   its address inside it, "liblzma.so.5+0x1c2f0" (ws_stacks.c says
   why).  code_line names the innermost level at |ip|; site_line names
   a stack by one of its levels: the first in the program's own code
   (WS_(own_level)) if it has a name, else the innermost. */
const HChar* WS_(code_line)(Addr ip);
const HChar* WS_(site_line)(ExeContext* ec);
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
/* After a system call, which may have changed the program's mappings. */
void WS_(stacks_forget_mappings)(void);
/* The first line (frame or inline, as a stack block has them) that is
   the program's own code: in its executable, not a C++ library
   template; -1 if none. */
Int  WS_(own_level)(ExeContext* ec);
/* One lasting copy of |s| (the same for equal strings). */
const HChar* WS_(intern)(const HChar* s);
/* |name| demangled (C++, as --demangle says), interned. */
const HChar* WS_(demangled)(const HChar* name);
/* (ws_demangle.c) A C++ name in the Itanium ABI's mangling, as c++filt
   writes it, in a string to VG_(free); NULL if it is none, or uses what
   ws does not read (ws_demangle.c says what). */
HChar* WS_(demangle)(const HChar* mangled);

/*------------------------------------------------------------*/
/*--- Peaks (ws_peaks.c)                                   ---*/
/*------------------------------------------------------------*/

/* At start-up: registers for the samples, starts, stops and rises. */
void  WS_(peaks_init)(void);
/* The detector's threshold (--ws-peak-thresh), and its change from now
   on (before start-up, the option's value). */
ULong WS_(peak_thresh)(void);
void  WS_(set_peak_thresh)(ULong thresh);
ULong WS_(peaks_count)(void);           /* reported, as things stand */
ULong WS_(peaks_found)(void);           /* runs the detector flagged */
void  WS_(show_peaks)(struct _WS_File* f);  /* "ws peaks" */
void  WS_(peaks_trailer)(void);         /* the peaks and "peaks N" */
void  WS_(peaks_summary)(void);         /* their line on stderr */
/* In a forked child: no peaks yet (its file has none of the parent's). */
void  WS_(peaks_after_fork)(void);
/* The region just closed, named |label| (NULL: no name): its largest
   samples become the name's. */
void  WS_(peaks_region_closed)(const HChar* label);
/* The "peaks:" lines of --stats=yes. */
void  WS_(peaks_print_stats)(void);
/* The last sample of |kind| as the detector saw it (all zero before
   the first, and with --ws-peak-detect=no): flagged as standing out,
   the mean it was compared with, the stack where its window rose
   (NULL: it did not rise that far). */
typedef struct {
   Bool        flagged;
   Double      baseline;
   ExeContext* rise;
} WS_PeakSample;
void  WS_(peak_last_sample)(WS_Kind kind, WS_PeakSample* out);

/*------------------------------------------------------------*/
/*--- Hot pages (ws_hot.c)                                 ---*/
/*------------------------------------------------------------*/

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

/* At start-up (--ws-heap=yes): adds the allocation functions' hooks to
   the core's instrumentation and registers for the samples (freed
   blocks are remembered, to name the pages they leave in a window,
   until they were freed some samples back). */
void WS_(heap_init)(void);
/* How many threads are inside an allocation function: the inline
   guard of the return hook reads it, and heap usage has every access
   told then (WS_Watch.all). */
extern ULong WS_(heap_calls);
/* Who hears of the chunks the program allocates and frees (heap usage,
   at most one): |alloc| when a block is allocated (the record it
   returns, the block keeps), |free| with that record when the block is
   freed or overlapped by a newer one. */
typedef struct WS_ChunkUse WS_ChunkUse;
void WS_(heap_chunks_to)(WS_ChunkUse* (*alloc)(Addr block, SizeT size,
                                               ExeContext* site),
                         void (*free)(WS_ChunkUse* use));
/* ... and |left| when realloc is entered with the block: what it does
   to the block from then on is the allocator's, not the program's use
   (its copy reads it). */
void WS_(heap_chunks_left_to)(void (*left)(WS_ChunkUse* use));

/* At start-up: heap usage is followed if --ws-heap=yes and
   --ws-heap-usage=yes; it watches data accesses (ws_core.h, "The data
   TLB"), hears of chunks from ws_heap.c and of epochs and threads from
   the core. */
void WS_(heapuse_init)(void);
/* In a forked child: only the chunks it inherited live count. */
void WS_(heapuse_after_fork)(void);

/* Heap usage's marks on data pages (the watch's, WS_(watch_mark)).
   WS_Read and WS_Write: the kinds of access the TLB keeps out of the
   page (something on it waits to hear of one, ws_heapuse.c). */
#define WS_HEAP_LINES    8u   /* the watcher hears of the lines the
                                 program touches here */
#define WS_HEAP_PAGE     16u  /* a chunk has lain here */
#define WS_HEAP_ALLOC    32u  /* the allocator made it current in this
                                 epoch, the program has not accessed
                                 it since: the TLB keeps it out */
#define WS_HEAP_WAITING  (WS_Read | WS_Write | WS_HEAP_ALLOC)

/* What lives in the data page holding |a|: named by the byte through
   which the page last entered the window (the owner of the bytes the
   program accessed), or |a| if none is known. */
void WS_(owner_of)(Addr a, WS_Owner* o);
/* The stack an owner names (a heap block's, live or freed), or NULL. */
ExeContext* WS_(owner_stack)(const WS_Owner* o);
/* At start-up: registers for threads' exits (a thread's stack keeps
   its name afterwards). */
void WS_(owners_init)(void);
/* Writes a whole "<prefix> <owner>" line into |sf|'s file, after the
   stack block the owner names if the file does not hold it yet. */
void WS_(write_owner_line)(WS_StackFile* sf, const HChar* prefix,
                           const WS_Owner* o, Bool with_block);
/* The "owner:" line under a page's line for people, and a heap
   block's stack. */
void WS_(show_owner)(struct _WS_File* f, const WS_Owner* o);
/* One line for people: what lives there; a heap owner by its
   allocation site on one line (WS_(site_line)), with the block's
   address and size if |with_block|. */
void WS_(show_owner_line)(struct _WS_File* f, const WS_Owner* o,
                          Bool with_block);
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
/* The same, and the line of the breakdown that counts each of |pages|
   into |page_line| (as many as |pages|). */
WS_Breakdown* WS_(breakdown_pages)(WS_Kind kind, const struct _XArray* pages,
                                   ULong sample, UInt* page_line);
void WS_(breakdown_free)(WS_Breakdown* b);
/* The "owner <n> <pages> <owner>" lines of peak |n|, and for people. */
void WS_(write_breakdown)(WS_StackFile* sf, ULong n, const WS_Breakdown* b);
void WS_(show_breakdown)(struct _WS_File* f, const WS_Breakdown* b,
                         ULong total, const HChar* indent);

/* What ws_heap.c offers ws_owners.c and heap usage, and its
   --stats=yes lines. */

/* The heap block that held |a| when the sample of sequence number
   |sample| (WS_(sample_seq)) was taken: a live block then, or one freed
   by then whose pages may still be in a window.  True and |o| filled in
   (WS_OwnHeap or WS_OwnFreed), or False. */
Bool WS_(heap_owner_at)(Addr a, ULong sample, WS_Owner* o);

/* The first block that starts in [from, to) and was live at the sample
   |sample|, else the latest freed block made by then that overlaps
   [from, to): True and |o| filled in, or False. */
Bool WS_(heap_block_in)(Addr from, Addr to, ULong sample, WS_Owner* o);

/* The bytes of the live blocks, as the program asked for them. */
ULong WS_(heap_live_bytes)(void);

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
typedef enum { WS_KeyUsage, WS_KeyUseful, WS_KeyBytes, WS_KeyNever,
               WS_KeyScore } WS_HeapKey;
#define WS_HEAP_KEYS "usage useful bytes never score"
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
   ULong  touched;      /* bytes accessed while they lived, at the
                           run's resolution */
   ULong  usage_bytes;  /* ... of chunks both read and written (the
                           paper's Useless function), an upper bound
                           for chunks below the resolution */
   ULong  below;        /* chunks below the resolution: their figures
                           are bounds (ws_heapuse.c) */
   ULong  interval;     /* sum of (highest - lowest byte accessed + 1),
                           by default the bytes on accessed pages */
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
   ULong  growth;       /* runs of chunks of growing sizes */
   Double lifetime_score; /* the paper's (WS_(heapuse_sites) fills it) */
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

/* A chunk's record (--ws-heap-chunks), for its site's timeline: its
   allocation, its free (WS_NO_TIME: live at exit), its size, and for an
   accessed chunk its first and last access and the lowest and highest
   offset accessed (at the run's resolution: with pages, the chunk's
   first and last bytes on its first and last accessed page), with
   --ws-heap-usage=exact its reads and writes (accesses).  Unaccessed:
   first, last, lo and hi are WS_NO_TIME. */
#define WS_NO_TIME (~0ULL)
typedef struct {
   ULong alloc_t, free_t;
   ULong size;
   ULong first_t, last_t;
   ULong lo, hi;
   ULong reads, writes;
} WS_ChunkRec;
/* The records |site| keeps, |*n| of them in allocation order: of its
   chunks, those whose number (from 0, in allocation order) is a
   multiple of the smallest power of two that leaves at most
   --ws-heap-chunks; a forked child's, of the chunks it allocated. */
const WS_ChunkRec* WS_(heapuse_records)(ExeContext* site, UInt* n);

/* The bytes a site wastes by |key|, its rank: never touched (usage),
   idle (useful: bytes x (1 - useful)), allocated (bytes), in chunks
   never touched (never), bytes x (1 - score) (score: the paper's
   ranking). */
ULong WS_(heapuse_rank_value)(const WS_SiteSums* s, WS_HeapKey key);
/* Sorts |sites| worst first by |key| (ties: more bytes first, then by
   stack number, so that the order does not depend on addresses). */
void  WS_(heapuse_sort)(WS_SiteUse* sites, UInt n, WS_HeapKey key);
/* A fraction in thousandths, rounded: usage, and the mean useful
   lifetime. */
ULong WS_(heapuse_usage_milli)(const WS_SiteSums* s);
ULong WS_(heapuse_useful_milli)(const WS_SiteSums* s);
ULong WS_(heapuse_lifetime_milli)(const WS_SiteSums* s);
/* The geometric mean of the three above, the paper's score. */
ULong WS_(heapuse_score_milli)(const WS_SiteSums* s);
/* The geometric mean of |n| fractions from 0 to 1, in thousandths
   rounded half up (0 when one is 0). */
ULong WS_(geo_mean_milli)(const Double* f, UInt n);
/* The means of a site's times (0 when there is nothing to average). */
ULong WS_(heapuse_mean)(ULong sum, ULong n);

/*------------------------------------------------------------*/
/*--- Working-set misses (ws_misses.c)                     ---*/
/*------------------------------------------------------------*/

/* At start-up: opens the miss file, or exits with status 1 (also when
   it would be the output file, |out_name|), and registers for the
   misses. */
void WS_(misses_init)(const HChar* out_name);
/* At exit, or before an exec (|exec_path|, said in the profile); the
   name of the profile if it is complete, else NULL. */
const HChar* WS_(misses_write)(const HChar* exec_path);
/* The output file's miss-stack lines: the misses of each stack. */
void WS_(misses_trailer)(void);
/* Its name, NULL if this process writes none. */
const HChar* WS_(misses_name)(void);
/* Start-up refused: removes the miss file just made. */
void WS_(misses_abandon)(void);
void WS_(misses_after_fork)(void);
void WS_(misses_new_image)(void);

/*------------------------------------------------------------*/
/*--- Calls counted for the miss profile (ws_calls.c)      ---*/
/*------------------------------------------------------------*/

/* Counts the calls of each call site to each target from now on (an
   instrumentation pass); sets the counts to zero; gives each count
   (the call site as stacks give it, the return address less one; the
   address called). */
void WS_(calls_init)(void);
void WS_(calls_reset)(void);
void WS_(calls_each)(void (*f)(Addr site, Addr target, ULong count));
/* The entry of the function that holds |ip| and that the call whose
   last byte is at |site| entered: of the targets that call was seen to
   have (direct or through a pointer), the nearest at or below |ip|; 0
   when none is. */
Addr WS_(called_entry)(Addr site, Addr ip);
/* The GOT slot a PLT stub at |entry| jumps through, 0 if it is no
   stub; the function it jumps to now (|entry| if it is no stub). */
Addr WS_(plt_slot)(Addr entry);
Addr WS_(plt_target)(Addr entry);

/*------------------------------------------------------------*/
/*--- Regions (ws_regions.c)                               ---*/
/*------------------------------------------------------------*/

/* At start-up: registers for the samples, starts and stops. */
void  WS_(regions_init)(void);
/* A mark's label: the latest one names each region that closes after
   it. */
void  WS_(region_mark)(const HChar* label);
/* The latest mark's label (NULL: none yet): the name of the region
   that would close now. */
const HChar* WS_(region_label)(void);
/* In a forked child: only the open region, without the parent's
   samples. */
void  WS_(regions_after_fork)(void);
/* The trailer's "region" lines, and the regions' part of the summary
   on stderr. */
void  WS_(regions_trailer)(void);
void  WS_(regions_summary)(void);

/*------------------------------------------------------------*/
/*--- Locality curves (ws_curves.c)                        ---*/
/*------------------------------------------------------------*/

/* With --ws-curves=exact, the pass that sees every access, and the
   region events; with sampled, the core's slow paths observing every
   access while a window is open (WS_(observe_all)); both:
   the trailer's curve and mrc records; "ws curves" (one kind, pages or
   lines, of the run and the open region so far); a forked child's
   fresh start. */
void WS_(curves_init)(void);
void WS_(curves_trailer)(void);
void WS_(curves_monitor)(WS_Kind kind, Bool lines);
void WS_(curves_after_fork)(void);

/* --ws-curves=sampled's long taus, from ws's epochs
   (ws_curves_epochs.c): its listeners, set up at start-up; a forked
   child's fresh start; the pages' curve of |kind| over the run so far
   at tau = 2^j for every j < 64: s in units, m in misses per
   instruction, the estimate and its bounds.  |sure|: all three hold
   (tau at or above the longest epoch, or the run); else only s_hi and
   m_lo are bounds (and s, m mean nothing). */
typedef struct {
   double s, s_lo, s_hi;
   double m, m_lo, m_hi;
   Bool   sure;
} WS_EpochPoint;
void WS_(epochs_init)(void);
void WS_(epochs_after_fork)(void);
void WS_(epochs_curve)(WS_Kind kind, WS_EpochPoint pts[64]);

/*------------------------------------------------------------*/
/*--- Per-routine footprint (ws_routines.c,                ---*/
/*--- ws_routines_ir.c)                                    ---*/
/*------------------------------------------------------------*/

/* With --ws-routines=yes: registers the IR hook and the events it
   needs; the trailer's routine records (pending activations close
   first); "ws routines <n>"; a forked child's fresh start; for
   --stats=yes, how often its slow paths ran. */
void WS_(routines_init)(void);
void WS_(routines_trailer)(void);
void WS_(routines_monitor)(ULong top);
void WS_(routines_after_fork)(ThreadId tid);
void WS_(routines_print_stats)(void);

/* Lines are 64 bytes; the line table has two levels, a chunk of
   2^WS_RT_CHUNK_BITS 4-byte entries (1 GiB of memory) per first-level
   slot. */
#define WS_RT_LINE_SHIFT   6
#define WS_RT_CHUNK_BITS   24
#define WS_RT_L1_ENTRIES   (1u << (WS_ADDR_BITS - WS_RT_LINE_SHIFT \
                                   - WS_RT_CHUNK_BITS))
extern UInt* WS_(rt_lines)[WS_RT_L1_ENTRIES];
/* Sizes below this have a row each; the fit needs this many sizes; a
   routine is called out (ranked by growth) when its sizes span this
   factor (an exponent over sizes from 30 to 40 says little), its fit's
   r2, as the file writes it, is at least this many thousandths (an
   exponent that explains half the scatter says little either) and its
   cost is at least 1/WS_RT_RANK_SHARE of the costliest routine's (a
   steep start-up routine of a few thousand instructions matters
   less than a program's main work); a routine called out is flagged
   with an exponent of 1.2 or more over this many sizes. */
#define WS_RT_SIZE_EXACT     256
#define WS_RT_FIT_MIN        3
#define WS_RT_RANK_SPAN      4
#define WS_RT_RANK_R2_MILLI  800
#define WS_RT_RANK_SHARE     100
#define WS_RT_FLAG_SIZES     5

/* The running thread's words in its shadow area (after the core's):
   the top frame's stack pointer, the thresholds of reads and writes
   and the stamps they store, each << 1 as the entries hold them. */
#define WS_SHADOW_RT_TOPSP        (WS_SHADOW_ANALYSES + 0)    /* ULong */
#define WS_SHADOW_RT_READ_THR     (WS_SHADOW_ANALYSES + 8)    /* UInt */
#define WS_SHADOW_RT_WRITE_THR    (WS_SHADOW_ANALYSES + 12)
#define WS_SHADOW_RT_READ_STAMP   (WS_SHADOW_ANALYSES + 16)
#define WS_SHADOW_RT_WRITE_STAMP  (WS_SHADOW_ANALYSES + 20)
#define WS_SHADOW_RT_BYTES        24

/* What the IR calls: an access's helper (the first line's entry as it
   was, the access's size), a call's (to the target, or to the routine
   when the target is constant) and the returns'. */
void WS_(rt_read)(Addr a, UWord e, UWord size);
void WS_(rt_write)(Addr a, UWord e, UWord size);
void WS_(rt_modify)(Addr a, UWord e, UWord size);
void WS_(rt_call)(void* gs, Addr target, Addr sp);
void WS_(rt_call_to)(void* gs, void* routine, Addr sp);
/* The routine whose entry is |entry| (made if new), for a call whose
   target the translation knows. */
void* WS_(rt_routine_at)(Addr entry);
void WS_(rt_pop)(void* gs, Addr sp);
void WS_(routines_set_shadow_base)(Int base);
void WS_(routines_instrument_init)(void);

#endif /* __WS_ANALYSES_H */

/*--------------------------------------------------------------------*/
/*--- end                                            ws_analyses.h ---*/
/*--------------------------------------------------------------------*/

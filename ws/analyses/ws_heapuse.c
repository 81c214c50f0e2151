/*--------------------------------------------------------------------*/
/*--- ws: how the program uses its heap chunks.     ws_heapuse.c ---*/
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

/* Owns the usage of every heap chunk from its allocation to its free
   (--ws-heap-usage=yes): when it was first and last accessed, which of
   its pages, whether it was read, written, and by more than one thread;
   and the sums of that per allocation site (the Memoro paper's
   questions).  ws_heap.c tells it when chunks come and go;
   ws_heapsites.c writes what it found.

   Resolution.  Which bytes of a chunk the program accessed is known
   to a unit: the cache line (--ws-linesize) when lines are smaller
   than pages, else the page.  A unit wholly inside the chunk (one of
   its own) counts when the program touched it while the chunk lived:
   the core tells of the lines it touched on heap pages (WS_Watch's
   lines), and for units the size of a page the first access after the
   allocation traps.  A unit the chunk shares at an end (its first or
   last, when partial: neighbours' and the allocator's accesses land
   there) counts only when an access with its exact address hit the
   chunk's bytes in it.  Whether the chunk was read and written is
   heard the same way.  Those are found by trapping: while something on
   a page waits to hear of a kind of access, the data TLB (ws_core.h)
   keeps that kind out of the page, so that each such access reaches
   the helper, which tells this file its address; what hits a waiting
   chunk's bytes is heard, and the page lets the kind through once
   nothing on it waits for it.  Accesses that tell nobody anything
   (a neighbour's, heard already) are the cost: a page gives up after
   FUTILE_PER_WAIT of them per thing still waiting on it, and the
   chunks that waited there are below the resolution: their figures
   are bounds (their shared units counted whole, both kinds assumed),
   counted as such, never guesses.  A chunk that still waits when it
   ends, on pages that did not give up, was not accessed so: certain.
   The first access is the first heard; the last is known to the
   epoch, from the stamps of the pages it touched, and told as the end
   of that epoch.

   The allocator's own accesses (inside malloc, free, new, delete:
   ws_heap.c knows) are not the program's use of a chunk: they are not
   heard, and when the allocator is the first to access a page in an
   epoch the page keeps the program's stamp aside and stays out of the
   TLB until the program's next access.  A chunk's use ends when it is
   freed, or when realloc is entered with it (its copy reads it).

   Per page, only what the chunks on it need: flags in a byte table the
   helper reads inline (the kinds kept out), and a record of what waits
   on it, the units touched since they were last some chunk's own, the
   program's stamp while the allocator's access stands, and, once
   several threads run, the thread of the latest accesses and the order
   of the last change of thread.  A chunk's own record keeps its
   allocation, its first access, the kinds and shared units heard; at
   its end the pages it lay on say the rest. */

#include "pub_tool_basics.h"
#include "pub_tool_hashtable.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_poolalloc.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_xarray.h"

#include "ws_analyses.h"

/*------------------------------------------------------------*/
/*--- Chunks, pages and sites                              ---*/
/*------------------------------------------------------------*/

/* Kinds of access heard, as WS_AccessKind bits. */
#define HEARD     4u     /* some access */
#define BOTH      (WS_Read | WS_Write)

/* A chunk's shared units (Resolution, above): waiting to hear of an
   access to its bytes there, or heard. */
#define FIRST_WAITS  1u
#define LAST_WAITS   2u
#define FIRST_HEARD  4u
#define LAST_HEARD   8u
#define FIRST_LOST   16u  /* its page gave up waiting */
#define LAST_LOST    32u
#define FIRST_SHARED (FIRST_WAITS | FIRST_HEARD | FIRST_LOST)
#define LAST_SHARED  (LAST_WAITS | LAST_HEARD | LAST_LOST)

/* What a chunk lost when a page gave up waiting for it. */
#define LOST_KINDS   1u   /* a kind of access it waited for */
#define LOST_ENDS    2u   /* an access to a shared unit */

/* Traps that tell nothing a page bears per thing that began to wait
   on it before it gives up: so a chunk costs at most that many helper
   calls per kind and shared unit.  16 is enough for
   tests/progs/heap_oneway (a chunk only written waits for a read while
   its neighbours' 32 words each are read, and one only read for a
   write while theirs are written). */
#define FUTILE_PER_WAIT 16

/* A page's flags: the watch's mark of the page (WS_(watch_mark); what
   the bits mean is in ws_analyses.h). */

typedef struct SiteRec SiteRec;

struct WS_ChunkUse {
   Addr         start;
   SizeT        size;
   SiteRec*     site;
   ULong        seq;        /* its allocation, in the order of |seq| */
   ULong        index;      /* its number at its site, from 0 */
   ULong        alloc_t;
   ULong        first_t;    /* its first access, once HEARD */
   UInt         heard;      /* HEARD | WS_Read | WS_Write */
   UChar        ends;       /* FIRST_WAITS ... LAST_LOST */
   UChar        wants;      /* the kinds it waits to hear of */
   UChar        lost;       /* LOST_KINDS | LOST_ENDS */
   Bool         waiting;    /* for a kind or a shared unit */
   struct Outcome* gone;    /* its use, once realloc was entered */
   /* --ws-heap-usage=exact: */
   UChar*       seen;       /* a bit per byte accessed, once one is */
   SizeT        lo, hi;     /* the lowest and highest offset accessed */
   ULong        reads;      /* accesses that read it, wrote it */
   ULong        writes;
   ULong        last_t;     /* its last access */
   ThreadId     tid;        /* the thread of its latest access */
   Bool         multi;      /* accessed by more than one thread */
   struct Group* group;     /* its lifetime group (below) */
};

/* What the chunks on a heap page need to know of it beyond its flags
   and its stamp (the epoch of its latest access, ws_clock.c). */
typedef struct {
   UInt         want_r;     /* chunks on it that wait for a read, */
   UInt         want_w;     /* a write */
   UInt         want_any;   /* shared units and own pages (units the
                               size of a page) waiting for an access */
   ULong        ends;       /* while |want_any|: the units of shared
                               ends that may wait (bit u % 64) */
   UInt         armed;      /* things that began to wait on it since
                               it last waited for nothing */
   UInt         futile_r;   /* reads and writes trapped since then */
   UInt         futile_w;   /* that told nothing */
   Bool         own_waits;  /* it is a chunk's own page, not heard */
   ULong        own;        /* lines inline: its live chunks' own lines
                               (the core tells of its lines while some
                               of them are not touched) */
   ULong        heard_seq;  /* the latest access heard while one
                               thread ran */
   /* Once a second thread has run: */
   ULong        seq;        /* the latest accesses noted */
   ULong        switch_seq; /* the note before the latest change of
                               thread */
   ThreadId     tid;        /* the thread of the latest note */
   Stamp        program;    /* with WS_HEAP_ALLOC: the page's stamp
                               before the allocator's access, that of
                               the program's latest */
   ULong        units[];    /* a bit per unit touched since it was last
                               made some chunk's own */
} PageUse;

/* The paper's lifetime score groups a site's chunks in allocation
   order: a chunk allocated at most 0.1 % of the run after the previous
   one joins its group.  The run's length is known at the end only, but
   it only grows: a chunk joins the last group when the gap is at most
   0.1 % of the time now, and groups are joined again, by the final
   length, when the score is worked out (lifetime_score).  Per group,
   the sums its score needs.  A chunk allocated after a gap of more
   than 0.1 % of the time so far begins a group: a site has fewer than
   1,000 such gaps per doubling of the run. */
typedef struct Group Group;
struct Group {
   Group* next;             /* the site's next group, later */
   ULong  first_alloc;
   ULong  last_alloc;
   ULong  last_end;         /* the latest end of its ended chunks */
   ULong  chunks;
   ULong  life;             /* sum of its ended chunks' lifetimes */
   ULong  live;             /* chunks not ended, and the sum of their */
   ULong  live_alloc;       /* allocation times */
};

struct SiteRec {
   SiteRec*    next;        /* VgHashNode: next, key */
   UWord       key;         /* the ExeContext */
   WS_SiteSums sums;
   UInt        index;       /* in the array WS_(heapuse_sites) fills */
   Group*      groups;      /* its lifetime groups, in allocation order */
   Group*      last_group;
   ULong       last_size;   /* the size of its latest chunk, and how */
   ULong       growing;     /* many chunks to it grew in size */
   /* Its chunk records (--ws-heap-chunks): of the chunks numbered
      rec_from + k (k from 0), those whose k is a multiple of stride,
      record k / stride in |recs|. */
   ULong       allocs;      /* chunks allocated, a forked child's too */
   ULong       rec_from;    /* the first chunk recorded */
   ULong       stride;
   XArray*     recs;        /* of WS_ChunkRec, or NULL */
};

/* Orders allocations and accesses: an access belongs to a chunk's life
   when it comes after its allocation.  (Times cannot: in ms units many
   share a value, and within a superblock the clock stands still.) */
static ULong        seq = 0;
static PoolAlloc*   chunk_pool;
static WS_PageTable pages;        /* a PageUse per heap page */
static VgHashTable* sites;

/* When each epoch began, indexed by stamp: a chunk's last access is
   known to the epoch (its pages' stamps), and told as that epoch's
   end.  8 bytes per epoch, at most two epochs per sample. */
static ULong*       epoch_start;
static UInt         epoch_cap;

/* Threads.  The thread whose accesses the TLB's counts hold (it is
   emptied when another starts running), and the one that ran before a
   second did: until then nothing is noted per thread. */
static ThreadId     counted_tid = VG_INVALID_THREADID;
static ThreadId     first_tid = VG_INVALID_THREADID;
static Bool         several_threads = False;

static struct {
   ULong arms;          /* pages made to trap at an allocation */
   ULong heard;         /* accesses a waiting chunk heard of */
   ULong allocator;     /* the allocator's, which chunks do not hear */
   ULong flushes;       /* TLB emptied for another thread */
   ULong given_up;      /* pages that gave up waiting */
} stats;

/* The flags of a page that has held a chunk, or NULL. */
static inline UChar* heap_flags(Addr page)
{
   UChar* f = WS_(watch_mark)(page);
   return f != NULL && (*f & WS_HEAP_PAGE) ? f : NULL;
}

/* The PageUse of a page, made if it is not there yet. */
static PageUse* page_use(Addr page)
{
   return WS_(pt_record)(&pages, page);
}

static SiteRec* site_rec(ExeContext* ec)
{
   SiteRec* s = VG_(HT_lookup)(sites, (UWord)ec);
   if (s == NULL) {
      s = VG_(calloc)("ws.heapuse.site", 1, sizeof *s);
      s->key = (UWord)ec;
      s->stride = 1;
      VG_(HT_add_node)(sites, s);
   }
   return s;
}

static Addr first_page(const WS_ChunkUse* c)
{
   return c->start >> WS_(page_shift)();
}

/* The last page of a chunk of at least one byte. */
static Addr last_page(const WS_ChunkUse* c)
{
   return (c->start + c->size - 1) >> WS_(page_shift)();
}

/*------------------------------------------------------------*/
/*--- What the TLB is told, and tells                      ---*/
/*------------------------------------------------------------*/

/* Accesses to |p| by |tid|, once several threads run (every access
   heard or settled since is noted).  A page not noted yet was accessed,
   if at all, by the first thread alone. */
static void note_thread(PageUse* p, ThreadId tid)
{
   ThreadId prev = p->tid;
   ULong    prev_seq = p->seq;
   if (prev == VG_INVALID_THREADID && p->heard_seq > 0) {
      prev = first_tid;
      prev_seq = p->heard_seq;
   }
   if (prev != tid && prev != VG_INVALID_THREADID)
      p->switch_seq = prev_seq;
   p->tid = tid;
   p->seq = ++seq;
}

/* Once several threads have run: the accesses the TLB let through on
   a page are noted as |counted_tid|'s when they leave its entry. */
static void settled(Addr page)
{
   if (heap_flags(page) != NULL)
      note_thread(page_use(page), counted_tid);
}

static void thread_runs(const WS_Event* ev)
{
   ThreadId tid = ev->tid;
   if (tid == counted_tid)
      return;
   /* The counts in the TLB are the last thread's; and the next
      thread's first access to each page must be seen. */
   if (counted_tid != VG_INVALID_THREADID) {
      if (!several_threads) {
         first_tid = counted_tid;
         WS_(watch_settling)(settled);
      }
      several_threads = True;
      if (WS_(measuring)) {
         WS_(dtlb_flush)();
         stats.flushes++;
      }
   }
   counted_tid = tid;
}

static void new_epoch(Stamp s, ULong t)
{
   if (s >= epoch_cap) {
      UInt cap = epoch_cap * 2;
      while (s >= cap)
         cap *= 2;
      epoch_start = VG_(realloc)("ws.heapuse.epochs", epoch_start,
                                 cap * sizeof(ULong));
      epoch_cap = cap;
   }
   epoch_start[s] = t;
}

/* When the epoch of stamp |s| ended (an upper bound of an access in
   it), or |now| if it has not. */
static ULong epoch_end(Stamp s, ULong now)
{
   return s < WS_(cur_stamp) && epoch_start[s + 1] < now
          ? epoch_start[s + 1] : now;
}

/*------------------------------------------------------------*/
/*--- Units, and what waits to hear of them                ---*/
/*------------------------------------------------------------*/

static UInt unit_shift(void)
{
   return WS_(lines_apart)() ? WS_(line_shift)() : WS_(page_shift)();
}

/* log2 of the units in a page */
static UInt upp_shift(void)
{
   return WS_(page_shift)() - unit_shift();
}

static Addr first_unit(const WS_ChunkUse* c)
{
   return c->start >> unit_shift();
}

static Addr last_unit(const WS_ChunkUse* c)
{
   return (c->start + c->size - 1) >> unit_shift();
}

/* Whether unit |u| lies wholly inside |c|. */
static Bool own_unit(const WS_ChunkUse* c, Addr u)
{
   UInt us = unit_shift();
   return (u << us) >= c->start && ((u + 1) << us) <= c->start + c->size;
}

/* The units of |c| on |page| that are its own, as indices in the page
   (|*i0| > |*i1|: none). */
static void own_units_on(const WS_ChunkUse* c, Addr page, Int* i0, Int* i1)
{
   UInt  ups = upp_shift();
   Addr  first = first_unit(c) + (c->ends & FIRST_SHARED ? 1 : 0);
   Addr  last = last_unit(c) - (c->ends & LAST_SHARED ? 1 : 0);
   Addr  base = page << ups;
   if (first < base)
      first = base;
   if (last > base + (1u << ups) - 1)
      last = base + (1u << ups) - 1;
   *i0 = (Int)(first - base);
   *i1 = last < first ? *i0 - 1 : (Int)(last - base);
}

/* The units |i0| to |i1| of a page's bits, set or cleared. */
static void mark_units(ULong* w, UInt i0, UInt i1, Bool on)
{
   UInt i = i0;
   while (i <= i1) {
      if ((i & 63) == 0 && i + 63 <= i1) {
         w[i >> 6] = on ? ~0ULL : 0;
         i += 64;
         continue;
      }
      if (on)
         w[i >> 6] |= 1ULL << (i & 63);
      else
         w[i >> 6] &= ~(1ULL << (i & 63));
      i++;
   }
}

/* The page keeps out the kinds something on it waits for. */
static void set_traps(Addr page, PageUse* p)
{
   UChar* f = heap_flags(page);
   UInt   w = 0;
   if (p->want_r + p->want_any > 0)
      w |= WS_Read;
   if (p->want_w + p->want_any > 0)
      w |= WS_Write;
   if (!(w & WS_Read))
      p->futile_r = 0;
   if (!(w & WS_Write))
      p->futile_w = 0;
   if (w == 0)
      p->armed = 0;
   if (p->want_any == 0)
      p->ends = 0;
   if ((*f & BOTH) != w) {
      *f = (UChar)((*f & ~BOTH) | w);
      WS_(dtlb_refresh_page)(page);
   }
}

/* |c|'s pages wait for |kinds| (|by| 1), or no more (-1). */
static void want_kinds(const WS_ChunkUse* c, UInt kinds, Int by)
{
   Addr page;
   for (page = first_page(c); page <= last_page(c); page++) {
      PageUse* p = page_use(page);
      if (kinds & WS_Read)
         p->want_r += by;
      if (kinds & WS_Write)
         p->want_w += by;
      set_traps(page, p);
   }
}

/* A shared unit |u| waits for an access (|by| 1), or no more (-1). */
static void want_unit(Addr u, Int by)
{
   Addr page = u >> upp_shift();
   PageUse* p = page_use(page);
   p->want_any += by;
   set_traps(page, p);
}

/* |c| waits for nothing more: heard all, ended, or given up on. */
static void stop_waiting(WS_ChunkUse* c)
{
   Addr page;
   if (!c->waiting)
      return;
   c->waiting = False;
   if (c->wants != 0)
      want_kinds(c, c->wants, -1);
   c->wants = 0;
   if (c->ends & FIRST_WAITS)
      want_unit(first_unit(c), -1);
   if (c->ends & LAST_WAITS)
      want_unit(last_unit(c), -1);
   if (WS_(lines_apart)())
      return;
   /* its own pages (units the size of a page) that were not heard */
   for (page = first_page(c); page <= last_page(c); page++) {
      PageUse* p = page_use(page);
      if (own_unit(c, page) && p->own_waits) {
         p->own_waits = False;
         p->want_any--;
         set_traps(page, p);
      }
   }
}

/* The bits of the units |i0| to |i1| of a page of at most 64. */
static ULong unit_mask(Int i0, Int i1)
{
   return i1 < i0 ? 0 : i1 - i0 == 63 ? ~0ULL
        : ((1ULL << (i1 - i0 + 1)) - 1) << i0;
}

/* The units |i0| to |i1| of a page as bits u % 64. */
static ULong folded_units(UInt i0, UInt i1)
{
   ULong m = 0;
   if (i1 - i0 >= 63)
      return ~0ULL;
   for (; i0 <= i1; i0++)
      m |= 1ULL << (i0 & 63);
   return m;
}

/* Lines inline: the core tells of the lines touched on a page while
   its live chunks' own lines are not all touched (the cost is a lookup
   per settle of the page's entry); with more lines a page, always. */
static void tell_lines(Addr page, const PageUse* p)
{
   UChar* f = heap_flags(page);
   if (!WS_(lines_inline)())
      *f |= WS_HEAP_LINES;
   else if ((p->units[0] & p->own) == p->own)
      *f &= ~WS_HEAP_LINES;
   else
      *f |= WS_HEAP_LINES;
}

/* |c|'s own lines need telling no more. */
static void forget_own(const WS_ChunkUse* c)
{
   Addr page;
   Int  i0, i1;
   if (!WS_(lines_inline)() || c->size == 0)
      return;
   for (page = first_page(c); page <= last_page(c); page++) {
      own_units_on(c, page, &i0, &i1);
      page_use(page)->own &= ~unit_mask(i0, i1);
   }
}

#define NO_TIME (~0ULL)

typedef struct {
   Addr          a;
   SizeT         size;
   WS_AccessKind kind;
   ULong         t;         /* NO_TIME until needed */
   ThreadId      tid;       /* the kernel's accesses: for whom */
   Addr          from, to;  /* the part on the page at hand */
   Bool          told;      /* it told something that waited */
} Access;

/* An access of the program hits |c| (if its part on the page does). */
static void hear_chunk(WS_ChunkUse* c, void* opaque)
{
   Access* a = opaque;
   Addr from = a->from > c->start ? a->from : c->start;
   Addr end = c->start + c->size, to = a->to < end ? a->to : end;
   UInt us = unit_shift(), news;
   if (from >= to || !c->waiting)
      return;
   if (a->t == NO_TIME)
      a->t = WS_(now)();
   if (!(c->heard & HEARD)) {
      c->heard |= HEARD;
      c->first_t = a->t;
      a->told = True;
   }
   c->heard |= a->kind;
   news = a->kind & c->wants;
   if (news != 0) {
      c->wants &= ~news;
      want_kinds(c, news, -1);
      a->told = True;
   }
   if ((c->ends & FIRST_WAITS) && (from >> us) == first_unit(c)) {
      c->ends ^= FIRST_WAITS | FIRST_HEARD;
      want_unit(first_unit(c), -1);
      a->told = True;
   }
   if ((c->ends & LAST_WAITS) && ((to - 1) >> us) == last_unit(c)) {
      c->ends ^= LAST_WAITS | LAST_HEARD;
      want_unit(last_unit(c), -1);
      a->told = True;
   }
   stats.heard++;
   if (c->wants == 0 && !(c->ends & (FIRST_WAITS | LAST_WAITS)))
      c->waiting = False;
}

typedef struct {
   Addr page;
   UInt kind;               /* the kind the page gives up waiting for */
} GiveUp;

/* A shared unit of |c| on the page at hand waits no more: lost. */
static void lose_end(WS_ChunkUse* c, const GiveUp* g, Addr u, UInt waits,
                     UInt lost)
{
   if (!(c->ends & waits) || u >> upp_shift() != g->page)
      return;
   c->ends ^= waits | lost;
   c->lost |= LOST_ENDS;
   want_unit(u, -1);
}

/* A page gives up waiting for a kind of access: |c| stops waiting for
   what needs that kind kept out of the page (the kind, its shared
   units there), and that much of its facts are bounds. */
static void give_up_on(WS_ChunkUse* c, void* opaque)
{
   const GiveUp* g = opaque;
   if (!c->waiting)
      return;
   if (c->wants & g->kind) {
      c->wants &= ~g->kind;
      c->lost |= LOST_KINDS;
      want_kinds(c, g->kind, -1);
   }
   lose_end(c, g, first_unit(c), FIRST_WAITS, FIRST_LOST);
   lose_end(c, g, last_unit(c), LAST_WAITS, LAST_LOST);
   if (c->wants == 0 && !(c->ends & (FIRST_WAITS | LAST_WAITS)))
      c->waiting = False;
}

static void give_up(Addr page, UInt kind)
{
   Addr   base = page << WS_(page_shift)();
   GiveUp g = { page, kind };
   stats.given_up++;
   WS_(heap_for_blocks_in)(base, base + WS_(page_size)(), give_up_on, &g);
}

/* The pages of [a, a+size), for |fn|. */
static void for_pages(Addr a, SizeT size,
                      void (*fn)(Addr page, void* opaque), void* opaque)
{
   Addr page, last;
   if (size == 0)
      return;
   last = (a + size - 1) >> WS_(page_shift)();
   if (last < (a >> WS_(page_shift)()))   /* wraps the address space */
      last = ~(Addr)0 >> WS_(page_shift)();
   for (page = a >> WS_(page_shift)(); ; page++) {
      fn(page, opaque);
      if (page == last)
         break;
   }
}

/* The stamp of |page| in the data table: the epoch of its latest
   access (0: none). */
static Stamp data_stamp(Addr page)
{
   const Stamp* s = WS_(pt_record_if_any)(&WS_(tables)[WS_Data], page);
   return s == NULL ? WS_STAMP_NEVER : *s & WS_STAMP_MASK;
}

/* The allocator's own accesses (its headers next to a chunk, a freed
   chunk's links) are not the program's use of a chunk: the kinds a
   page keeps out stay kept out for the program's.  Nor are they a
   last access: when the allocator is the first to access a page in an
   epoch, the page keeps the program's latest epoch aside and stays out
   of the TLB until the program accesses it. */
static void allocator_access(Addr page, UChar* f)
{
   Stamp s = data_stamp(page);
   stats.allocator++;
   if (*f & WS_HEAP_ALLOC || s == WS_(cur_stamp))
      return;
   page_use(page)->program = s;
   *f |= WS_HEAP_ALLOC;
}

/* The helper's, before the page's stamp changes (what the TLB lets
   through after it is noted by the page's stamp, and when its entry is
   settled: settled, above), and the kernel's: the units touched, and
   what waited for it hears. */
static void access_page(Addr page, void* opaque)
{
   Access*  a = opaque;
   UChar*   f = heap_flags(page);
   Addr     base = page << WS_(page_shift)();
   UInt     us = unit_shift(), trapped, i0, i1;
   PageUse* p;
   if (f == NULL)
      return;
   if (WS_(heap_in_allocator)(a->tid)) {
      allocator_access(page, f);
      return;
   }
   trapped = *f & a->kind & BOTH;
   *f &= ~WS_HEAP_ALLOC;
   p = page_use(page);
   /* before a second thread runs, every access is the first's */
   if (several_threads)
      note_thread(p, a->tid);
   else
      p->heard_seq = ++seq;
   a->from = a->a > base ? a->a : base;
   a->to = a->a + a->size - base < WS_(page_size)() ? a->a + a->size
                                                    : base + WS_(page_size)();
   i0 = (UInt)((a->from - base) >> us);
   i1 = (UInt)((a->to - 1 - base) >> us);
   mark_units(p->units, i0, i1, True);
   if (WS_(lines_apart)())
      tell_lines(page, p);
   a->told = False;
   if (p->own_waits) {
      p->own_waits = False;
      p->want_any--;
      a->told = True;
   }
   /* what it may tell: a kind a chunk waits for, or an access to a
      shared unit that waits */
   if (((a->kind & WS_Read) && p->want_r > 0)
       || ((a->kind & WS_Write) && p->want_w > 0)
       || (p->want_any > 0 && (p->ends & folded_units(i0, i1))))
      WS_(heap_for_blocks_in)(a->from, a->to, hear_chunk, a);
   if ((trapped & WS_Read) && !a->told
       && ++p->futile_r > FUTILE_PER_WAIT * p->armed)
      give_up(page, WS_Read);
   if ((trapped & WS_Write) && !a->told
       && ++p->futile_w > FUTILE_PER_WAIT * p->armed)
      give_up(page, WS_Write);
   set_traps(page, p);
}

static void exact_access(Addr a, SizeT size, WS_AccessKind kind,
                         ULong t, ThreadId tid);

static void access(Addr a, SizeT size, WS_AccessKind kind)
{
   Access acc = { a, size, kind, NO_TIME, counted_tid, 0, 0, False };
   if (WS_(clo).heap_exact)
      exact_access(a, size, kind, WS_(now)(), counted_tid);
   else
      for_pages(a, size, access_page, &acc);
}

static void kernel_access(Addr a, SizeT size, WS_AccessKind kind,
                          ThreadId tid)
{
   Access acc = { a, size, kind, WS_(now)(), tid, 0, 0, False };
   if (WS_(clo).heap_exact)
      exact_access(a, size, kind, acc.t, tid);
   else
      for_pages(a, size, access_page, &acc);
}

/* The lines the IR flagged on a heap page, as its entry is settled. */
static void lines_settled(Addr page, ULong lines)
{
   PageUse* p = WS_(pt_record_if_any)(&pages, page);
   if (p != NULL) {
      p->units[0] |= lines;
      tell_lines(page, p);
   }
}

/*------------------------------------------------------------*/
/*--- Each access (--ws-heap-usage=exact)                  ---*/
/*------------------------------------------------------------*/

/* With --ws-heap-usage=exact the pages of live chunks trap every
   access, so that each access the program makes reaches the helper
   and is attributed, by its address, to the chunks whose bytes it
   covers: which bytes, how often read and written, when first and
   last.  The cost is a helper call per access to the heap (DHAT's
   work); docs/manual.md states it. */

typedef struct {
   Addr          a;
   SizeT         size;
   WS_AccessKind kind;
   ULong         t;
   ThreadId      tid;
} Exact;

static void exact_hit(WS_ChunkUse* c, void* opaque)
{
   const Exact* x = opaque;
   Addr  from = x->a > c->start ? x->a : c->start;
   Addr  to = x->a + x->size < c->start + c->size ? x->a + x->size
                                                  : c->start + c->size;
   SizeT o;
   if (from >= to)
      return;
   if (c->seen == NULL)
      c->seen = VG_(calloc)("ws.heapuse.seen", (c->size + 7) / 8, 1);
   for (o = from - c->start; o < to - c->start; o++)
      c->seen[o >> 3] |= (UChar)(1u << (o & 7));
   if (!(c->heard & HEARD)) {
      c->heard |= HEARD;
      c->first_t = x->t;
      c->lo = from - c->start;
      c->hi = to - 1 - c->start;
      c->tid = x->tid;
   }
   if (from - c->start < c->lo)
      c->lo = from - c->start;
   if (to - 1 - c->start > c->hi)
      c->hi = to - 1 - c->start;
   c->heard |= x->kind;
   if (x->kind & WS_Read)
      c->reads++;
   if (x->kind & WS_Write)
      c->writes++;
   c->last_t = x->t;
   if (x->tid != c->tid)
      c->multi = True;
   c->tid = x->tid;
}

static void exact_access(Addr a, SizeT size, WS_AccessKind kind,
                         ULong t, ThreadId tid)
{
   Exact x = { a, size, kind, t, tid };
   if (size == 0 || WS_(heap_in_allocator)(tid))
      return;
   WS_(heap_for_blocks_in)(a, a + size, exact_hit, &x);
}

/* The pages of |c| trap every access while it lives. */
static void exact_arm(const WS_ChunkUse* c)
{
   Addr page;
   for (page = first_page(c); page <= last_page(c); page++) {
      UChar* f = WS_(pt_record)(&WS_(watch_marks), page);
      *f |= WS_HEAP_PAGE | BOTH;
      WS_(dtlb_refresh_page)(page);
      stats.arms++;
   }
}

static void count_other(WS_ChunkUse* use, void* opaque)
{
   Addr* others = opaque;
   others[1] += use != (WS_ChunkUse*)others[0];
}

/* |c| ends: its pages that hold no other live chunk trap no more. */
static void exact_disarm(const WS_ChunkUse* c)
{
   Addr page, shift = WS_(page_shift)();
   for (page = first_page(c); page <= last_page(c); page++) {
      UChar* f = heap_flags(page);
      Addr others[2] = { (Addr)c, 0 };
      if (f == NULL)
         continue;
      if (page == first_page(c) || page == last_page(c))
         WS_(heap_for_blocks_in)(page << shift, (page + 1) << shift,
                                 count_other, others);
      if (others[1] == 0) {
         *f &= ~BOTH;
         WS_(dtlb_refresh_page)(page);
      }
   }
}

/* The bytes of |c| accessed. */
static ULong exact_touched(const WS_ChunkUse* c)
{
   ULong n = 0;
   SizeT i;
   if (c->seen == NULL)
      return 0;
   for (i = 0; i < (c->size + 7) / 8; i++) {
      UInt b = c->seen[i];
      while (b != 0) {
         n++;
         b &= b - 1;
      }
   }
   return n;
}

/*------------------------------------------------------------*/
/*--- A chunk's life                                       ---*/
/*------------------------------------------------------------*/

/* |c|'s shared unit |u| waits for an access. */
static void wait_end(WS_ChunkUse* c, Addr u, UInt waits)
{
   PageUse* p = page_use(u >> upp_shift());
   c->ends |= waits;
   p->want_any++;
   p->armed++;
   p->ends |= 1ULL << ((u & (((Addr)1 << upp_shift()) - 1)) & 63);
}

/* |c| waits to hear of both kinds of access and of accesses to its
   shared units; its own units are not touched yet. */
static void arm(WS_ChunkUse* c)
{
   Addr page, first = first_page(c), last = last_page(c);
   Addr fu = first_unit(c), lu = last_unit(c);
   c->waiting = True;
   c->wants = BOTH;
   c->ends = 0;
   if (!own_unit(c, fu))
      wait_end(c, fu, FIRST_WAITS);
   if (lu != fu && !own_unit(c, lu))
      wait_end(c, lu, LAST_WAITS);
   for (page = first; page <= last; page++) {
      UChar*   f = WS_(pt_record)(&WS_(watch_marks), page);
      PageUse* p = page_use(page);
      Int      i0, i1;
      *f |= WS_HEAP_PAGE;
      own_units_on(c, page, &i0, &i1);
      if (i0 <= i1) {
         mark_units(p->units, (UInt)i0, (UInt)i1, False);
         if (WS_(lines_inline)())
            p->own |= unit_mask(i0, i1);
         if (WS_(lines_apart)())
            tell_lines(page, p);
         else {
            p->own_waits = True;
            p->want_any++;
            p->armed++;
         }
      }
      p->want_r++;
      p->want_w++;
      p->armed += 2;
      set_traps(page, p);
      stats.arms++;
   }
}

/* |c|, just allocated, joins its site's last group or begins one. */
static void join_group(WS_ChunkUse* c)
{
   SiteRec* site = c->site;
   Group* g = site->last_group;
   if (g == NULL || (c->alloc_t - g->last_alloc) * 1000 > WS_(now)()) {
      g = VG_(calloc)("ws.heapuse.group", 1, sizeof *g);
      g->first_alloc = c->alloc_t;
      if (site->last_group != NULL)
         site->last_group->next = g;
      else
         site->groups = g;
      site->last_group = g;
   }
   g->last_alloc = c->alloc_t;
   g->chunks++;
   g->live++;
   g->live_alloc += c->alloc_t;
   c->group = g;
}

/* The paper's growth: runs of GROWTH_RUN or more consecutive chunks of
   a site whose sizes grow (a container regrown without reserve). */
#define GROWTH_RUN 3

static void grow(SiteRec* site, SizeT size)
{
   site->growing = site->sums.chunks > 0 && size > site->last_size
                   ? site->growing + 1 : 1;
   if (site->growing == GROWTH_RUN)
      site->sums.growth++;
   site->last_size = size;
}

/* The site's lifetime score at |now| (its live chunks as if they ended
   then): its groups joined again where the gap is at most 0.1 % of
   |now|, each scoring its chunks' mean lifetime over its span from its
   first allocation to its last end (1 for a span of 0), and the mean
   of those. */
static Double lifetime_score(const SiteRec* site, ULong now)
{
   const Group* g = site->groups;
   Double sum = 0.0;
   ULong  groups = 0;
   while (g != NULL) {
      ULong first = g->first_alloc, end = 0, chunks = 0, life = 0;
      const Group* last;
      do {
         chunks += g->chunks;
         life += g->life + g->live * now - g->live_alloc;
         if (g->last_end > end)
            end = g->last_end;
         if (g->live > 0)
            end = now;
         last = g;
         g = g->next;
      } while (g != NULL && (g->first_alloc - last->last_alloc) * 1000 <= now);
      sum += end > first ? (Double)life / ((Double)chunks * (Double)(end - first))
                         : 1.0;
      groups++;
   }
   return groups == 0 ? 1.0 : sum / (Double)groups;
}

/*------------------------------------------------------------*/
/*--- Chunk records                                        ---*/
/*------------------------------------------------------------*/

/* The record of the chunk numbered |index| at |site|, or NULL. */
static WS_ChunkRec* record_of(const SiteRec* site, ULong index)
{
   ULong k;
   if (site->recs == NULL || index < site->rec_from)
      return NULL;
   k = index - site->rec_from;
   if (k % site->stride != 0
       || k / site->stride >= (ULong)VG_(sizeXA)(site->recs))
      return NULL;
   return VG_(indexXA)(site->recs, k / site->stride);
}

/* Every other record goes, the stride doubles: a site keeps at most
   --ws-heap-chunks records, spread over its whole run. */
static void thin_records(SiteRec* site)
{
   Word i, n = VG_(sizeXA)(site->recs);
   for (i = 2; i < n; i += 2)
      *(WS_ChunkRec*)VG_(indexXA)(site->recs, i / 2) =
         *(WS_ChunkRec*)VG_(indexXA)(site->recs, i);
   VG_(dropTailXA)(site->recs, n - (n + 1) / 2);
   site->stride *= 2;
}

/* |c| was just allocated: its record, if its number is the stride's. */
static void record_alloc(const WS_ChunkUse* c)
{
   SiteRec* site = c->site;
   WS_ChunkRec r = { c->alloc_t, WS_NO_TIME, c->size, WS_NO_TIME,
                     WS_NO_TIME, WS_NO_TIME, WS_NO_TIME, 0, 0 };
   if (WS_(clo).heap_chunks == 0
       || (c->index - site->rec_from) % site->stride != 0)
      return;
   if (site->recs == NULL)
      site->recs = VG_(newXA)(VG_(malloc), "ws.heapuse.recs", VG_(free),
                              sizeof(WS_ChunkRec));
   VG_(addToXA)(site->recs, &r);
   if ((ULong)VG_(sizeXA)(site->recs) > WS_(clo).heap_chunks)
      thin_records(site);
}

const WS_ChunkRec* WS_(heapuse_records)(ExeContext* ec, UInt* n)
{
   const SiteRec* s = sites ? VG_(HT_lookup)(sites, (UWord)ec) : NULL;
   *n = s && s->recs ? (UInt)VG_(sizeXA)(s->recs) : 0;
   return *n ? VG_(indexXA)(s->recs, 0) : NULL;
}

static WS_ChunkUse* chunk_alloc(Addr block, SizeT size, ExeContext* site)
{
   WS_ChunkUse* c = VG_(allocEltPA)(chunk_pool);
   WS_SiteSums* s;
   Addr page;
   c->start = block;
   c->size = size;
   c->site = site_rec(site);
   c->heard = 0;
   c->first_t = 0;
   c->ends = 0;
   c->wants = 0;
   c->lost = 0;
   c->waiting = False;
   c->gone = NULL;
   c->seen = NULL;
   c->lo = c->hi = 0;
   c->reads = c->writes = c->last_t = 0;
   c->tid = VG_INVALID_THREADID;
   c->multi = False;
   /* The accesses the TLB let through on its pages so far came before
      it, and by this thread; the lines the IR flagged there too. */
   if (size > 0 && !WS_(clo).heap_exact)
      for (page = first_page(c); page <= last_page(c); page++)
         WS_(dtlb_settle_page)(page);
   c->seq = ++seq;
   c->alloc_t = WS_(now)();
   c->index = c->site->allocs++;
   record_alloc(c);
   join_group(c);
   grow(c->site, size);
   s = &c->site->sums;
   s->chunks++;
   s->bytes += size;
   s->live += size;
   s->live_chunks++;
   if (s->live > s->peak_live)
      s->peak_live = s->live;
   if (size > 0 && WS_(clo).heap_exact)
      exact_arm(c);
   else if (size > 0)
      arm(c);
   return c;
}

/* What a chunk's life comes to. */
typedef struct Outcome {
   ULong touched;       /* bytes accessed, at the run's resolution */
   ULong interval;      /* highest - lowest byte accessed + 1, or 0 */
   ULong last_t;        /* its last access (by default, the end of
                           that access's epoch) */
   ULong lo, hi;        /* the lowest and highest offset accessed, at
                           the run's resolution (touched > 0) */
   Bool  multi;         /* accessed by more than one thread */
} Outcome;

static void exact_outcome(const WS_ChunkUse* c, Outcome* o)
{
   o->touched = exact_touched(c);
   o->interval = c->heard & HEARD ? c->hi - c->lo + 1 : 0;
   o->lo = c->lo;
   o->hi = c->hi;
   o->last_t = c->last_t;
   o->multi = c->multi;
}

/* Whether |c| was accessed: when a page gave up waiting for a kind
   for it, that is not known. */
static Bool accessed(const WS_ChunkUse* c)
{
   return (c->heard & HEARD) || (c->lost & LOST_KINDS);
}

/* Whether |c|'s facts are bounds: the kinds, or the shared units of a
   chunk accessed. */
static Bool below_resolution(const WS_ChunkUse* c)
{
   return (c->lost & LOST_KINDS) || ((c->lost & LOST_ENDS) && accessed(c));
}

/* Whether a shared unit of |c| counts as touched: heard, or (a bound)
   lost by a chunk that may have been accessed. */
static Bool end_counts(const WS_ChunkUse* c, UInt heard, UInt lost)
{
   return (c->ends & heard) || ((c->ends & lost) && accessed(c));
}

/* Reads the pages of |c| as they are now, at |now|. */
static void outcome(const WS_ChunkUse* c, ULong now, Outcome* o)
{
   Addr page, fu = first_unit(c), lu = last_unit(c);
   Addr end = c->start + c->size, lo = end, hi = c->start;
   UInt us = unit_shift(), ups = upp_shift();
   ThreadId only = VG_INVALID_THREADID;
   Stamp last = 0;
   if (c->gone != NULL) {
      *o = *c->gone;
      return;
   }
   if (WS_(clo).heap_exact) {
      exact_outcome(c, o);
      return;
   }
   o->touched = 0;
   o->lo = o->hi = 0;
   o->multi = False;
   for (page = first_page(c); c->size > 0 && page <= last_page(c); page++) {
      const PageUse* p = WS_(pt_record_if_any)(&pages, page);
      const UChar* f = heap_flags(page);
      Bool  touched = False;
      Int   i0, i1, i;
      Stamp stamp;
      Addr  from, to;
      WS_(dtlb_settle_page)(page);
      own_units_on(c, page, &i0, &i1);
      for (i = i0; i <= i1; i++)
         if (p->units[i >> 6] & (1ULL << (i & 63))) {
            from = ((page << ups) + i) << us;
            to = from + (1ULL << us);
            o->touched += to - from;
            if (from < lo)
               lo = from;
            if (to > hi)
               hi = to;
            touched = True;
         }
      if (fu >> ups == page && end_counts(c, FIRST_HEARD, FIRST_LOST)) {
         to = ((fu + 1) << us) < end ? (fu + 1) << us : end;
         o->touched += to - c->start;
         lo = c->start;
         if (to > hi)
            hi = to;
         touched = True;
      }
      if (lu != fu && lu >> ups == page
          && end_counts(c, LAST_HEARD, LAST_LOST)) {
         from = lu << us;
         o->touched += end - from;
         if (from < lo)
            lo = from;
         hi = end;
         touched = True;
      }
      if (!touched)
         continue;
      stamp = *f & WS_HEAP_ALLOC ? p->program : data_stamp(page);
      if (stamp > last)
         last = stamp;
      if (!several_threads)
         continue;
      /* Two threads in its life on this page, or another thread than
         on its other pages. */
      if (p->switch_seq > c->seq
          || (only != VG_INVALID_THREADID && p->tid != VG_INVALID_THREADID
              && only != p->tid))
         o->multi = True;
      if (p->tid != VG_INVALID_THREADID)
         only = p->tid;
   }
   o->last_t = last == 0 ? c->first_t : epoch_end(last, now);
   if (o->last_t < c->first_t)
      o->last_t = c->first_t;
   o->interval = hi > lo ? hi - lo : 0;
   if (hi > lo) {
      o->lo = lo - c->start;
      o->hi = hi - 1 - c->start;
   }
}

/* Adds the life of |c|, ended at |end_t|, to |s|. */
static void add_life(WS_SiteSums* s, const WS_ChunkUse* c,
                     const Outcome* o, ULong end_t)
{
   ULong life = end_t - c->alloc_t;
   s->ended++;
   s->ended_bytes += c->size;
   s->lifetime += life;
   s->touched += o->touched;
   s->interval += o->interval;
   /* The paper's Useless function: a chunk never read or never written
      is of no use, however much of it was accessed (its kinds lost:
      it may have been both). */
   if ((c->heard & BOTH) == BOTH || (c->lost & LOST_KINDS))
      s->usage_bytes += o->touched;
   if (below_resolution(c))
      s->below++;
   if (c->lost & LOST_KINDS) {
      /* never, read-only, write-only: not known */
      if (!(c->heard & HEARD))
         return;
   } else if (!(c->heard & HEARD)) {
      s->never++;
      s->never_bytes += c->size;
      return;
   }
   if ((c->heard & BOTH) == WS_Read && !(c->lost & LOST_KINDS))
      s->read_only++;
   if ((c->heard & BOTH) == WS_Write && !(c->lost & LOST_KINDS))
      s->write_only++;
   if (o->multi)
      s->threads++;
   s->first_delay += c->first_t - c->alloc_t;
   s->idle_tail += end_t - o->last_t;
   s->useful += life == 0 ? 1.0
              : (Double)(o->last_t - c->first_t) / (Double)life;
}

/* The record of |c|, if it has one, ended at |end_t| (WS_NO_TIME: live
   at exit) as |o| says. */
static void record_end(const WS_ChunkUse* c, const Outcome* o, ULong end_t)
{
   WS_ChunkRec* r = record_of(c->site, c->index);
   if (r == NULL)
      return;
   r->free_t = end_t;
   if (!(c->heard & HEARD))
      return;
   r->first_t = c->first_t;
   r->last_t = o->last_t;
   if (o->touched > 0) {
      r->lo = o->lo;
      r->hi = o->hi;
   }
   r->reads = c->reads;
   r->writes = c->writes;
}

/* |c| ends now: freed (|at_exit| False) or live at exit. */
static void end_chunk(WS_ChunkUse* c, Bool at_exit)
{
   WS_SiteSums* s = &c->site->sums;
   ULong now = WS_(now)();
   Outcome o;
   outcome(c, now, &o);
   add_life(s, c, &o, now);
   record_end(c, &o, at_exit ? WS_NO_TIME : now);
   c->group->life += now - c->alloc_t;
   c->group->live--;
   c->group->live_alloc -= c->alloc_t;
   if (now > c->group->last_end)
      c->group->last_end = now;
   s->live -= c->size;
   s->live_chunks--;
   if (at_exit)
      s->exit_live++;
   if (WS_(clo).heap_exact) {
      /* (at exit the pages may stay armed: the blocks' walk that ends
         the chunks must not be restarted by another) */
      if (c->size > 0 && !at_exit)
         exact_disarm(c);
      if (c->seen != NULL)
         VG_(free)(c->seen);
      c->seen = NULL;
   } else {
      stop_waiting(c);
      forget_own(c);
      if (c->gone != NULL)
         VG_(free)(c->gone);
      c->gone = NULL;
   }
}

/* realloc was entered with |c|: its use is what it was until now. */
static void chunk_left(WS_ChunkUse* c)
{
   Outcome o;
   if (WS_(clo).heap_exact || c->gone != NULL)
      return;
   outcome(c, WS_(now)(), &o);
   c->gone = VG_(malloc)("ws.heapuse.gone", sizeof o);
   *c->gone = o;
   stop_waiting(c);
   forget_own(c);
}

static void chunk_free(WS_ChunkUse* c)
{
   end_chunk(c, False);
   VG_(freeEltPA)(chunk_pool, c);
}

void WS_(heapuse_chunk)(const WS_ChunkUse* c, Addr* start, SizeT* size,
                        ExeContext** site)
{
   *start = c->start;
   *size = c->size;
   *site = (ExeContext*)c->site->key;
}

/*------------------------------------------------------------*/
/*--- Sites                                                ---*/
/*------------------------------------------------------------*/

typedef struct {
   WS_SiteUse* out;
   ULong       now;
} Gather;

/* Adds a live chunk to the copy of its site's sums, as if it ended
   now. */
static void count_live(WS_ChunkUse* c, void* opaque)
{
   Gather* g = opaque;
   Outcome o;
   outcome(c, g->now, &o);
   add_life(&g->out[c->site->index].sums, c, &o, g->now);
}

static void end_live(WS_ChunkUse* c, void* opaque)
{
   end_chunk(c, True);
}

/* Whether the live chunks have ended (at exit). */
static Bool all_ended = False;

void WS_(heapuse_end_live)(void)
{
   if (WS_(clo).heap_usage && !all_ended)
      WS_(heap_for_each_block)(end_live, NULL);
   all_ended = True;
}

WS_SiteUse* WS_(heapuse_sites)(UInt* n)
{
   Gather g;
   SiteRec* s;
   UInt i = 0;
   g.out = VG_(malloc)("ws.heapuse.gather",
                       (VG_(HT_count_nodes)(sites) + 1) * sizeof *g.out);
   g.now = WS_(now)();
   VG_(HT_ResetIter)(sites);
   while ((s = VG_(HT_Next)(sites)) != NULL) {
      /* a forked child's file has none of the sites whose chunks all
         ended in the parent (no live chunk names them) */
      if (s->sums.chunks == 0)
         continue;
      g.out[i].site = (ExeContext*)s->key;
      g.out[i].sums = s->sums;
      g.out[i].sums.lifetime_score = lifetime_score(s, g.now);
      s->index = i++;
   }
   if (!all_ended)
      WS_(heap_for_each_block)(count_live, &g);
   *n = i;
   return g.out;
}

ULong WS_(heapuse_live_bytes)(ExeContext* site)
{
   const SiteRec* s = sites ? VG_(HT_lookup)(sites, (UWord)site) : NULL;
   return s ? s->sums.live : 0;
}

/*------------------------------------------------------------*/
/*--- Start-up, forks, statistics                          ---*/
/*------------------------------------------------------------*/

static void epoch_began(const WS_Event* ev)
{
   new_epoch(ev->stamp, ev->t);
}

void WS_(heapuse_init)(void)
{
   /* The TLB keeps out the kinds a page's chunks wait for, and every
      kind while the allocator has made the page current; the helper
      tells of accesses to a page where a chunk waits. */
   static const WS_Watch watch = {
      .trap_read     = WS_Read | WS_HEAP_ALLOC,
      .trap_write    = WS_Write | WS_HEAP_ALLOC,
      .wake          = WS_HEAP_WAITING,
      .lines         = WS_HEAP_LINES,
      .all           = &WS_(heap_calls),
      .access        = access,
      .kernel_access = kernel_access,
      .lines_settled = lines_settled
   };
   UInt words;
   if (!WS_(clo).heap_usage)
      return;
   chunk_pool = VG_(newPA)(sizeof(WS_ChunkUse), 1024, VG_(malloc),
                           "ws.heapuse.chunks", VG_(free));
   WS_(watch_accesses)(&watch);
   words = upp_shift() > 6 ? 1u << (upp_shift() - 6) : 1;
   WS_(pt_init_records)(&pages, sizeof(PageUse) + words * sizeof(ULong));
   epoch_cap = 64;
   epoch_start = VG_(calloc)("ws.heapuse.epochs", epoch_cap, sizeof(ULong));
   new_epoch(WS_(cur_stamp), WS_(now)());
   sites = VG_(HT_construct)("ws.heapuse.sites");
   WS_(heap_chunks_to)(chunk_alloc, chunk_free);
   WS_(heap_chunks_left_to)(chunk_left);
   WS_(listen)(WS_EvEpoch, epoch_began);
   WS_(listen)(WS_EvThreadRuns, thread_runs);
}

/* The groups of |s| keep their live chunks only. */
static void forget_ended_groups(SiteRec* s)
{
   Group** at = &s->groups;
   Group* g;
   s->last_group = NULL;
   while ((g = *at) != NULL) {
      g->chunks = g->live;
      g->life = g->last_end = 0;
      if (g->chunks == 0) {
         *at = g->next;
         VG_(free)(g);
         continue;
      }
      s->last_group = g;
      at = &g->next;
   }
}

/* A forked child's file tells of its own chunks: those it inherited
   live, and those it allocates. */
static void forget_ended(void)
{
   SiteRec* s;
   VG_(HT_ResetIter)(sites);
   while ((s = VG_(HT_Next)(sites)) != NULL) {
      ULong live = s->sums.live, live_chunks = s->sums.live_chunks;
      VG_(memset)(&s->sums, 0, sizeof s->sums);
      s->sums.chunks = live_chunks;
      s->sums.bytes = live;
      s->sums.live = s->sums.peak_live = live;
      s->sums.live_chunks = live_chunks;
      forget_ended_groups(s);
      /* its records are of the chunks it allocates */
      if (s->recs != NULL)
         VG_(deleteXA)(s->recs);
      s->recs = NULL;
      s->rec_from = s->allocs;
      s->stride = 1;
   }
}

void WS_(heapuse_after_fork)(void)
{
   if (WS_(clo).heap_usage)
      forget_ended();
}

void WS_(heapuse_print_stats)(void)
{
   if (!WS_(clo).heap_usage)
      return;
   VG_(message)(Vg_DebugMsg, "ws heap usage: %llu pages made to trap at "
                "allocations, %llu accesses heard by waiting chunks, "
                "%llu of the allocator's not, %llu pages gave up waiting, "
                "%llu TLB flushes at thread switches, %d sites\n",
                stats.arms, stats.heard, stats.allocator, stats.given_up,
                stats.flushes, VG_(HT_count_nodes)(sites));
}

/*--------------------------------------------------------------------*/
/*--- end                                             ws_heapuse.c ---*/
/*--------------------------------------------------------------------*/

/*--------------------------------------------------------------------*/
/*--- ws: clock, epochs, windows and samples.        ws_sampler.c ---*/
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

/* Owns time and the counting scheme.  It never scans the page tables:
   a sample costs the same whether the program touched ten pages or
   ten million.

   Time is cut into epochs, each with a stamp (1, 2, 3, ...).  A new
   epoch begins at the first superblock boundary at or after every
   window start k*T - tau, so that the window of the sample taken at
   the first boundary at or after k*T is exactly "the epochs that began
   at or after k*T - tau".  Each page remembers the stamp of the epoch
   of its latest access; the inline check in the instrumented code
   compares that with the current stamp and calls the slow path only
   when they differ, i.e. at most once per page per epoch.

   For each set of pages (instruction, data, and per thread) a WS_Window
   counts how many pages have their latest stamp in each epoch still in
   the window, and keeps the sum: moving a page to the current epoch is
   O(1), and dropping the epochs that left the window at a sample is
   O(epochs dropped), which is bounded by the number of epochs per
   window, not by the number of pages. */

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_transtab.h"
#include "pub_tool_xarray.h"

#include "ws_global.h"

Stamp        WS_(cur_stamp)  = 1;
WS_PageTable WS_(tables)[2];
WS_Stats     WS_(stats);
WS_Counters  WS_(counters);
WS_DtlbEntry WS_(dtlb)[WS_DTLB_ENTRIES];

/* The entries filled since the TLB was last emptied, so that emptying
   it costs what the epoch used, not the TLB's size. */
static UInt dtlb_filled[WS_DTLB_ENTRIES];
static UInt dtlb_n_filled = 0;

/* The clock: instructions executed so far.  Outside translations it
   is |clock|.  While thread |clock_thread| runs them, the IR counts
   the instructions left before |next_event| down in that thread's
   shadow area (WS_SHADOW_LEFT; Valgrind runs one thread at a time),
   where an offset off the guest state pointer reaches it in one
   instruction; |clock| is brought up to date when the thread stops. */
static ULong    clock        = 0;
static ULong    next_event   = 0;     /* clock value of the next boundary */
static ThreadId clock_thread = VG_INVALID_THREADID;

static ULong clock_now(void)
{
   Long left;
   if (clock_thread == VG_INVALID_THREADID)
      return clock;
   VG_(get_shadow_regs_area)(clock_thread, (UChar*)&left, 1,
                             WS_SHADOW_LEFT, sizeof left);
   return next_event - left;
}

/* Tells the running thread's IR the current stamp, or the clock and
   the stamp. */
static void stamp_to_shadow(void)
{
   if (clock_thread != VG_INVALID_THREADID)
      VG_(set_shadow_regs_area)(clock_thread, 1, WS_SHADOW_STAMP,
                                sizeof WS_(cur_stamp),
                                (const UChar*)&WS_(cur_stamp));
}

static void clock_to_shadow(ULong now)
{
   Long left = (Long)(next_event - now);
   if (clock_thread == VG_INVALID_THREADID)
      return;
   VG_(set_shadow_regs_area)(clock_thread, 1, WS_SHADOW_LEFT, sizeof left,
                             (const UChar*)&left);
   stamp_to_shadow();
}

void WS_(clock_to_thread)(ThreadId tid)
{
   clock_thread = tid;
   clock_to_shadow(clock);
}

void WS_(clock_from_thread)(ThreadId tid)
{
   tl_assert(tid == clock_thread);
   clock = clock_now();
   clock_thread = VG_INVALID_THREADID;
}

/* In ms mode the IR cannot see the wall clock, so the boundary
   handler runs every this many instructions to look at it. */
#define WS_MS_POLL_INSNS  20000

static WS_Window windows[2];
static Stamp*    table_l1[2][WS_L1_ENTRIES];

/* When each epoch still in the window began, in time units: a ring
   like the windows', indexed by stamp. */
static ULong* stamp_time     = NULL;
static UInt   stamp_time_cap = 0;
static Stamp  window_first   = 1;   /* oldest stamp in the window */

/* A working-set miss is an access that brings a page into the window
   of the next sample: the page's previous stamp is older than that
   window's first epoch, |miss_first| (no epoch of it has begun yet:
   WS_STAMP_MASK).  With tau = T every page of every sample's working
   set was brought in by exactly one miss. */
static Stamp miss_first = WS_STAMP_MASK;
static ULong miss_bound = 0;         /* the next window starts here */
ULong        WS_(rising)[2];         /* misses since the next sample's
                                        window was planned or began */

static ULong next_sample_k;         /* next sample at k*T */
static ULong next_window_j;         /* next epoch at j*T - tau */
static UInt  ms_origin;             /* timer value at start-up */
static UInt  ms_paused;             /* ms spent with measurement off */
static UInt  ms_stopped_at;         /* timer value at the last stop */
/* In ms mode a stop or a start happens at one instant: while one is
   being done (a final sample, events, discarding translations) the
   clock reads ms_stopped_at, so that its events, the reply and the
   time the clock stands at while off all agree. */
static Bool  ms_held;

Bool         WS_(measuring) = True;

/* The last samples, for "ws series" (WS_SERIES_LEN of them). */
static WS_Sample series[WS_SERIES_LEN];
static ULong     series_count = 0;   /* samples ever put in the ring */

/*------------------------------------------------------------*/
/*--- Window counters                                      ---*/
/*------------------------------------------------------------*/

#define WS_INITIAL_RING 16

void WS_(win_init)(WS_Window* w)
{
   w->cap    = WS_INITIAL_RING;
   w->counts = VG_(calloc)("ws.window.counts", w->cap, sizeof(UInt));
   w->first  = window_first;
   w->size   = 0;
}

void WS_(win_free)(WS_Window* w)
{
   VG_(free)(w->counts);
   w->counts = NULL;
}

/* Invariant: every non-zero counter belongs to a stamp in
   [first, first + cap), so each ring slot names one stamp. */
static void win_grow(WS_Window* w, Stamp upto)
{
   UInt   new_cap = w->cap;
   UInt*  ring;
   Stamp  s;
   while (upto - w->first >= new_cap)
      new_cap *= 2;
   ring = VG_(calloc)("ws.window.counts", new_cap, sizeof(UInt));
   for (s = w->first; s - w->first < w->cap; s++)
      ring[s & (new_cap - 1)] = w->counts[s & (w->cap - 1)];
   VG_(free)(w->counts);
   w->counts = ring;
   w->cap = new_cap;
}

void WS_(win_set)(WS_Window* w, Stamp old, Stamp new)
{
   Bool old_in = old != WS_STAMP_NEVER && old >= w->first;
   Bool new_in = new != WS_STAMP_NEVER && new >= w->first;
   if (new_in && new - w->first >= w->cap)
      win_grow(w, new);
   if (old_in)
      w->counts[old & (w->cap - 1)]--;
   if (new_in)
      w->counts[new & (w->cap - 1)]++;
   w->size = w->size + new_in - old_in;
}

void WS_(win_advance)(WS_Window* w, Stamp first)
{
   Stamp s;
   if (first <= w->first)
      return;
   for (s = w->first; s < first && s - w->first < w->cap; s++) {
      UInt* c = &w->counts[s & (w->cap - 1)];
      w->size -= *c;
      *c = 0;
   }
   w->first = first;
}

/*------------------------------------------------------------*/
/*--- Epochs                                               ---*/
/*------------------------------------------------------------*/

ULong WS_(now)(void)
{
   if (WS_(clo_time_unit) == WS_TimeMillis) {
      UInt timer = WS_(measuring) && !ms_held
                   ? VG_(read_millisecond_timer)() : ms_stopped_at;
      return timer - ms_origin - ms_paused;
   }
   return clock_now();
}

static void set_stamp_time(Stamp s, ULong t)
{
   if (s - window_first >= stamp_time_cap) {
      UInt   new_cap = stamp_time_cap ? stamp_time_cap : WS_INITIAL_RING;
      ULong* ring;
      Stamp  i;
      while (s - window_first >= new_cap)
         new_cap *= 2;
      ring = VG_(calloc)("ws.stamp_time", new_cap, sizeof(ULong));
      for (i = window_first; i < s && stamp_time_cap > 0; i++)
         ring[i & (new_cap - 1)] = stamp_time[i & (stamp_time_cap - 1)];
      if (stamp_time)
         VG_(free)(stamp_time);
      stamp_time = ring;
      stamp_time_cap = new_cap;
   }
   stamp_time[s & (stamp_time_cap - 1)] = t;
}

static ULong get_stamp_time(Stamp s)
{
   return stamp_time[s & (stamp_time_cap - 1)];
}

/* The first page number at or above 2^47, the end of amd64's user
   address space.  An access that reaches there faults without touching
   memory, and the tables, which index 47 bits, would take its page for
   a lower one: ws counts neither it nor its page (docs/manual.md,
   Limits). */
static Addr beyond_user_space(void)
{
   return (Addr)1 << (WS_ADDR_BITS - WS_(page_shift));
}

/* The accesses an entry counted go to its page's record before the
   entry changes. */
static void settle_entry(WS_DtlbEntry* e)
{
   if (e->accesses != 0) {
      Addr page = WS_DTLB_PAGE(e);
      if (page < beyond_user_space()) {
         WS_(add_accesses)(page, e->accesses);
         if (WS_(heap_threads))
            WS_(heapuse_settled)(page);
      }
   }
   e->accesses = 0;
}

/* The entry holds |page|, with the kinds of access ws_heapuse.c keeps
   out of it trapped. */
static void set_tags(WS_DtlbEntry* e, ULong page)
{
   UInt f;
   e->tag[0] = e->tag[1] = e->tag[2] = page;
   if (!WS_(heap_usage) || page == WS_DTLB_EMPTY)
      return;
   f = WS_(heap_waits)(page) ? *WS_(heap_flags_of)(page) : 0;
   if (f & (WS_Read | WS_HEAP_ALLOC))
      e->tag[WS_Read - 1] |= WS_DTLB_TRAP;
   if (f & (WS_Write | WS_HEAP_ALLOC))
      e->tag[WS_Write - 1] |= WS_DTLB_TRAP;
   if (f & (WS_Read | WS_Write | WS_HEAP_ALLOC))
      e->tag[WS_ReadWrite - 1] |= WS_DTLB_TRAP;
}

static void forget_crossings(void);

static void empty_dtlb(void)
{
   UInt i;
   forget_crossings();
   for (i = 0; i < dtlb_n_filled; i++) {
      WS_DtlbEntry* e = &WS_(dtlb)[dtlb_filled[i]];
      settle_entry(e);
      set_tags(e, WS_DTLB_EMPTY);
   }
   dtlb_n_filled = 0;
}

void WS_(dtlb_flush)(void)
{
   empty_dtlb();
}

void WS_(dtlb_fill)(Addr page)
{
   UInt i = page & (WS_DTLB_ENTRIES - 1);
   WS_DtlbEntry* e = &WS_(dtlb)[i];
   if (WS_DTLB_PAGE(e) == WS_DTLB_EMPTY)
      dtlb_filled[dtlb_n_filled++] = i;
   else
      settle_entry(e);
   set_tags(e, page);
}

void WS_(dtlb_settle_page)(Addr page)
{
   WS_DtlbEntry* e = &WS_(dtlb)[page & (WS_DTLB_ENTRIES - 1)];
   if (WS_DTLB_PAGE(e) == page)
      settle_entry(e);
}

void WS_(flush_access_counts)(void)
{
   UInt i;
   for (i = 0; i < dtlb_n_filled; i++)
      settle_entry(&WS_(dtlb)[dtlb_filled[i]]);
}

void WS_(new_stamp)(void)
{
   if (WS_(cur_stamp) == WS_STAMP_MASK - 1) {
      /* 2^31 epochs: at the default T that is 10^14 instructions. */
      VG_(umsg)("ws: epoch counter exhausted; later accesses are counted "
                "in the last epoch\n");
      return;
   }
   WS_(cur_stamp)++;
   stamp_to_shadow();
   set_stamp_time(WS_(cur_stamp), WS_(now)());
   if (miss_first == WS_STAMP_MASK && WS_(now)() >= miss_bound) {
      miss_first = WS_(cur_stamp);
      WS_(rising)[WS_Insn] = WS_(rising)[WS_Data] = 0;
   }
   if (WS_(heap_usage))
      WS_(heapuse_new_epoch)(WS_(cur_stamp), get_stamp_time(WS_(cur_stamp)));
   empty_dtlb();
}

/* After a sample or a change of plan: the first epoch of the next
   sample's window, if it has begun (tau > T), else none yet. */
static void plan_miss_window(void)
{
   ULong every = WS_(clo_every), tau = WS_(clo_tau);
   ULong at = next_sample_k * every;
   Stamp s;
   miss_bound = at > tau ? at - tau : 0;
   miss_first = WS_STAMP_MASK;
   WS_(rising)[WS_Insn] = WS_(rising)[WS_Data] = 0;
   for (s = window_first; s <= WS_(cur_stamp); s++)
      if (get_stamp_time(s) >= miss_bound) {
         miss_first = s;
         break;
      }
}

/*------------------------------------------------------------*/
/*--- Touching pages (the slow path)                       ---*/
/*------------------------------------------------------------*/

/* |a|: a byte of the page that the access reaches (for code, the
   instruction's first byte on it). */
static void touch_page(WS_Kind kind, Addr page, Addr ip, Addr a)
{
   Stamp* slot = WS_(pt_slot)(&WS_(tables)[kind], page);
   Stamp  old  = *slot;
   if (old == WS_(cur_stamp))
      return;
   if (old == WS_STAMP_NEVER)
      WS_(first_touch)(kind, page, ip);
   /* A page that enters the window (or is a new mapping) is named by
      the bytes this access reaches: what it holds may have changed
      since it was last in the window. */
   if ((old & WS_STAMP_MASK) < windows[kind].first || (old & WS_STAMP_DEAD))
      WS_(entered_window)(kind, page, kind == WS_Insn ? ip : a);
   if (old == WS_STAMP_NEVER || (old & WS_STAMP_DEAD))
      WS_(stats).total[kind]++;
   if (WS_(cur_stamp) >= miss_first && (old & WS_STAMP_MASK) < miss_first) {
      if (WS_(clo_miss_file))
         WS_(miss_at)(kind, ip);
      if (++WS_(rising)[kind] >= WS_(rise_mark)[kind])
         WS_(window_rose)(kind, ip);
   }
   /* Stamps only grow, so a page is new to the open region exactly
      when its stamp is older than the region's first epoch. */
   if ((old & WS_STAMP_MASK) < WS_(region_first) || (old & WS_STAMP_DEAD))
      WS_(region_total)[kind]++;
   WS_(win_set)(&windows[kind], old & WS_STAMP_MASK, WS_(cur_stamp));
   WS_(pt_stamp)(&WS_(tables)[kind], slot, page, WS_(cur_stamp));
   if (WS_(clo_per_thread))
      WS_(thread_touch)(VG_(get_running_tid)(), kind, page, old);
}

void WS_(touch_range)(WS_Kind kind, Addr a, SizeT size, Addr ip)
{
   Addr page, last;
   if (size == 0 || !WS_(measuring))
      return;
   last = (a + size - 1) >> WS_(page_shift);
   if (last < (a >> WS_(page_shift))    /* wraps the address space */
       || last >= beyond_user_space())
      last = beyond_user_space() - 1;
   for (page = a >> WS_(page_shift); page <= last; page++) {
      touch_page(kind, page, ip, page == a >> WS_(page_shift)
                                 ? a : page << WS_(page_shift));
      if (page == last)
         break;
   }
}

/* An access (or a check's range) that crosses a page boundary can
   never match the data TLB, so every run of its check calls
   data_miss, not only the first in an epoch.  Such checks are few but
   hot: an object that straddles two pages and is used in a loop, a
   group of fields read together.  Almost every such call repeats the
   last one of its check at the same address, so the call is
   remembered: until the TLB is next emptied (a new epoch, or an
   unmap), both pages stay current, and a repeat only has to refill
   the entry and move the accesses of the parts that end on the first
   page to that page's counter, found once. */
typedef struct {
   HWord  site;
   Addr   a;
   ULong* first_counter; /* the first page's access counter */
   UInt   first_weight;  /* accesses of the parts ending on it */
   UInt   generation;    /* valid while it equals crossing_generation */
} Crossing;

#define WS_CROSSINGS 1024
static Crossing crossings[WS_CROSSINGS];
/* Bumped whenever the TLB is emptied, which forgets every crossing at
   once; 0 is never current, so the zeroed table starts out empty. */
static UInt     crossing_generation = 1;

static void forget_crossings(void)
{
   crossing_generation++;
   if (crossing_generation == 0) {
      /* After 2^32 emptyings a stale entry could look current again. */
      VG_(memset)(crossings, 0, sizeof crossings);
      crossing_generation = 1;
   }
}

static Crossing* crossing_slot(HWord site, Addr a)
{
   return &crossings[(site ^ (site >> 12) ^ a ^ (a >> 12))
                     & (WS_CROSSINGS - 1)];
}

static void remember_crossing(Crossing* c, HWord site,
                              const WS_SiteRecord* r, Addr a)
{
   Addr first = a >> WS_(page_shift);
   UInt i;
   c->site = site;
   c->a = a;
   c->generation = crossing_generation;
   c->first_weight = 0;
   c->first_counter = NULL;
   if (r != NULL) {
      for (i = 0; i < r->n_parts; i++)
         if ((a + r->parts[i].last) >> WS_(page_shift) == first)
            c->first_weight += r->parts[i].weight;
      c->first_counter = WS_(access_counter)(WS_Data, first);
   }
}

/* The entry filled is the page of the access's last byte: the one
   the inline code looks up, and then counts the access on.  |kind|:
   what the accesses the check counts do. */
static void data_miss(Addr a, HWord site, WS_AccessKind kind)
{
   const WS_SiteRecord* r = NULL;
   SizeT size;
   Addr  ip, last;
   WS_DtlbEntry* e;
   Crossing* c = NULL;
   if (site & WS_SITE_RECORD) {
      r = (const WS_SiteRecord*)(site & ~WS_SITE_RECORD);
      size = r->size;
      ip = r->ip;
   } else {
      size = site >> 48;
      ip = site & ((1ULL << 48) - 1);
   }
   WS_(counters).data_misses++;
   last = (a + size - 1) >> WS_(page_shift);
   e = &WS_(dtlb)[last & (WS_DTLB_ENTRIES - 1)];
   if (UNLIKELY(((a | (a + size - 1)) >> WS_ADDR_BITS) != 0)) {
      /* It reaches at or above 2^47 (or wraps): it faults, touching
         nothing.  The inline code counts it on the entry of its last
         page: that entry holds a page beyond user space (the same
         entry, the bit is above the index), whose accesses
         settle_entry drops. */
      WS_(dtlb_fill)(last | beyond_user_space());
      return;
   }
   /* A range of a page or more is rare and may span many pages: it
      is not remembered. */
   if (last == (a >> WS_(page_shift)) + 1 && size <= WS_(clo_pagesize)) {
      c = crossing_slot(site, a);
      /* Not while a heap chunk on either page waits to hear of an
         access (ws_heapuse.c). */
      if (c->generation == crossing_generation && c->site == site
          && c->a == a
          && !(WS_(heap_usage) && (WS_(heap_waits)(a >> WS_(page_shift))
                                   || WS_(heap_waits)(last)))) {
         WS_(dtlb_fill)(last);
         if (c->first_counter != NULL) {
            *c->first_counter += c->first_weight;
            e->accesses -= c->first_weight;
         }
         return;
      }
   }
   /* Before the pages' stamps change, which it reads for the
      allocator's accesses.  Accesses of more than a page are rare: they
      may cover pages between the two ends. */
   if (WS_(heap_usage) && (WS_(heap_calls) != 0
                           || WS_(heap_waits)(a >> WS_(page_shift))
                           || WS_(heap_waits)(last)
                           || size > WS_(clo_pagesize)))
      WS_(heapuse_access)(a, size, kind);
   WS_(touch_range)(WS_Data, a, size, ip);
   WS_(dtlb_fill)(last);
   if (r != NULL && last != a >> WS_(page_shift))
      WS_(share_out)(r, a, e);
   if (c != NULL && WS_(measuring))
      remember_crossing(c, site, r, a);
}

void WS_(dtlb_refresh_page)(Addr page)
{
   WS_DtlbEntry* e = &WS_(dtlb)[page & (WS_DTLB_ENTRIES - 1)];
   if (WS_DTLB_PAGE(e) == page)
      set_tags(e, page);
}

static VG_REGPARM(2) void data_miss_r(Addr a, HWord site)
{
   data_miss(a, site, WS_Read);
}

static VG_REGPARM(2) void data_miss_w(Addr a, HWord site)
{
   data_miss(a, site, WS_Write);
}

static VG_REGPARM(2) void data_miss_rw(Addr a, HWord site)
{
   data_miss(a, site, WS_ReadWrite);
}

static const WS_DataMiss kind_misses[3] = {
   { "ws_data_miss_r", data_miss_r }, { "ws_data_miss_w", data_miss_w },
   { "ws_data_miss_rw", data_miss_rw }
};

const WS_DataMiss* WS_(data_miss_of_kind)(WS_AccessKind kind)
{
   return &kind_misses[kind - 1];
}

/* The instruction the running thread is at, for the helpers whose IR
   knows the guest state holds it (ws_instrument.c). */
static Addr guest_ip(void)
{
   return VG_(get_IP)(VG_(get_running_tid)());
}

/* The sizes of nearly all checks: single accesses, and groups of
   words off one stack pointer; for each kind of check. */
#define SIZED_MISS(n)                                                 \
   static VG_REGPARM(1) void data_miss_r_##n(Addr a)                  \
   {                                                                  \
      data_miss(a, WS_MISS_SITE(n, guest_ip()), WS_Read);             \
   }                                                                  \
   static VG_REGPARM(1) void data_miss_w_##n(Addr a)                  \
   {                                                                  \
      data_miss(a, WS_MISS_SITE(n, guest_ip()), WS_Write);            \
   }                                                                  \
   static VG_REGPARM(1) void data_miss_rw_##n(Addr a)                 \
   {                                                                  \
      data_miss(a, WS_MISS_SITE(n, guest_ip()), WS_ReadWrite);        \
   }
SIZED_MISS(1)  SIZED_MISS(2)  SIZED_MISS(4)  SIZED_MISS(8)
SIZED_MISS(16) SIZED_MISS(24) SIZED_MISS(32) SIZED_MISS(40)
SIZED_MISS(48) SIZED_MISS(56) SIZED_MISS(64) SIZED_MISS(72)
SIZED_MISS(80) SIZED_MISS(88) SIZED_MISS(96) SIZED_MISS(104)
SIZED_MISS(112) SIZED_MISS(120) SIZED_MISS(128)
#undef SIZED_MISS

#define SIZED(k, n)  { "ws_data_miss_" #k "_" #n, data_miss_##k##_##n }
#define SIZES(k)                                                      \
   { SIZED(k, 1),   SIZED(k, 2),   SIZED(k, 4),   SIZED(k, 8),        \
     SIZED(k, 16),  SIZED(k, 24),  SIZED(k, 32),  SIZED(k, 40),       \
     SIZED(k, 48),  SIZED(k, 56),  SIZED(k, 64),  SIZED(k, 72),       \
     SIZED(k, 80),  SIZED(k, 88),  SIZED(k, 96),  SIZED(k, 104),      \
     SIZED(k, 112), SIZED(k, 120), SIZED(k, 128) }
/* By kind, then: sizes 1, 2, 4, then the multiples of 8 up to 128. */
static const WS_DataMiss sized_misses[3][19] = {
   SIZES(r), SIZES(w), SIZES(rw)
};
#undef SIZES
#undef SIZED

const WS_DataMiss* WS_(data_miss_of_size)(UInt size, WS_AccessKind kind)
{
   if (size == 1 || size == 2 || size == 4)
      return &sized_misses[kind - 1][size / 2];
   if (size % 8 == 0 && size / 8 - 1 < 16)
      return &sized_misses[kind - 1][size / 8 + 2];
   return NULL;
}

VG_REGPARM(1) void WS_(insn_miss)(Addr a)
{
   WS_(counters).insn_misses++;
   touch_page(WS_Insn, a >> WS_(page_shift), a, a);
}

void WS_(insn_miss_at_ip)(void)
{
   WS_(insn_miss)(guest_ip());
}

VG_REGPARM(1) void WS_(insn_miss_straddling)(Addr ip)
{
   Addr page = (ip >> WS_(page_shift)) + 1;
   WS_(counters).insn_misses++;
   touch_page(WS_Insn, page, ip, page << WS_(page_shift));
}

static void mark_dead(Stamp* slot, Addr page, void* opaque)
{
   if (*slot != WS_STAMP_NEVER)
      *slot |= WS_STAMP_DEAD;
}

void WS_(unmapped)(Addr a, SizeT len)
{
   /* Only pages wholly inside the range are gone: with pages larger
      than the kernel's, the rest of a partly unmapped page lives on. */
   Addr first = (a + (1UL << WS_(page_shift)) - 1) >> WS_(page_shift);
   Addr end   = (a + len) >> WS_(page_shift);
   Int  kind;
   if (len == 0 || end <= first)
      return;
   /* The next touch of these pages must reach touch_page. */
   empty_dtlb();
   for (kind = 0; kind < 2; kind++)
      WS_(pt_for_range)(&WS_(tables)[kind], first, end - 1, mark_dead, NULL);
}

/*------------------------------------------------------------*/
/*--- Samples                                              ---*/
/*------------------------------------------------------------*/

static void remember_sample(ULong t)
{
   WS_Sample* r = &series[series_count % WS_SERIES_LEN];
   r->t = t;
   r->insn = windows[WS_Insn].size;
   r->data = windows[WS_Data].size;
   series_count++;
}

/* The time of the last sample since measurement (re)started, if any:
   a final sample at that same time would repeat it. */
static ULong last_sample_t;
static Bool  sampled_since_start = False;

/* Counts, writes and hands on the sample at |t| over the current
   window; a final sample is marked as one. */
ULong WS_(sample_seq) = 0;

static void record_sample(ULong t, Bool final)
{
   Int kind;
   WS_(sample_seq)++;
   WS_(stats).samples++;
   for (kind = 0; kind < 2; kind++) {
      ULong size = windows[kind].size;
      WS_(stats).sum[kind] += size;
      if (size > WS_(stats).peak[kind])
         WS_(stats).peak[kind] = size;
   }
   remember_sample(t);
   WS_(region_sample)(windows[WS_Insn].size, windows[WS_Data].size);
   WS_(out_printf)("%llu %llu %llu", t, windows[WS_Insn].size,
                   windows[WS_Data].size);
   if (WS_(clo_per_thread))
      WS_(threads_write_columns)();
   WS_(out_end_line)();
   if (final)
      WS_(out_event)("final");
   last_sample_t = t;
   sampled_since_start = True;
   WS_(peaks_sample)(t, windows[WS_Insn].size, windows[WS_Data].size,
                     final);
   /* Freed blocks can leave pages in this window (tau back: a few
      samples when tau is T), and the peaks just recorded are broken
      down at the next sample: those freed since it began are still
      needed, one sample more for the rounding. */
   {
      ULong back = (WS_(clo_tau) + WS_(clo_every) - 1) / WS_(clo_every) + 1;
      if (WS_(sample_seq) > back)
         WS_(heap_forget_freed)(WS_(sample_seq) - back);
   }
   WS_(out_maybe_flush)();
}

static void take_sample(ULong t, ULong k)
{
   ULong  w = k * WS_(clo_every);
   Stamp  first = window_first;
   Int    kind;

   /* The window is the epochs that began at or after k*T - tau. */
   if (w > WS_(clo_tau)) {
      w -= WS_(clo_tau);
      /* boundary() opened an epoch when the clock passed w.  Only
         right after tau or T changed may none have begun since w;
         the window is then the current epoch alone. */
      while (first < WS_(cur_stamp) && get_stamp_time(first) < w)
         first++;
   } else {
      first = window_first;
   }
   for (kind = 0; kind < 2; kind++)
      WS_(win_advance)(&windows[kind], first);
   if (WS_(clo_per_thread))
      WS_(threads_advance)(first);
   window_first = first;
   record_sample(t, False);
}

static void schedule_next(void)
{
   ULong now = clock_now();
   if (WS_(clo_time_unit) == WS_TimeMillis) {
      next_event = now + WS_MS_POLL_INSNS;
   } else {
      ULong sample_at = next_sample_k * WS_(clo_every);
      ULong window_at = next_window_j * WS_(clo_every) - WS_(clo_tau);
      next_event = sample_at < window_at ? sample_at : window_at;
   }
   clock_to_shadow(now);
}

/* The smallest j >= 1 with j*T - tau > t. */
static ULong first_window_after(ULong t)
{
   return (t + WS_(clo_tau)) / WS_(clo_every) + 1;
}

void WS_(boundary)(void)
{
   ULong t = WS_(now)();
   ULong every = WS_(clo_every);

   WS_(counters).boundaries++;
   if (next_window_j * every - WS_(clo_tau) <= t) {
      WS_(new_stamp)();
      next_window_j = first_window_after(t);
   }
   if (next_sample_k * every <= t) {
      ULong k = t / every;
      take_sample(t, k);
      next_sample_k = k + 1;
      plan_miss_window();
   }
   schedule_next();
}

ULong WS_(series)(ULong n, WS_Sample* out)
{
   ULong have = series_count < WS_SERIES_LEN ? series_count : WS_SERIES_LEN;
   ULong i;
   if (n > have)
      n = have;
   for (i = 0; i < n; i++)
      out[i] = series[(series_count - n + i) % WS_SERIES_LEN];
   return n;
}

/* Plans the next sample and the next epoch from the current time, for
   start-up and after T, tau or the measuring state changed. */
static void reschedule(void)
{
   ULong t = WS_(now)();
   next_sample_k = t / WS_(clo_every) + 1;
   next_window_j = first_window_after(t);
   plan_miss_window();
   schedule_next();
}

/* Steering (a monitor command, a client request) runs between two
   superblocks.  A sample or a window start that came due in the
   superblock that just ended would be taken at the next boundary; a
   change of T, tau or the measuring state must not skip it, so it is
   taken now, at the same time the next boundary would have had. */
static void catch_up(void)
{
   if (WS_(measuring) && clock_now() >= next_event)
      WS_(boundary)();
}

void WS_(set_every)(ULong every)
{
   catch_up();
   WS_(clo_every) = every;
   WS_(new_stamp)();
   reschedule();
   WS_(out_event)("set every %llu", every);
}

void WS_(set_tau)(ULong tau)
{
   catch_up();
   WS_(clo_tau) = tau;
   WS_(new_stamp)();
   reschedule();
   WS_(out_event)("set tau %llu", tau);
}

/* Code runs uninstrumented while measurement is off (as callgrind
   does), so a toggle throws away every translation made so far. */
static void retranslate_all(void)
{
   VG_(discard_translations_safely)((Addr)0x1000, ~(SizeT)0xfff, "ws");
}

/* When measurement stops (WS_STOP, "ws stop", exit, a fatal signal),
   the accesses since the last sample would otherwise go unseen: a
   final sample is taken now, over the window the last sample's began
   (the current window counters: the epochs that began at or after
   k*T - tau for the last multiple k*T the clock passed, or at the
   start of measurement if that came later).  It holds every page of
   (t - tau, t] and is between tau and tau + T long; docs/manual.md,
   "Final samples", says why this window and not the exact one. */
void WS_(final_sample)(void)
{
   ULong t;
   if (!WS_(measuring))
      return;
   catch_up();
   t = WS_(now)();
   if (sampled_since_start && last_sample_t == t)
      return;
   record_sample(t, True);
}

ULong WS_(measure_start)(void)
{
   Int kind;
   UInt timer;
   ULong t;
   if (WS_(measuring))
      return WS_(now)();
   /* Discarding the translations made while off is part of the time
      off. */
   retranslate_all();
   timer = VG_(read_millisecond_timer)();
   ms_paused += timer - ms_stopped_at;
   ms_stopped_at = timer;
   ms_held = True;
   WS_(measuring) = True;
   /* A fresh window: pages touched before do not count. */
   WS_(new_stamp)();
   window_first = WS_(cur_stamp);
   for (kind = 0; kind < 2; kind++)
      WS_(win_advance)(&windows[kind], window_first);
   if (WS_(clo_per_thread))
      WS_(threads_advance)(window_first);
   reschedule();
   sampled_since_start = False;
   WS_(peaks_started)();
   WS_(region_open)();
   WS_(out_event)("start");
   t = WS_(now)();
   ms_held = False;
   return t;
}

ULong WS_(measure_region_begin)(void)
{
   catch_up();
   WS_(new_stamp)();
   WS_(region_open)();
   WS_(out_event)("region-start");
   return WS_(now)();
}

ULong WS_(measure_stop)(void)
{
   if (!WS_(measuring))
      return WS_(now)();
   ms_stopped_at = VG_(read_millisecond_timer)();
   ms_held = True;
   WS_(final_sample)();
   WS_(peaks_stopped)();
   WS_(out_event)("stop");
   WS_(region_close)();
   WS_(measuring) = False;
   ms_held = False;
   retranslate_all();
   return WS_(now)();
}

void WS_(current_sizes)(ULong sizes[2])
{
   sizes[WS_Insn] = windows[WS_Insn].size;
   sizes[WS_Data] = windows[WS_Data].size;
}

Stamp WS_(window_first_stamp)(void)
{
   return window_first;
}

static void collect_page(Stamp* slot, Addr page, void* opaque)
{
   VG_(addToXA)((XArray*)opaque, &page);
}

XArray* WS_(window_pages)(WS_Kind kind)
{
   XArray* pages = VG_(newXA)(VG_(malloc), "ws.window.pages", VG_(free),
                              sizeof(Addr));
   WS_(pt_for_window)(&WS_(tables)[kind], window_first, collect_page,
                      pages);
   return pages;
}

ULong WS_(stamp_start_time)(Stamp s)
{
   return s >= window_first && s <= WS_(cur_stamp) ? get_stamp_time(s) : 0;
}

void WS_(sampler_init)(void)
{
   Int kind;
   UInt i;
   ms_origin = VG_(read_millisecond_timer)();
   for (kind = 0; kind < 2; kind++) {
      WS_(pt_init)(&WS_(tables)[kind], False, table_l1[kind]);
      WS_(pt_track_windows)(&WS_(tables)[kind]);
      WS_(win_init)(&windows[kind]);
   }
   set_stamp_time(WS_(cur_stamp), 0);
   for (i = 0; i < WS_DTLB_ENTRIES; i++)
      set_tags(&WS_(dtlb)[i], WS_DTLB_EMPTY);
   reschedule();
   if (!WS_(measuring))
      ms_stopped_at = ms_origin;
}

/* A forked child writes a file of its own, which holds none of the
   parent's samples: its sample statistics (and "ws series") start
   empty.  Windows and totals go on from the parent's, as its address
   space does. */
void WS_(sampler_after_fork)(void)
{
   Int kind;
   WS_(stats).samples = 0;
   for (kind = 0; kind < 2; kind++) {
      WS_(stats).sum[kind] = 0;
      WS_(stats).peak[kind] = 0;
   }
   series_count = 0;
}

void WS_(print_counters)(void)
{
   const WS_Counters* c = &WS_(counters);
   VG_(dmsg)("ws: superblocks instrumented: %'llu\n", c->sbs);
   VG_(dmsg)("ws: checks emitted: %'llu data (%'llu left out), "
             "%'llu code\n", c->data_checks, c->data_elided, c->insn_checks);
   VG_(dmsg)("ws: slow-path calls: %'llu data, %'llu code, "
             "%'llu boundaries\n", c->data_misses, c->insn_misses,
             c->boundaries);
   VG_(dmsg)("ws: epochs: %u\n", WS_(cur_stamp));
   VG_(dmsg)("ws: stacks taken where a window rose: %'llu\n", c->rises);
   VG_(dmsg)("ws: peak records: %'llu, broken down by owner: %'llu\n",
             c->peak_records, c->breakdowns);
}

/*--------------------------------------------------------------------*/
/*--- end                                              ws_sampler.c ---*/
/*--------------------------------------------------------------------*/

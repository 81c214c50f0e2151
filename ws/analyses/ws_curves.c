/*--------------------------------------------------------------------*/
/*--- ws: locality curves from one run.                ws_curves.c ---*/
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

/* Owns the locality curves of --ws-curves=exact (docs/manual.md,
   "Locality curves"): the working-set size s(tau), the missing rate
   m(tau) and the LRU miss-ratio curve of instructions and data, in
   pages and lines, for the run and each named region, exactly as a
   full trace gives them (tests/curve_oracle.py is the definition);
   and the run's estimates of --ws-curves=sampled, from windows that
   the core's slow paths observe whole ("Sampled mode" below), which
   add no IR.

   Every access must be seen with its instruction's time, which the
   core's checks (one slow-path call per page per epoch) never give: so
   this module adds a pass before the core's (WS_(set_first_pass)) that
   calls a helper at every instruction and before every data access.
   The helpers keep their own clock, counted as the core counts its
   (a rep-prefixed string instruction once with --ws-count-rep=once,
   nothing while measurement is off), so it equals ws's clock.

   Per stream (one kind at one granularity, over the run or an open
   region), for a unit u touched at t_1 < ... < t_n:

      K s(tau) = U (K + 1) - sum_u t_1 - sum over gaps and tails x > tau
                 of (x - tau)                  (tail: K + 1 - t_n)
      misses(tau) = U + #{gaps > tau}

   so a stream keeps each unit's last touch, the sum of first touches,
   and per power-of-two bin (2^k, 2^(k+1)] the number and sum of the
   gaps: every tau = 2^j is exact in integers.  The LRU stack distance
   of a reference is 1 + the units whose latest reference came after
   its unit's previous one: a Fenwick tree over reference positions
   holding a 1 at each unit's latest, renumbered when the positions run
   out, so that memory follows the units touched, not the run. */

#include "pub_tool_basics.h"
#include "pub_tool_gdbserver.h"
#include "pub_tool_hashtable.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_xarray.h"

#include "ws_analyses.h"

#define BINS      64
#define TAU_MIN   64
#define N_STREAMS 4          /* insn page, insn line, data page, data line */

typedef struct _Unit {
   struct _Unit* next;       /* VgHashNode's first two fields */
   UWord         key;        /* the unit's number */
   ULong         last;       /* its latest touch */
   UInt          pos;        /* its latest reference's position */
} Unit;

typedef struct {
   VgHashTable* units;
   Unit*  top;               /* the unit touched last */
   ULong  n_units;
   ULong  first_sum;         /* sum over units of their first touch */
   ULong  gap_n[BINS], gap_s[BINS];
   /* LRU */
   UInt*  tree;              /* Fenwick tree over positions 1 .. cap */
   UInt   cap;
   UInt   next;              /* the next reference's position */
   ULong  refs, cold;
   ULong  hist[BINS];        /* distances 2^(k-1) < d <= 2^k */
} Stream;

/* The run or an open region: its streams and where its time starts. */
typedef struct {
   Bool   open;
   ULong  t0;
   Stream st[N_STREAMS];
} Scope;

/* What is printed of a scope; the regions of one name add up. */
typedef struct {
   HChar* label;             /* NULL: the run */
   ULong  k;                 /* instants */
   ULong  units[N_STREAMS];  /* the most units one of them touched */
   ULong  s_sum[N_STREAMS][BINS];     /* K s(2^j) */
   ULong  misses[N_STREAMS][BINS];    /* at tau = 2^j */
   ULong  refs[N_STREAMS];
   ULong  lru_misses[N_STREAMS][BINS];   /* at size 2^j */
} Pool;

static ULong  now = 0;             /* instructions measured so far */
static Addr   rep_at = 0;          /* the rep instruction iterating */
static Scope  run_scope, region_scope;
static Pool   run_pool;
static XArray* region_pools = NULL;       /* of Pool */

static UInt bits(ULong x)          /* Python's int.bit_length() */
{
   return x == 0 ? 0 : 64 - __builtin_clzll(x);
}

/*------------------------------------------------------------*/
/*--- Streams                                              ---*/
/*------------------------------------------------------------*/

static void stream_open(Stream* st)
{
   VG_(memset)(st, 0, sizeof *st);
   st->units = VG_(HT_construct)("ws.curves.units");
   st->cap   = 1 << 12;
   st->tree  = VG_(calloc)("ws.curves.tree", st->cap + 1, sizeof(UInt));
   st->next  = 1;
}

static void stream_close(Stream* st)
{
   VG_(HT_destruct)(st->units, VG_(free));
   VG_(free)(st->tree);
   st->units = NULL;
   st->tree  = NULL;
}

static void tree_add(Stream* st, UInt i, Int v)
{
   for (; i <= st->cap; i += i & -i)
      st->tree[i] += v;
}

static UInt tree_prefix(const Stream* st, UInt i)
{
   UInt s = 0;
   for (; i; i &= i - 1)
      s += st->tree[i];
   return s;
}

static Int by_pos(const void* a, const void* b)
{
   UInt pa = (*(Unit* const*)a)->pos, pb = (*(Unit* const*)b)->pos;
   return pa < pb ? -1 : pa > pb;
}

/* The positions ran out: the units are renumbered in the order of
   their latest references, in a tree with room for three times as
   many references again.  A unit being added has none yet (0). */
static void compact(Stream* st)
{
   UInt n, i, placed = 0;
   Unit** all = (Unit**)VG_(HT_to_array)(st->units, &n);
   VG_(ssort)(all, n, sizeof *all, by_pos);
   if (st->cap < 4 * n)
      st->cap = 4 * n;
   VG_(free)(st->tree);
   st->tree = VG_(calloc)("ws.curves.tree", st->cap + 1, sizeof(UInt));
   for (i = 0; i < n; i++)
      if (all[i]->pos != 0) {
         all[i]->pos = ++placed;
         tree_add(st, placed, 1);
      }
   st->next = placed + 1;
   VG_(free)(all);
}

/* |u|'s reference: its stack distance, 0 for its first. */
static ULong lru_distance(Stream* st, Unit* u)
{
   ULong d = 0;
   if (u->pos != 0 && u->pos == st->next - 1)
      return 1;                /* the latest referenced, as in a run */
   if (st->next > st->cap)
      compact(st);
   if (u->pos != 0) {
      d = 1 + st->n_units - tree_prefix(st, u->pos);
      tree_add(st, u->pos, -1);
   }
   u->pos = st->next++;
   tree_add(st, u->pos, 1);
   return d;
}

static void lru_ref(Stream* st, Unit* u)
{
   ULong d = lru_distance(st, u);
   st->refs++;
   if (d == 0)
      st->cold++;
   else
      st->hist[bits(d - 1)]++;
}

static void add_gap(Stream* st, ULong g)
{
   if (g > 1) {
      UInt k = bits(g - 1) - 1;
      st->gap_n[k]++;
      st->gap_s[k] += g;
   }
}

/* Unit |key| touched at |t|; a second touch in one instruction is
   none, and so is one before the unit's latest (sampled mode notes a
   group's later parts with its check: see "what the slow paths
   see"). */
static void touch(Stream* st, UWord key, ULong t)
{
   Unit* u = st->top;
   if (u != NULL && u->key == key) {
      if (t > u->last) {
         add_gap(st, t - u->last);
         u->last = t;
         st->refs++;
         st->hist[0]++;
      }
      return;
   }
   u = VG_(HT_lookup)(st->units, key);
   if (u == NULL) {
      u = VG_(malloc)("ws.curves.unit", sizeof *u);
      u->key  = key;
      u->pos  = 0;
      VG_(HT_add_node)(st->units, u);
      st->n_units++;
      st->first_sum += t;
   } else if (t <= u->last) {
      return;
   } else {
      add_gap(st, t - u->last);
   }
   u->last = t;
   st->top = u;
   lru_ref(st, u);
}

/* The stream's values over |k| instants into |pool|'s stream |i|. */
static void stream_finish(Stream* st, ULong k, Pool* pool, Int i)
{
   ULong n[BINS], s[BINS];
   ULong above_n = 0, above_s = 0, above_gaps = 0, above_hist = 0;
   Unit* u;
   Int   j;
   for (j = 0; j < BINS; j++) {
      n[j] = st->gap_n[j];
      s[j] = st->gap_s[j];
   }
   VG_(HT_ResetIter)(st->units);
   while ((u = VG_(HT_Next)(st->units)) != NULL) {
      ULong h = k + 1 - u->last;
      if (h > 1) {
         n[bits(h - 1) - 1]++;
         s[bits(h - 1) - 1] += h;
      }
   }
   for (j = BINS - 1; j >= 0; j--) {
      ULong tau = 1ULL << j;
      above_n += n[j];
      above_s += s[j];
      above_gaps += st->gap_n[j];
      pool->s_sum[i][j] += st->n_units * (k + 1) - st->first_sum
                           - (above_s - tau * above_n);
      pool->misses[i][j] += st->n_units + above_gaps;
      pool->lru_misses[i][j] += st->cold + above_hist;
      above_hist += st->hist[j];
   }
   pool->refs[i] += st->refs;
   if (st->n_units > pool->units[i])
      pool->units[i] = st->n_units;
}

/*------------------------------------------------------------*/
/*--- Scopes                                               ---*/
/*------------------------------------------------------------*/

static Int n_streams(void)
{
   return WS_(lines_on)() ? N_STREAMS : 2;
}

/* Stream of kind |kind| (WS_Kind) at granularity |g| (0 page, 1 line),
   in the order the trailer prints them. */
static Int stream_index(Int kind, Int g)
{
   return WS_(lines_on)() ? kind * 2 + g : kind;
}

static void scope_open(Scope* sc)
{
   Int i;
   sc->open = True;
   sc->t0   = now;
   for (i = 0; i < n_streams(); i++)
      stream_open(&sc->st[i]);
}

static void scope_close(Scope* sc, Pool* pool)
{
   Int i;
   if (pool != NULL && now > sc->t0) {
      pool->k += now - sc->t0;
      for (i = 0; i < n_streams(); i++)
         stream_finish(&sc->st[i], now - sc->t0, pool, i);
   }
   for (i = 0; i < n_streams(); i++)
      stream_close(&sc->st[i]);
   sc->open = False;
}

static void touch_units(Int kind, Addr a, UWord size)
{
   Int g;
   for (g = 0; g < (WS_(lines_on)() ? 2 : 1); g++) {
      UInt  shift = g == 0 ? WS_(clo).page_shift : WS_(clo).line_shift;
      UWord first = a >> shift, last = (a + size - 1) >> shift, x;
      Int   i = stream_index(kind, g);
      for (x = first; x <= last; x++) {
         touch(&run_scope.st[i], x, now - run_scope.t0);
         if (region_scope.open)
            touch(&region_scope.st[i], x, now - region_scope.t0);
      }
   }
}

static void format_ratio(HChar* buf, ULong num, ULong den, UInt decimals);

/*------------------------------------------------------------*/
/*--- Sampled mode: observed windows                       ---*/
/*------------------------------------------------------------*/

/* --ws-curves=sampled observes windows of the run completely and
   estimates the curves from them (docs/design.md, "Sampled locality
   curves").  The k-th window opens at k P + j_k instructions (j_k a
   hash of k below P - 2 WIN_SPAN, so that no period of the program
   lines up with P; an event of the sampler's clock): its first
   WIN_SPAN instructions warm it up, the next WIN_SPAN are measured: every
   instant t of them adds |W(t, tau)| for tau = 64 .. WIN_SPAN, which
   lies inside the window, and the touches that miss.  Between
   consecutive touches p < t of a unit, the unit is in W(t', tau) for
   t' in [p, min(p + tau, t)); a unit's first touch in the window has
   no touch in the warm-up, so none within any tau measured: a miss.
   The LRU stack starts with the window: a reference whose unit was
   not referenced in it has a distance above the units referenced so
   far, which is at least the warm-up's footprint; sizes up to the
   least such footprint are answered from the windows, larger ones
   from the footprint conversion of s and m (HOTL).  Each window's
   values are kept, for the standard errors; at WIN_MAX, P doubles and
   the windows off it are dropped, so the estimates rest on 128 to 256
   evenly spread windows whatever the run's length.

   The run's first WIN_HEAD instructions (a forked child's, from the
   fork) are observed whole, as --ws-curves=exact observes the run:
   start-up is short and unlike the rest (tens of code pages in a few
   thousand instructions), and windows would catch it or not by
   chance.  The estimates add the head's exact sums to the windows'
   ratios times the instructions after it (a stratified estimate); a
   run that ends in its head has exact curves. */

#define WIN_SPAN   4096
#define WIN_TAUS   7                   /* tau = 64 .. WIN_SPAN */
#define WIN_SIZES  17                  /* LRU sizes 1 .. 65536 */
#define WIN_MAX    256
#define WIN_P0     (1 << 14)           /* P at the start */
#define WIN_HEAD   (1 << 17)           /* the run's start, observed whole */

typedef struct {
   ULong s[WIN_TAUS];        /* sum over the measured instants of |W| */
   ULong m[WIN_TAUS];        /* touches missing at tau */
   ULong refs;               /* measured references */
   ULong lru[WIN_SIZES];     /* those missing a cache of 2^k units */
   ULong warm_units;         /* units referenced in the warm-up */
} WinStream;

typedef struct {
   ULong     k;              /* its index at the current P */
   ULong     n;              /* measured instants */
   WinStream st[N_STREAMS];
} Window;

static Window windows[WIN_MAX];
static UInt   n_windows = 0;
static ULong  period = WIN_P0;
static ULong  next_k = WIN_HEAD / WIN_P0;
static Bool   in_head = False;
static ULong  head_t;          /* instants into the head, once closed */
static ULong  t_base = 0;      /* the clock at the head's start */
static Stream head_st[N_STREAMS];
static Pool   head;
static ULong  win_c0;          /* the clock at the open window's start */
static ULong  win_t;           /* instants into it, once closed */
static const ULong win_warm = WIN_SPAN;
static Stream win_st[N_STREAMS];
static Window win;
static Bool   warm_taken[N_STREAMS];

/* The open window's touches by bins, made its values at its end: per
   stream, the gaps inside the measured half (n and sum) and the
   measured touches' gaps (a first touch in the window is cold), by
   bin 0 (up to TAU_MIN) .. WIN_TAUS (above the largest tau); their
   LRU distances by bits(d - 1), a first reference cold. */
typedef struct {
   ULong gap_n[WIN_TAUS + 1], gap_s[WIN_TAUS + 1];
   ULong miss[WIN_TAUS + 1], cold;
   ULong dist[65], lru_cold;
} WinBins;
static WinBins bins[N_STREAMS];

static Int tau_bin(ULong g)
{
   Int k = 0;
   while (k < WIN_TAUS && g > ((ULong)TAU_MIN << k))
      k++;
   return k;
}

/* The open window's units, from chunks kept for the next window: a
   window touches thousands (lines), all dropped at its end. */
#define CHUNK_UNITS 4096
typedef struct _UnitChunk {
   struct _UnitChunk* next;
   Unit               units[CHUNK_UNITS];
} UnitChunk;
static UnitChunk* chunks_used = NULL;
static UnitChunk* chunks_free = NULL;
static UInt       chunk_left = 0;

static Unit* win_unit(void)
{
   if (chunk_left == 0) {
      UnitChunk* c = chunks_free;
      if (c != NULL)
         chunks_free = c->next;
      else
         c = VG_(malloc)("ws.curves.units", sizeof *c);
      c->next = chunks_used;
      chunks_used = c;
      chunk_left = CHUNK_UNITS;
   }
   return &chunks_used->units[--chunk_left];
}

static void unit_kept(void* u)
{
}

static void win_units_drop(void)
{
   while (chunks_used != NULL) {
      UnitChunk* c = chunks_used;
      chunks_used = c->next;
      c->next = chunks_free;
      chunks_free = c;
   }
   chunk_left = 0;
}

static ULong mix(ULong x)              /* splitmix64's finaliser */
{
   x ^= x >> 30;
   x *= 0xbf58476d1ce4e5b9ULL;
   x ^= x >> 27;
   x *= 0x94d049bb133111ebULL;
   return x ^ (x >> 31);
}

/*------------------------------------------------------------*/
/*--- Sampled mode: what the slow paths see                ---*/
/*------------------------------------------------------------*/

/* While the head or a window is open, the core sends every access to
   its slow paths (WS_(observe_all)) and tells this module of each
   superblock's start, with the clock exact there, and of each data
   check, with the instruction that made it: no IR is added.  A
   superblock's instructions are noted at translation (a pass that
   adds nothing), in the order they run, a rep string instruction
   counted once as the core counts it: at the next superblock's start
   the clock says how many of them ran (those before the exit taken),
   and each is touched, pages and lines, at its own instant; a data
   check's instant is its instruction's in the running superblock.  So
   the windows are exact on what they see: a check that covers the
   accesses of several instructions (ws_instrument.c's groups) is told
   with its parts, each with its instruction, and those of later
   instructions wait until the touches before them are noted. */
typedef struct _Superblock {
   struct _Superblock* next;  /* VgHashNode's first two fields */
   UWord  key;                /* its first instruction's address */
   Bool   starts_rep;         /* with a rep string instruction */
   UInt   n;
   struct { Addr a; UWord len; } insn[0];
} Superblock;

static VgHashTable*      superblocks = NULL;
static const Superblock* running;     /* the one running, if noted */
static ULong             running_t0;  /* the clock as it began */
static UInt              running_at;  /* its last data check's
                                         instruction */

static IRSB* note_superblock(IRSB* sb, const VexGuestLayout* layout,
                             const VexGuestExtents* vge)
{
   Superblock* q;
   Superblock* old;
   Addr rep = 0;
   Int  i, n = 0;
   for (i = 0; i < sb->stmts_used; i++)
      if (sb->stmts[i]->tag == Ist_IMark)
         n++;
   if (n == 0)
      return sb;
   q = VG_(malloc)("ws.curves.superblock",
                   sizeof *q + n * sizeof q->insn[0]);
   q->n = 0;
   for (i = 0; i < sb->stmts_used; i++) {
      Addr a;
      UInt len;
      Bool is_rep;
      if (sb->stmts[i]->tag != Ist_IMark)
         continue;
      a   = sb->stmts[i]->Ist.IMark.addr;
      len = sb->stmts[i]->Ist.IMark.len;
      is_rep = WS_(clo).count_rep_once && WS_(is_rep_string)(a, len);
      if (is_rep && a == rep)
         continue;
      if (is_rep)
         rep = a;
      if (q->n == 0)
         q->starts_rep = is_rep;
      q->insn[q->n].a = a;
      q->insn[q->n++].len = len ? len : 1;
   }
   q->key = q->insn[0].a;
   old = VG_(HT_remove)(superblocks, q->key);
   if (old != NULL) {
      if (running == old)
         running = NULL;
      VG_(free)(old);
   }
   VG_(HT_add_node)(superblocks, q);
   return sb;
}

static void note_touch(Int kind, Addr a, UWord size, ULong t);

/* A group's accesses at later instructions than its check, in the
   order of their instants. */
#define LATER_MAX 64
static struct { Addr a; UWord size; ULong t; } later[LATER_MAX];
static UInt n_later = 0;

/* Notes those before instant |t| (all: ~0). */
static void later_until(ULong t)
{
   UInt i, n = 0;
   while (n < n_later && later[n].t < t)
      n++;
   for (i = 0; i < n; i++)
      note_touch(WS_Data, later[i].a, later[i].size, later[i].t);
   for (i = n; i < n_later; i++)
      later[i - n] = later[i];
   n_later -= n;
}

static void later_add(Addr a, UWord size, ULong t)
{
   UInt i;
   if (n_later == LATER_MAX)
      later_until(later[0].t + 1);
   for (i = n_later; i > 0 && later[i - 1].t > t; i--)
      later[i] = later[i - 1];
   later[i].a = a;
   later[i].size = size;
   later[i].t = t;
   n_later++;
}

/* The running superblock stopped, the clock at |c|: the instructions
   it ran are touched. */
static void superblock_ends(ULong c)
{
   const Superblock* q = running;
   ULong n, i;
   later_until(~0ULL);
   running = NULL;
   if (q == NULL || c <= running_t0)
      return;
   n = c - running_t0 < q->n ? c - running_t0 : q->n;
   for (i = 0; i < n; i++)
      note_touch(WS_Insn, q->insn[i].a, q->insn[i].len, running_t0 + 1 + i);
}

/* A superblock that starts with a rep string instruction and follows
   itself goes on with the instruction (its other exit leads on): the
   instruction's instant is the one it began at, the clock before it. */
static void superblock_begins(Addr ip)
{
   ULong c = WS_(clock_insns)();
   const Superblock* was = running;
   superblock_ends(c);
   running = VG_(HT_lookup)(superblocks, ip);
   running_t0 = c;
   running_at = 0;
   if (running != NULL && running == was && running->starts_rep && c > 0)
      running_t0 = c - 1;
}

static void data_seen(Addr a, SizeT size, Addr ip, Bool is_later)
{
   ULong c = WS_(clock_insns)(), t = c + 1;
   UInt  i;
   if (running != NULL) {
      /* from the last check's instruction on, and past the last exit
         (the clock counted the instructions before it): a loop VEX
         unrolled holds an instruction more than once */
      if (c - running_t0 > running_at)
         running_at = c - running_t0 < running->n ? c - running_t0
                                                  : running->n;
      for (i = running_at; i < running->n; i++)
         if (running->insn[i].a == ip)
            break;
      if (i == running->n)
         for (i = 0; i < running_at; i++)
            if (running->insn[i].a == ip)
               break;
      if (i < running->n) {
         if (!is_later)
            running_at = i;
         t = running_t0 + 1 + i;
      }
   }
   if (size == 0)
      return;
   if (is_later) {
      later_add(a, size, t);
      return;
   }
   later_until(t);
   note_touch(WS_Data, a, size, t);
}

static const WS_Observer observer = { superblock_begins, data_seen };

/* The program runs on in another thread: the clock is exact. */
static void thread_runs(const WS_Event* ev)
{
   if (WS_(observing))
      superblock_ends(WS_(clock_insns)());
}

/* Observing begins or ends, at a boundary. */
static void observe(Bool on)
{
   running = NULL;
   n_later = 0;
   WS_(observe_all)(on);
}

/*------------------------------------------------------------*/
/*--- Sampled mode: the head and the windows               ---*/
/*------------------------------------------------------------*/

static void head_open(void)
{
   Int i;
   for (i = 0; i < n_streams(); i++)
      stream_open(&head_st[i]);
   VG_(memset)(&head, 0, sizeof head);
   t_base  = WS_(clock_insns)();
   in_head = True;
   observe(True);
}

/* From the boundary, the trailer or a fork, the clock exact.  The
   boundary comes at a superblock's start, a few instructions past
   WIN_HEAD: those are left to the windows, as the rest of the run. */
static void head_close(void)
{
   Int i;
   ULong c = WS_(clock_insns)();
   superblock_ends(c);
   head_t = head.k = c - t_base < WIN_HEAD ? c - t_base : WIN_HEAD;
   for (i = 0; i < n_streams(); i++) {
      if (head_t > 0)
         stream_finish(&head_st[i], head_t, &head, i);
      stream_close(&head_st[i]);
   }
   in_head = False;
   observe(False);
}

static void head_units(Int kind, Addr a, UWord size, ULong t)
{
   Int g;
   for (g = 0; g < (WS_(lines_on)() ? 2 : 1); g++) {
      UInt  shift = g == 0 ? WS_(clo).page_shift : WS_(clo).line_shift;
      UWord x;
      for (x = a >> shift; x <= (a + size - 1) >> shift; x++)
         touch(&head_st[stream_index(kind, g)], x, t);
   }
}

static void window_open(ULong k)
{
   Int i;
   VG_(memset)(&win, 0, sizeof win);
   win.k  = k;
   win_c0 = WS_(clock_insns)();
   VG_(memset)(bins, 0, sizeof bins);
   for (i = 0; i < n_streams(); i++) {
      stream_open(&win_st[i]);
      warm_taken[i] = False;
   }
   observe(True);
}

/* |w| gains the instants of [p, end) at which a unit touched at |p|
   is in the window of each tau, those measured. */
static void win_span(WinStream* w, ULong p, ULong end)
{
   ULong lo = p > win_warm ? p : win_warm + 1;
   ULong hi_m = win_warm + WIN_SPAN + 1;
   Int   j;
   for (j = 0; j < WIN_TAUS; j++) {
      ULong hi = p + ((ULong)TAU_MIN << j);
      if (hi > end)
         hi = end;
      if (hi > hi_m)
         hi = hi_m;
      if (hi > lo)
         w->s[j] += hi - lo;
   }
}

/* The units referenced in the warm-up bound the LRU sizes the window
   answers: taken before the stream's first measured touch. */
static void take_warm(Int i)
{
   if (!warm_taken[i]) {
      win.st[i].warm_units = win_st[i].n_units;
      warm_taken[i] = True;
   }
}

static void win_touch(Int i, UWord key, ULong t)
{
   Stream*    st = &win_st[i];
   WinStream* w  = &win.st[i];
   WinBins*   b  = &bins[i];
   Unit*      u;
   ULong      p  = 0, d;
   Int        k;
   if (t > win_warm + WIN_SPAN)
      return;
   if (t > win_warm)
      take_warm(i);
   u = st->top != NULL && st->top->key == key ? st->top
       : VG_(HT_lookup)(st->units, key);
   if (u == NULL) {
      u = win_unit();
      u->key = key;
      u->pos = 0;
      VG_(HT_add_node)(st->units, u);
      st->n_units++;
   } else if (t <= u->last) {
      return;
   } else if (u->last > win_warm) {
      /* a gap inside the measured half: in the window of each tau for
         min(tau, gap) of its instants */
      p = u->last;
      k = tau_bin(t - p);
      b->gap_n[k]++;
      b->gap_s[k] += t - p;
   } else {
      p = u->last;
      win_span(w, p, t);
   }
   if (u == st->top && p != 0) {
      /* the unit referenced last (most fetches, runs of accesses): a
         distance of 1 */
      u->last = t;
      d = 1;
   } else {
      u->last = t;
      st->top = u;
      d = lru_distance(st, u);
   }
   if (t <= win_warm)
      return;
   w->refs++;
   if (p == 0)
      b->cold++;
   else
      b->miss[tau_bin(t - p)]++;
   if (d == 0)
      b->lru_cold++;
   else
      b->dist[bits(d - 1)]++;
}

/* The window's values from its bins (WinBins). */
static void bins_to_window(const WinBins* b, WinStream* w)
{
   ULong below = 0, above;
   Int   j, k;
   for (j = 0; j < WIN_TAUS; j++) {
      ULong tau = (ULong)TAU_MIN << j;
      below += b->gap_s[j];
      above = 0;
      for (k = j + 1; k <= WIN_TAUS; k++)
         above += b->gap_n[k];
      w->s[j] += below + tau * above;
      w->m[j] = b->cold;
      for (k = j + 1; k <= WIN_TAUS; k++)
         w->m[j] += b->miss[k];
   }
   for (j = 0; j < WIN_SIZES; j++) {
      w->lru[j] = b->lru_cold;
      for (k = j + 1; k < 65; k++)
         w->lru[j] += b->dist[k];
   }
}

/* Keeps the open window, if any of it was measured (window_due made
   room), from the boundary, the clock exact; |keep|: False for one cut
   short by the program's end. */
static void window_close(Bool keep)
{
   Int   i;
   Unit* u;
   ULong c = WS_(clock_insns)();
   superblock_ends(c);
   win_t = c - win_c0 < win_warm + WIN_SPAN ? c - win_c0
                                            : win_warm + WIN_SPAN;
   if (!keep)
      win_t = 0;
   win.n = win_t > win_warm ? win_t - win_warm : 0;
   for (i = 0; i < n_streams(); i++) {
      if (win.n > 0) {
         take_warm(i);
         VG_(HT_ResetIter)(win_st[i].units);
         while ((u = VG_(HT_Next)(win_st[i].units)) != NULL)
            win_span(&win.st[i], u->last, win_t + 1);
         bins_to_window(&bins[i], &win.st[i]);
      }
      VG_(HT_destruct)(win_st[i].units, unit_kept);
      VG_(free)(win_st[i].tree);
   }
   win_units_drop();
   if (win.n > 0 && n_windows < WIN_MAX)
      windows[n_windows++] = win;
   observe(False);
}

/* Bytes [a, a+size) of |kind| touched at instant |t| of the clock. */
static void note_touch(Int kind, Addr a, UWord size, ULong t)
{
   Int   g;
   ULong base = in_head ? t_base : win_c0;
   if (t <= base)
      return;
   if (in_head) {
      if (t - base <= WIN_HEAD)
         head_units(kind, a, size, t - base);
      return;
   }
   for (g = 0; g < (WS_(lines_on)() ? 2 : 1); g++) {
      UInt  shift = g == 0 ? WS_(clo).page_shift : WS_(clo).line_shift;
      UWord x;
      for (x = a >> shift; x <= (a + size - 1) >> shift; x++)
         win_touch(stream_index(kind, g), x, t - base);
   }
}

static void window_due(void);
static void window_ends(void);

/* The next window's start, an event of the sampler's clock; its end
   and the head's are events too (window_ends, head_ends). */
static void plan_window(void)
{
   ULong j = mix(next_k ^ (period << 24))
             % (period - 2 * WIN_SPAN - WIN_SPAN / 4);
   WS_(sampler_call_at)(next_k * period + j, window_due);
}

/* P doubles: the windows at odd k are dropped, the others renumbered. */
static void thin(void)
{
   UInt i, kept = 0;
   period *= 2;
   for (i = 0; i < n_windows; i++)
      if (windows[i].k % 2 == 0) {
         windows[kept] = windows[i];
         windows[kept++].k /= 2;
      }
   n_windows = kept;
}

/* From the sampler's boundary handler, where the clock may be
   rescheduled (not from the IR's helpers). */
static void window_due(void)
{
   ULong k = next_k;
   if (n_windows == WIN_MAX) {
      thin();
      if (k % 2 != 0) {
         next_k = (k + 1) / 2;
         plan_window();
         return;
      }
      k /= 2;
   }
   next_k = k + 1;
   window_open(k);
   WS_(sampler_call_at)(win_c0 + win_warm + WIN_SPAN, window_ends);
}

static void window_ends(void)
{
   window_close(True);
   plan_window();
}

static void head_ends(void)
{
   head_close();
   plan_window();
}

/*------------------------------------------------------------*/
/*--- Sampled mode: the estimates                          ---*/
/*------------------------------------------------------------*/

static double root(double v)           /* Newton's, for v >= 0 */
{
   double r = v > 1 ? v : 1;
   Int    i;
   if (v <= 0)
      return 0;
   for (i = 0; i < 64; i++)
      r = (r + v / r) / 2;
   return r;
}

/* A ratio estimate sum x / sum n over the windows, and its standard
   error from their spread (the ratio estimator's: windows cut short
   weigh less); |x| and |n| pick a window's numerator and denominator. */
typedef struct { double value, err; Bool has_err; } Estimate;

static Estimate estimate(ULong (*x)(const Window*, Int, Int),
                         ULong (*n)(const Window*, Int), Int i, Int j)
{
   Estimate e = { 0, 0, False };
   double   sx = 0, sn = 0, r, dev = 0;
   UInt     k;
   for (k = 0; k < n_windows; k++) {
      sx += x(&windows[k], i, j);
      sn += n(&windows[k], i);
   }
   if (sn == 0)
      return e;
   e.value = r = sx / sn;
   if (n_windows < 2)
      return e;
   for (k = 0; k < n_windows; k++) {
      double d = x(&windows[k], i, j) - r * n(&windows[k], i);
      dev += d * d;
   }
   e.err = root(dev / (n_windows - 1) / n_windows) / (sn / n_windows);
   e.has_err = True;
   return e;
}

static ULong x_s(const Window* w, Int i, Int j)   { return w->st[i].s[j]; }
static ULong x_m(const Window* w, Int i, Int j)   { return w->st[i].m[j]; }
static ULong x_lru(const Window* w, Int i, Int j) { return w->st[i].lru[j]; }
static ULong x_refs(const Window* w, Int i, Int j) { return w->st[i].refs; }
static ULong n_insns(const Window* w, Int i)      { return w->n; }
static ULong n_refs(const Window* w, Int i)       { return w->st[i].refs; }

/* |v| with |decimals| decimals, rounded half up. */
static void format_double(HChar* buf, double v, UInt decimals)
{
   ULong scale = 1;
   UInt  i;
   for (i = 0; i < decimals; i++)
      scale *= 10;
   format_ratio(buf, (ULong)(v * scale + 0.5), scale, decimals);
}

/* The largest cache size the windows answer for stream |i|: the least
   warm-up footprint. */
static ULong window_sizes(Int i)
{
   ULong least = ~0ULL;
   UInt  k;
   for (k = 0; k < n_windows; k++)
      if (windows[k].st[i].warm_units < least)
         least = windows[k].st[i].warm_units;
   return least;
}

/* The run's value: the head's exact |hx| over |hn|, and the windows'
   ratio |e| over the |rest| (instants or references) after it (the
   head's own ratio when no window was taken). */
static Estimate combine(Estimate e, double hx, double hn, double rest)
{
   Estimate c = { 0, 0, False };
   double   total = hn + rest;
   if (total <= 0)
      return c;
   if (n_windows == 0)
      e.value = hn > 0 ? hx / hn : 0;
   c.value   = (hx + rest * e.value) / total;
   c.err     = rest / total * e.err;
   c.has_err = e.has_err;
   return c;
}

/* The pages' curve of |kind| above the windows' taus, up to the first
   power of two at or above the run's |k| instants (ws_curves_epochs.c):
   where the epochs bound it, their estimate and the farther bound's
   distance ("from epochs"); below, the middle and half the width of
   what monotony leaves between the windows' values at WIN_SPAN
   (|s_w|, |m_w|) and the epochs' one-sided bounds ("from bounds"). */
static void epochs_curve(Int kind, Estimate s_w, Estimate m_w, ULong k,
                         Bool out)
{
   static WS_EpochPoint pts[64];
   Int   j;
   HChar v[32], m[32], ve[32], me[32];
   WS_(epochs_curve)(kind, pts);
   for (j = bits(WIN_SPAN); j < 64; j++) {
      const WS_EpochPoint* p = &pts[j];
      double s_val, s_err, m_val, m_err;
      if (p->sure) {
         s_val = p->s;
         m_val = p->m;
         s_err = p->s_hi - s_val > s_val - p->s_lo ? p->s_hi - s_val
                                                    : s_val - p->s_lo;
         m_err = p->m_hi - m_val > m_val - p->m_lo ? p->m_hi - m_val
                                                    : m_val - p->m_lo;
      } else {
         double s_lo = s_w.value < p->s_hi ? s_w.value : p->s_hi;
         double m_hi = m_w.value > p->m_lo ? m_w.value : p->m_lo;
         s_val = (s_lo + p->s_hi) / 2;
         s_err = (p->s_hi - s_lo) / 2;
         m_val = (p->m_lo + m_hi) / 2;
         m_err = (m_hi - p->m_lo) / 2;
      }
      format_double(v, s_val, 3);
      format_double(m, m_val * 1000, 3);
      format_double(ve, s_err, 3);
      format_double(me, m_err * 1000, 3);
      if (out) {
         WS_(out_printf)("curve run %s page tau %llu s %s m %s s-err %s "
                         "m-err %s from %s", WS_(kind_name)(kind),
                         1ULL << j, v, m, ve, me,
                         p->sure ? "epochs" : "bounds");
         WS_(out_end_line)();
      } else {
         VG_(gdb_printf)("  %'12llu %12s %10s   +-%s +-%s (%s)\n",
                         1ULL << j, v, m, ve, me,
                         p->sure ? "epochs" : "bounds");
      }
      if (1ULL << j >= k)
         break;
   }
}

/* One estimated curve and miss-ratio curve, as records (|out|) or a
   table for "ws curves" (|out| False). */
static void sampled_curve(Int kind, Int g, Bool out)
{
   static const HChar* unit_name[2] = { "page", "line" };
   Int      i = stream_index(kind, g), j, b = bits(TAU_MIN) - 1;
   HChar    v[32], m[32], ve[32], me[32];
   Estimate s_at[WIN_TAUS], m_at[WIN_TAUS], refs;
   ULong    c, answered = n_windows ? window_sizes(i) : head.units[i];
   ULong    now_at = WS_(clock_insns)() - t_base;
   double   rest = now_at > head.k ? (double)(now_at - head.k) : 0;
   double   rest_refs;
   refs = combine(estimate(x_refs, n_insns, i, 0), head.refs[i], head.k,
                  rest);
   rest_refs = refs.value * (head.k + rest) - head.refs[i];
   for (j = 0; j < WIN_TAUS; j++) {
      s_at[j] = combine(estimate(x_s, n_insns, i, j),
                        head.s_sum[i][b + j], head.k, rest);
      m_at[j] = combine(estimate(x_m, n_insns, i, j),
                        head.misses[i][b + j], head.k, rest);
      format_double(v, s_at[j].value, 3);
      format_double(m, m_at[j].value * 1000, 3);
      format_double(ve, s_at[j].err, 3);
      format_double(me, m_at[j].err * 1000, 3);
      if (out) {
         WS_(out_printf)("curve run %s %s tau %llu s %s m %s",
                         WS_(kind_name)(kind), unit_name[g],
                         (ULong)TAU_MIN << j, v, m);
         if (s_at[j].has_err)
            WS_(out_printf)(" s-err %s m-err %s", ve, me);
         WS_(out_printf)(" from windows");
         WS_(out_end_line)();
      } else {
         VG_(gdb_printf)("  %'12llu %12s %10s   +-%s +-%s\n",
                         (ULong)TAU_MIN << j, v, m, ve, me);
      }
   }
   if (g == 0)
      epochs_curve(kind, s_at[WIN_TAUS - 1], m_at[WIN_TAUS - 1],
                   now_at, out);
   if (!out)
      VG_(gdb_printf)("  %12s %12s\n", g ? "lines" : "pages", "LRU miss");
   for (j = 0, c = 1; j < WIN_SIZES; j++, c *= 2) {
      const HChar* from = "windows";
      Estimate     e = { 0, 0, False };
      if (c <= answered) {
         e = combine(estimate(x_lru, n_refs, i, j), head.lru_misses[i][j],
                     head.refs[i], rest_refs);
      } else {
         /* HOTL: the miss ratio at the tau whose s is c, s and m
            interpolated linearly in log tau */
         Int    k;
         double f;
         for (k = 0; k + 1 < WIN_TAUS && s_at[k + 1].value < c; k++)
            ;
         if (k + 1 == WIN_TAUS || s_at[k].value > c || refs.value <= 0)
            break;
         f = s_at[k + 1].value > s_at[k].value
             ? (c - s_at[k].value) / (s_at[k + 1].value - s_at[k].value)
             : 0;
         e.value = (m_at[k].value + f * (m_at[k + 1].value - m_at[k].value))
                   / refs.value;
         if (e.value > 1)
            e.value = 1;
         from = "footprint";
      }
      format_double(m, e.value, 4);
      format_double(me, e.err, 4);
      if (out) {
         WS_(out_printf)("mrc run %s %s size %llu miss %s",
                         WS_(kind_name)(kind), unit_name[g], c, m);
         if (e.has_err)
            WS_(out_printf)(" miss-err %s", me);
         WS_(out_printf)(" from %s", from);
         WS_(out_end_line)();
      } else {
         VG_(gdb_printf)("  %'12llu %12s%s%s   (%s)\n", c, m,
                         e.has_err ? "   +-" : "", e.has_err ? me : "",
                         from);
      }
   }
}

static void pool_trailer(const Pool* p);

static void sampled_trailer(void)
{
   Int kind, g;
   if (in_head) {
      /* the run ended in its head: its curves are exact */
      head_close();
      pool_trailer(&head);
      return;
   }
   if (WS_(observing))
      /* a window cut short: dropped, so that the estimates are the
         ones "ws curves" gives once measurement is off */
      window_close(False);
   for (kind = 0; kind < 2; kind++)
      for (g = 0; g < (WS_(lines_on)() ? 2 : 1); g++)
         sampled_curve(kind, g, True);
}

static void sampled_monitor(Int kind, Int g)
{
   if (in_head) {
      VG_(gdb_printf)("the run, %s %ss: in its first %'u instructions, "
                      "observed whole; the curves come at their end\n",
                      kind == WS_Insn ? "code" : "data", g ? "line" : "page",
                      WIN_HEAD);
      return;
   }
   VG_(gdb_printf)("the run, %s %ss: its first %'llu instructions and "
                   "estimates from %u windows (%'u instructions measured "
                   "in each)\n",
                   kind == WS_Insn ? "code" : "data", g ? "line" : "page",
                   head.k, n_windows, WIN_SPAN);
   VG_(gdb_printf)("  %12s %12s %10s   %s\n", "tau", "s", "m",
                   "standard errors");
   sampled_curve(kind, g, False);
}

static void sampled_after_fork(void)
{
   if (in_head)
      head_close();
   else if (WS_(observing))
      window_close(False);
   n_windows = 0;
   period    = WIN_P0;
   head_open();
   next_k    = (t_base + WIN_HEAD) / period + 1;
   WS_(sampler_call_at)(t_base + WIN_HEAD, head_ends);
}

/*------------------------------------------------------------*/
/*--- The helpers and the pass                             ---*/
/*------------------------------------------------------------*/

#define REP_FLAG 0x10000     /* in curves_insn's |len_rep| */

/* Instruction |a| begins (its length in |len_rep|'s low bits, and
   REP_FLAG when it is a rep string instruction counted once). */
static VG_REGPARM(2) void curves_insn(Addr a, UWord len_rep)
{
   Bool rep = (len_rep & REP_FLAG) != 0;
   if (!WS_(measuring))
      return;
   if (!(rep && a == rep_at))
      now++;
   rep_at = rep ? a : 0;
   touch_units(WS_Insn, a, len_rep & (REP_FLAG - 1));
}

static VG_REGPARM(2) void curves_data(Addr a, UWord size)
{
   if (WS_(measuring) && size > 0)
      touch_units(WS_Data, a, size);
}

static void add_call(IRSB* sb, const HChar* name, void* fn, IRExpr* a,
                     IRExpr* b, IRExpr* guard)
{
   IRDirty* d = unsafeIRDirty_0_N(2, name, VG_(fnptr_to_fnentry)(fn),
                                  mkIRExprVec_2(a, b));
   if (guard != NULL)
      d->guard = guard;
   addStmtToIRSB(sb, IRStmt_Dirty(d));
}

/* Runs before the core's pass: a call at every instruction, after its
   IMark, and before every data access (guarded as the access is). */
static IRSB* curves_pass(IRSB* sbIn, const VexGuestLayout* layout,
                         const VexGuestExtents* vge)
{
   const WS_Access* access = WS_(find_accesses)(sbIn);
   IRSB* sb = deepCopyIRSBExceptStmts(sbIn);
   Int   i;
   for (i = 0; i < sbIn->stmts_used; i++) {
      IRStmt* st = sbIn->stmts[i];
      if (access[i].addr != NULL)
         add_call(sb, "ws_curves_data", curves_data, access[i].addr,
                  mkIRExpr_HWord(access[i].size), access[i].guard);
      addStmtToIRSB(sb, st);
      if (st->tag == Ist_IMark) {
         Addr  a   = st->Ist.IMark.addr;
         UInt  len = st->Ist.IMark.len;
         UWord arg = len;
         if (WS_(clo).count_rep_once && WS_(is_rep_string)(a, len))
            arg |= REP_FLAG;
         add_call(sb, "ws_curves_insn", curves_insn, mkIRExpr_HWord(a),
                  mkIRExpr_HWord(arg), NULL);
      }
   }
   return sb;
}

/*------------------------------------------------------------*/
/*--- Regions                                              ---*/
/*------------------------------------------------------------*/

static Pool* pool_named(const HChar* label)
{
   Word i;
   Pool fresh;
   if (region_pools == NULL)
      region_pools = VG_(newXA)(VG_(malloc), "ws.curves.regions",
                                VG_(free), sizeof(Pool));
   for (i = 0; i < VG_(sizeXA)(region_pools); i++) {
      Pool* p = VG_(indexXA)(region_pools, i);
      if (VG_STREQ(p->label, label))
         return p;
   }
   VG_(memset)(&fresh, 0, sizeof fresh);
   fresh.label = VG_(strdup)("ws.curves.label", label);
   VG_(addToXA)(region_pools, &fresh);
   return VG_(indexXA)(region_pools, VG_(sizeXA)(region_pools) - 1);
}

/* A region is a run of its own: its time starts at its start, its
   caches are cold; the regions of one name add up. */
static void curves_started(const WS_Event* ev)
{
   if (region_scope.open)
      scope_close(&region_scope, NULL);
   scope_open(&region_scope);
}

static void curves_stopped(const WS_Event* ev)
{
   const HChar* label = WS_(region_label)();
   if (!region_scope.open)
      return;
   scope_close(&region_scope, WS_(region_first) != 0 && label != NULL
                              ? pool_named(label) : NULL);
}

/*------------------------------------------------------------*/
/*--- Start-up and the trailer                             ---*/
/*------------------------------------------------------------*/

void WS_(curves_init)(void)
{
   if (WS_(clo).curves == WS_CurvesSampled) {
      superblocks = VG_(HT_construct)("ws.curves.superblocks");
      WS_(add_instrument_pass)(note_superblock);
      WS_(observe_with)(&observer);
      WS_(epochs_init)();
      head_open();
      WS_(sampler_call_at)(t_base + WIN_HEAD, head_ends);
      WS_(listen)(WS_EvThreadRuns, thread_runs);
      return;
   }
   if (WS_(clo).curves != WS_CurvesExact)
      return;
   scope_open(&run_scope);
   WS_(set_first_pass)(curves_pass);
   WS_(listen)(WS_EvStart, curves_started);
   WS_(listen)(WS_EvStop, curves_stopped);
}

/* |num| / |den| with |decimals| decimals, rounded half up, exactly. */
static void format_ratio(HChar* buf, ULong num, ULong den, UInt decimals)
{
   ULong scale = 1, q, frac;
   UInt  i;
   for (i = 0; i < decimals; i++)
      scale *= 10;
   if (den == 0) {
      num = 0;
      den = 1;
   }
   q    = num / den;
   frac = ((num % den) * 2 * scale + den) / (2 * den);
   if (frac == scale) {
      q++;
      frac = 0;
   }
   VG_(sprintf)(buf, decimals == 3 ? "%llu.%03llu" : "%llu.%04llu", q,
                frac);
}

static void pool_trailer(const Pool* p)
{
   static const HChar* unit_name[2] = { "page", "line" };
   HChar scope[200], s[32], m[32];
   Int   kind, g;
   if (p->k == 0)
      return;
   if (p->label == NULL) {
      VG_(strcpy)(scope, "run");
   } else {
      VG_(strcpy)(scope, "region:");
      WS_(escape_into)(p->label, WS_EscWord, scope + 7, sizeof scope - 7);
   }
   for (kind = 0; kind < 2; kind++)
      for (g = 0; g < (WS_(lines_on)() ? 2 : 1); g++) {
         Int   i = stream_index(kind, g);
         ULong tau, c;
         UInt  j;
         for (j = bits(TAU_MIN) - 1, tau = TAU_MIN;; j++, tau *= 2) {
            format_ratio(s, p->s_sum[i][j], p->k, 3);
            format_ratio(m, p->misses[i][j] * 1000, p->k, 3);
            WS_(out_printf)("curve %s %s %s tau %llu s %s m %s", scope,
                            WS_(kind_name)(kind), unit_name[g], tau, s, m);
            WS_(out_end_line)();
            if (tau >= p->k)
               break;
         }
         for (j = 0, c = 1;; j++, c *= 2) {
            format_ratio(m, p->lru_misses[i][j], p->refs[i], 4);
            WS_(out_printf)("mrc %s %s %s size %llu miss %s", scope,
                            WS_(kind_name)(kind), unit_name[g], c, m);
            WS_(out_end_line)();
            if (c >= p->units[i])
               break;
         }
      }
}

/* "ws curves": one curve of |sc| so far, as a table. */
static void scope_monitor(Scope* sc, const HChar* what, Int kind,
                          Int g)
{
   static Pool p;          /* a curve's sums so far: too big for the stack */
   Int   i = stream_index(kind, g);
   ULong tau, c;
   UInt  j;
   HChar s[32], m[32];
   VG_(memset)(&p, 0, sizeof p);
   p.k = now - sc->t0;
   stream_finish(&sc->st[i], p.k, &p, i);
   VG_(gdb_printf)("%s, %s %ss: %'llu instructions so far\n", what,
                   kind == WS_Insn ? "code" : "data", g ? "line" : "page",
                   p.k);
   if (p.k == 0)
      return;
   VG_(gdb_printf)("  %12s %12s %10s\n", "tau", "s", "m");
   for (j = bits(TAU_MIN) - 1, tau = TAU_MIN;; j++, tau *= 2) {
      format_ratio(s, p.s_sum[i][j], p.k, 3);
      format_ratio(m, p.misses[i][j] * 1000, p.k, 3);
      VG_(gdb_printf)("  %'12llu %12s %10s\n", tau, s, m);
      if (tau >= p.k)
         break;
   }
   VG_(gdb_printf)("  %12s %12s\n", g ? "lines" : "pages", "LRU miss");
   for (j = 0, c = 1;; j++, c *= 2) {
      format_ratio(m, p.lru_misses[i][j], p.refs[i], 4);
      VG_(gdb_printf)("  %'12llu %12s\n", c, m);
      if (c >= p.units[i])
         break;
   }
}

void WS_(curves_monitor)(WS_Kind kind, Bool lines)
{
   if (WS_(clo).curves == WS_CurvesNo) {
      VG_(gdb_printf)("ws curves: the curves are not measured in this run "
                      "(--ws-curves=no)\n");
      return;
   }
   if (lines && !WS_(lines_on)()) {
      VG_(gdb_printf)("ws curves: lines are not measured in this run "
                      "(--ws-linesize=0)\n");
      return;
   }
   if (WS_(clo).curves == WS_CurvesSampled) {
      sampled_monitor(kind, lines);
      return;
   }
   scope_monitor(&run_scope, "the run", kind, lines);
   if (region_scope.open)
      scope_monitor(&region_scope, "the open region", kind, lines);
}

/* A forked child's file holds none of the parent's samples, and none
   of its curves: the child's run (and an open region) starts at the
   fork, with cold caches. */
void WS_(curves_after_fork)(void)
{
   Word i;
   if (WS_(clo).curves == WS_CurvesSampled) {
      sampled_after_fork();
      WS_(epochs_after_fork)();
   }
   if (WS_(clo).curves != WS_CurvesExact)
      return;
   scope_close(&run_scope, NULL);
   scope_open(&run_scope);
   VG_(memset)(&run_pool, 0, sizeof run_pool);
   if (region_scope.open) {
      scope_close(&region_scope, NULL);
      scope_open(&region_scope);
   }
   for (i = 0; region_pools != NULL && i < VG_(sizeXA)(region_pools); i++)
      VG_(free)(((Pool*)VG_(indexXA)(region_pools, i))->label);
   if (region_pools != NULL)
      VG_(deleteXA)(region_pools);
   region_pools = NULL;
}

void WS_(curves_trailer)(void)
{
   Word i;
   if (WS_(clo).curves == WS_CurvesSampled)
      sampled_trailer();
   if (WS_(clo).curves != WS_CurvesExact)
      return;
   if (run_scope.open)
      scope_close(&run_scope, &run_pool);
   pool_trailer(&run_pool);
   for (i = 0; region_pools != NULL && i < VG_(sizeXA)(region_pools); i++)
      pool_trailer(VG_(indexXA)(region_pools, i));
}

/*--------------------------------------------------------------------*/
/*--- end                                               ws_curves.c ---*/
/*--------------------------------------------------------------------*/

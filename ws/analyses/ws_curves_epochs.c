/*--------------------------------------------------------------------*/
/*--- ws: the sampled curves' long taus, from ws's epochs.         ---*/
/*---                                           ws_curves_epochs.c ---*/
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

/* Owns what --ws-curves=sampled knows of s(tau) and m(tau) at the
   taus above its windows' (docs/design.md, "Sampled locality curves",
   the long taus): of pages, instructions and data, over the whole
   run, with no sampling.

   Each page's first touch in each of ws's epochs is a slow-path call
   of the core (event WS_EvTouched).  Here each page keeps the time of
   its first touch in its latest epoch (8 bytes a page, in a table of
   records beside the core's), and a ring keeps when the recent epochs
   began.  At a page's first touch t in a new epoch, its previous touch
   lay in [a, end(e)], a its first touch in its previous epoch e: the
   gap since is between t - end(e) and t - a.  Three sets of the exact
   mode's gap bins (ws_curves.c, tests/curve_oracle.py: count and sum
   per (2^k, 2^(k+1)]) take the shortest possible gap, the midpoint
   t - (a + end(e))/2 and the longest; the tails, K + 1 - the last
   touch, likewise at the end, from one walk of the records.  A first
   touch ever adds to U and to the sum of first touches.

   The gaps within an epoch are never seen.  Each is shorter than its
   epoch, so none exceeds a tau at or above the longest epoch: for those
   taus the curves need only the gaps seen, and since s falls and m
   rises as any gap grows, the shortest and longest gaps bound them,
   surely (up to the clock's lag of a superblock at the slow path);
   the midpoint is the estimate.  At shorter taus the gaps not seen can
   only lower s and add misses: the shortest gaps seen still give an
   upper bound of s and a lower bound of m, and nothing more. */

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"

#include "ws_analyses.h"

#define BINS       64
#define RING_BITS  16                  /* epochs whose start is known */
#define RING       (1u << RING_BITS)

enum { LO, MID, HI, N_EST };           /* the shortest gap, midpoint, longest */

typedef struct {
   ULong units;                        /* U */
   ULong first_sum;                    /* sum of first touches (from t0) */
   ULong gap_n[N_EST][BINS], gap_s[N_EST][BINS];
} Bins;

static WS_PageTable first_in_epoch[2]; /* per page: ULong, absolute time */
static Bins   bins[2];
static ULong* epoch_start;             /* ring, by stamp */
static ULong  longest_epoch = 0;       /* of the epochs that ended */
static ULong  t0 = 0;                  /* the clock at the run's start */

static UInt bits(ULong x)
{
   return x == 0 ? 0 : 64 - __builtin_clzll(x);
}

static void add_gap(ULong n[BINS], ULong s[BINS], ULong g)
{
   if (g > 1) {
      UInt k = bits(g - 1) - 1;
      n[k]++;
      s[k] += g;
   }
}

/* The last instant of epoch |e|, as far as the ring knows: an epoch
   that left it ended before the oldest start it holds. */
static ULong epoch_end(Stamp e)
{
   Stamp cur = WS_(cur_stamp);
   if (e >= cur)
      return WS_(clock_insns)();
   if (cur - (e + 1) >= RING)
      e = cur - RING;
   return epoch_start[(e + 1) & (RING - 1)];
}

/* |t| bounds the gap from a previous touch in [a, end] to |t| (all
   clamped so that a <= end <= t). */
static void add_gaps(ULong n[N_EST][BINS], ULong s[N_EST][BINS], ULong a,
                     ULong end, ULong t)
{
   if (end > t)
      end = t;
   if (a > end)
      a = end;
   add_gap(n[LO], s[LO], t - end);
   add_gap(n[MID], s[MID], t - (a + end) / 2);
   add_gap(n[HI], s[HI], t - a);
}

static void touched(const WS_Event* ev)
{
   ULong* a = WS_(pt_record)(&first_in_epoch[ev->kind], ev->page);
   ULong  t = WS_(clock_insns)() + 1;
   Bins*  b = &bins[ev->kind];
   if (*a <= t0) {
      b->units++;
      b->first_sum += t - t0;
   } else {
      add_gaps(b->gap_n, b->gap_s, *a,
               epoch_end(ev->stamp & WS_STAMP_MASK), t);
   }
   *a = t;
}

static void epoch_began(const WS_Event* ev)
{
   ULong now = WS_(clock_insns)();
   ULong len = now - epoch_start[(ev->stamp - 1) & (RING - 1)];
   if (len > longest_epoch)
      longest_epoch = len;
   epoch_start[ev->stamp & (RING - 1)] = now;
}

void WS_(epochs_init)(void)
{
   Int kind;
   for (kind = 0; kind < 2; kind++)
      WS_(pt_init_records)(&first_in_epoch[kind], sizeof(ULong));
   epoch_start = VG_(calloc)("ws.curves.epochs", RING, sizeof(ULong));
   t0 = WS_(clock_insns)();
   epoch_start[WS_(cur_stamp) & (RING - 1)] = t0;
   WS_(listen)(WS_EvTouched, touched);
   WS_(listen)(WS_EvEpoch, epoch_began);
}

void WS_(epochs_after_fork)(void)
{
   /* the records of the parent's pages are at or before t0: first
      touches of the child's */
   t0 = WS_(clock_insns)();
   VG_(memset)(bins, 0, sizeof bins);
}

/* The tails of the pages of one kind, from the records. */
typedef struct {
   const WS_PageTable* stamps;
   ULong               end;            /* the last instant */
   ULong               (*n)[BINS], (*s)[BINS];
} Tails;

static void add_tail(Stamp* slot, Addr page, void* opaque)
{
   Tails*       tl = opaque;
   ULong        a  = *(ULong*)slot;
   const Stamp* st;
   if (a <= t0)
      return;
   st = WS_(pt_record_if_any)(tl->stamps, page);
   /* the tail from a last touch in [a, end(e)] to K + 1 */
   add_gaps(tl->n, tl->s, a,
            st ? epoch_end(*st & WS_STAMP_MASK) : tl->end, tl->end + 1);
}

void WS_(epochs_curve)(WS_Kind kind, WS_EpochPoint pts[BINS])
{
   static ULong n[N_EST][BINS], s[N_EST][BINS];
   const Bins*  b = &bins[kind];
   ULong        now = WS_(clock_insns)(), k = now - t0;
   ULong        open = now - epoch_start[WS_(cur_stamp) & (RING - 1)];
   Tails        tl = { &WS_(tables)[kind], now, n, s };
   double       v[2][N_EST];
   Int          e, j;
   VG_(memset)(pts, 0, BINS * sizeof *pts);
   if (k == 0)
      return;
   VG_(memcpy)(n, b->gap_n, sizeof n);
   VG_(memcpy)(s, b->gap_s, sizeof s);
   WS_(pt_for_all)(&first_in_epoch[kind], add_tail, &tl);
   for (j = BINS - 1; j >= 0; j--) {
      ULong tau = 1ULL << j;
      for (e = 0; e < N_EST; e++) {
         ULong above_n = 0, above_s = 0, gaps = 0;
         Int   i;
         for (i = BINS - 1; i >= j; i--) {
            above_n += n[e][i];
            above_s += s[e][i];
            gaps += b->gap_n[e][i];    /* the gaps alone, not the tails */
         }
         v[0][e] = ((double)(b->units * (k + 1)) - (double)b->first_sum
                    - ((double)above_s - (double)tau * above_n)) / k;
         v[1][e] = (double)(b->units + gaps) / k;
      }
      /* the longest gaps give the least s and the most misses */
      pts[j].s    = v[0][MID];
      pts[j].s_lo = v[0][HI];
      pts[j].s_hi = v[0][LO];
      pts[j].m    = v[1][MID];
      pts[j].m_lo = v[1][LO];
      pts[j].m_hi = v[1][HI];
      pts[j].sure = tau >= k || (tau >= longest_epoch && tau >= open);
   }
}

/*--------------------------------------------------------------------*/
/*--- end                                        ws_curves_epochs.c ---*/
/*--------------------------------------------------------------------*/

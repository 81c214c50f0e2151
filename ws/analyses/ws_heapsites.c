/*--------------------------------------------------------------------*/
/*--- ws: allocation sites' heap usage, written.  ws_heapsites.c ---*/
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

/* Owns how the sums of ws_heapuse.c reach people: the figures of a
   site (usage, the means, the useful-lifetime score) and its rank, the
   trailer's heap-site lines and each site's heap-chunk records, "ws
   heap", and the heap-window lines that
   say, at a data peak, how much of each heap owner's live bytes lie in
   the window (docs/output-format.md).  It computes nothing but those
   figures from the sums. */

#include "pub_tool_basics.h"
#include "pub_tool_gdbserver.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_xarray.h"

#include "ws_analyses.h"

/*------------------------------------------------------------*/
/*--- Figures                                              ---*/
/*------------------------------------------------------------*/

ULong WS_(heapuse_mean)(ULong sum, ULong n)
{
   return n == 0 ? 0 : (sum + n / 2) / n;
}

/* A site whose chunks hold no byte wastes none.  With
   --ws-heap-usage=exact only the bytes of chunks both read and written
   count (the paper's Useless function). */
ULong WS_(heapuse_usage_milli)(const WS_SiteSums* s)
{
   if (s->ended_bytes == 0)
      return 1000;
   return (s->usage_bytes * 1000 + s->ended_bytes / 2) / s->ended_bytes;
}

ULong WS_(heapuse_useful_milli)(const WS_SiteSums* s)
{
   if (s->ended == 0)
      return 1000;
   return (ULong)(s->useful * 1000.0 / (Double)s->ended + 0.5);
}

ULong WS_(heapuse_lifetime_milli)(const WS_SiteSums* s)
{
   return (ULong)(s->lifetime_score * 1000.0 + 0.5);
}

/* Whether the product of the fractions 2000 f[i] / x is below 1, in a
   mantissa and an exponent of two, which cannot underflow. */
static Bool product_below_one(const Double* f, UInt n, ULong x)
{
   Double r = 1.0;
   Long   e = 0;
   UInt   i;
   for (i = 0; i < n; i++) {
      r *= 2000.0 * f[i] / (Double)x;
      if (r == 0.0)
         return True;
      while (r >= 2.0) {
         r /= 2.0;
         e++;
      }
      while (r < 1.0) {
         r *= 2.0;
         e--;
      }
   }
   return e < 0;
}

/* The m from 0 to 1000 with ((2m - 1) / 2000)^n <= the product of the
   fractions f[i] < ((2m + 1) / 2000)^n: their geometric mean rounded
   half up, without a libm. */
ULong WS_(geo_mean_milli)(const Double* f, UInt n)
{
   ULong lo = 0, hi = 1000;
   if (n == 0)
      return 1000;
   while (lo < hi) {
      ULong m = (lo + hi) / 2;
      if (product_below_one(f, n, 2 * m + 1))
         hi = m;
      else
         lo = m + 1;
   }
   return lo;
}

/* The three scores as fractions, unrounded. */
static Double usage_of(const WS_SiteSums* s)
{
   return s->ended_bytes == 0 ? 1.0
          : (Double)s->usage_bytes / (Double)s->ended_bytes;
}

static Double useful_of(const WS_SiteSums* s)
{
   return s->ended == 0 ? 1.0 : s->useful / (Double)s->ended;
}

static Double score_of(const WS_SiteSums* s, UInt k)
{
   return k == 0 ? s->lifetime_score : k == 1 ? usage_of(s) : useful_of(s);
}

ULong WS_(heapuse_score_milli)(const WS_SiteSums* s)
{
   Double f[3];
   UInt k;
   for (k = 0; k < 3; k++)
      f[k] = score_of(s, k);
   return WS_(geo_mean_milli)(f, 3);
}

ULong WS_(heapuse_rank_value)(const WS_SiteSums* s, WS_HeapKey key)
{
   switch (key) {
   case WS_KeyUsage:
      return s->ended_bytes - s->usage_bytes;
   case WS_KeyUseful:
      return s->ended == 0 ? 0
           : (ULong)((Double)s->ended_bytes
                     * (1.0 - s->useful / (Double)s->ended) + 0.5);
   case WS_KeyBytes:
      return s->bytes;
   case WS_KeyNever:
      return s->never_bytes;
   case WS_KeyScore:
      return ((1000 - WS_(heapuse_score_milli)(s)) * s->bytes + 500) / 1000;
   }
   return 0;
}

static WS_HeapKey sort_key;

static Int cmp_worst(const void* av, const void* bv)
{
   const WS_SiteUse* a = av;
   const WS_SiteUse* b = bv;
   ULong va = WS_(heapuse_rank_value)(&a->sums, sort_key);
   ULong vb = WS_(heapuse_rank_value)(&b->sums, sort_key);
   UInt  ea, eb;
   if (va != vb)
      return va > vb ? -1 : 1;
   if (a->sums.bytes != b->sums.bytes)
      return a->sums.bytes > b->sums.bytes ? -1 : 1;
   ea = VG_(get_ECU_from_ExeContext)(a->site);
   eb = VG_(get_ECU_from_ExeContext)(b->site);
   return ea < eb ? -1 : ea > eb ? 1 : 0;
}

void WS_(heapuse_sort)(WS_SiteUse* sites, UInt n, WS_HeapKey key)
{
   sort_key = key;
   VG_(ssort)(sites, n, sizeof *sites, cmp_worst);
}

static void milli_text(ULong milli, HChar* buf)
{
   VG_(sprintf)(buf, "%llu.%03llu", milli / 1000, milli % 1000);
}

/*------------------------------------------------------------*/
/*--- The trailer                                          ---*/
/*------------------------------------------------------------*/

/* " <key> <t>", or " <key> -" for WS_NO_TIME. */
static void time_or_dash(const HChar* key, ULong t)
{
   if (t == WS_NO_TIME)
      WS_(out_printf)(" %s -", key);
   else
      WS_(out_printf)(" %s %llu", key, t);
}

/* The heap-chunk lines of the site numbered |id|: its records. */
static void chunk_lines(UInt id, ExeContext* site)
{
   UInt n, k;
   const WS_ChunkRec* r = WS_(heapuse_records)(site, &n);
   for (k = 0; k < n; k++, r++) {
      WS_(out_printf)("heap-chunk %u alloc %llu", id, r->alloc_t);
      time_or_dash("free", r->free_t);
      WS_(out_printf)(" size %llu", r->size);
      time_or_dash("first", r->first_t);
      time_or_dash("last", r->last_t);
      time_or_dash("lo", r->lo);
      time_or_dash("hi", r->hi);
      if (WS_(clo).heap_exact)
         WS_(out_printf)(" reads %llu writes %llu", r->reads, r->writes);
      WS_(out_end_line)();
   }
}

/* The heap-scores line: the geometric mean over the sites of each of
   the three scores, the paper's global scores. */
static void global_scores(const WS_SiteUse* sites, UInt n)
{
   Double* f = VG_(malloc)("ws.heapsites.scores", n * sizeof *f);
   HChar   text[3][32];
   UInt    k, i;
   for (k = 0; k < 3; k++) {
      for (i = 0; i < n; i++)
         f[i] = score_of(&sites[i].sums, k);
      milli_text(WS_(geo_mean_milli)(f, n), text[k]);
   }
   VG_(free)(f);
   WS_(out_printf)("heap-scores lifetime %s usage %s useful %s", text[0],
                   text[1], text[2]);
   WS_(out_end_line)();
}

void WS_(heapsites_trailer)(void)
{
   WS_SiteUse* sites;
   UInt n, i;
   if (!WS_(clo).heap_usage)
      return;
   WS_(heapuse_end_live)();
   sites = WS_(heapuse_sites)(&n);
   WS_(heapuse_sort)(sites, n, WS_KeyUsage);
   for (i = 0; i < n; i++) {
      const WS_SiteSums* s = &sites[i].sums;
      ULong accessed = s->ended - s->never;
      HChar usage[32], useful[32], lifetime[32], score[32];
      /* the stack block, if it is not in the file yet, first */
      UInt stack = WS_(out_stack)(sites[i].site);
      milli_text(WS_(heapuse_usage_milli)(s), usage);
      milli_text(WS_(heapuse_useful_milli)(s), useful);
      WS_(out_printf)("heap-site %u %u chunks %llu bytes %llu peak-live %llu ",
                      i + 1, stack, s->chunks, s->bytes, s->peak_live);
      /* below the resolution, usage is a bound */
      if (s->below > 0)
         WS_(out_printf)("below-resolution %llu usage-max %s", s->below,
                         usage);
      else
         WS_(out_printf)("usage %s", usage);
      WS_(out_printf)(" never %llu read-only %llu write-only %llu",
                      s->never, s->read_only, s->write_only);
      WS_(out_printf)(" lifetime %llu first-delay %llu idle-tail %llu "
                      "useful %s threads %llu",
                      WS_(heapuse_mean)(s->lifetime, s->ended),
                      WS_(heapuse_mean)(s->first_delay, accessed),
                      WS_(heapuse_mean)(s->idle_tail, accessed), useful,
                      s->threads);
      WS_(out_printf)(" touched %llu interval %llu never-bytes %llu "
                      "exit-live %llu", s->touched, s->interval,
                      s->never_bytes, s->exit_live);
      milli_text(WS_(heapuse_lifetime_milli)(s), lifetime);
      milli_text(WS_(heapuse_score_milli)(s), score);
      WS_(out_printf)(" lifetime-score %s growth %llu score %s", lifetime,
                      s->growth, score);
      WS_(out_end_line)();
      chunk_lines(i + 1, sites[i].site);
   }
   if (n > 0)
      global_scores(sites, n);
   VG_(free)(sites);
}

/*------------------------------------------------------------*/
/*--- ws heap                                              ---*/
/*------------------------------------------------------------*/

static const HChar* const key_words[] = {
   "bytes never touched", "bytes idle after their last use",
   "bytes allocated", "bytes in chunks never touched",
   "bytes x (1 - score)"
};

void WS_(heapsites_monitor)(ULong n, WS_HeapKey key)
{
   WS_SiteUse* sites;
   UInt total, i;
   Bool lines;
   const HChar* unit =
      WS_(clo).time_unit == WS_TimeMillis ? "ms" : "instructions";
   sites = WS_(heapuse_sites)(&total);
   WS_(heapuse_sort)(sites, total, key);
   if (n > total)
      n = total;
   VG_(gdb_printf)("ws heap at t=%llu: the %llu worst of %u allocation "
                   "sites by %s\n", WS_(now)(), n, total, key_words[key]);
   /* what a chunk's touched bytes are known to (exact mode: the byte) */
   lines = WS_(lines_apart)() && !WS_(clo).heap_exact;
   VG_(gdb_printf)("  (%s of %u bytes; live chunks count as if freed "
                   "now; times in %s)\n", lines ? "lines" : "pages",
                   lines ? WS_(clo).linesize : WS_(page_size)(), unit);
   for (i = 0; i < n; i++) {
      const WS_SiteSums* s = &sites[i].sums;
      ULong accessed = s->ended - s->never;
      HChar usage[32], useful[32];
      milli_text(WS_(heapuse_usage_milli)(s), usage);
      milli_text(WS_(heapuse_useful_milli)(s), useful);
      VG_(gdb_printf)("  %u: %'llu %s\n", i + 1,
                      WS_(heapuse_rank_value)(s, key), key_words[key]);
      VG_(gdb_printf)("     %'llu chunk%s, %'llu bytes, peak live %'llu, "
                      "live now %'llu in %'llu chunk%s\n", s->chunks,
                      s->chunks == 1 ? "" : "s", s->bytes, s->peak_live,
                      s->live, s->live_chunks,
                      s->live_chunks == 1 ? "" : "s");
      if (s->below > 0)
         VG_(gdb_printf)("     %'llu chunk%s below the resolution: usage at "
                         "most %s, ", s->below, s->below == 1 ? "" : "s",
                         usage);
      else
         VG_(gdb_printf)("     usage %s, ", usage);
      VG_(gdb_printf)("never touched %'llu, read-only %'llu, write-only "
                      "%'llu, by several threads %'llu\n", s->never,
                      s->read_only, s->write_only, s->threads);
      VG_(gdb_printf)("     lifetime %'llu, first access after %'llu, idle "
                      "before the end %'llu, useful %s\n",
                      WS_(heapuse_mean)(s->lifetime, s->ended),
                      WS_(heapuse_mean)(s->first_delay, accessed),
                      WS_(heapuse_mean)(s->idle_tail, accessed), useful);
      WS_(show_stack)(WS_(monitor_file)(), sites[i].site, "     ", -1);
   }
   VG_(free)(sites);
}

/*------------------------------------------------------------*/
/*--- At a peak: the heap owners' bytes in the window      ---*/
/*------------------------------------------------------------*/

typedef struct {
   ExeContext* const* sites;
   UInt               n_sites;
   ULong*             bytes;     /* per site: bytes in the window */
   Addr               from, to;  /* the page being counted */
   /* The last chunk that covered a whole page: pages come in address
      order, so a big chunk costs one lookup, not one per page. */
   Addr               big_start, big_end;
   UInt               big_site;  /* its index in |sites|, or n_sites */
} WindowWalk;

static void count_chunk(WS_ChunkUse* c, void* opaque)
{
   WindowWalk* w = opaque;
   Addr start, end;
   ExeContext* site;
   SizeT size;
   UInt i;
   WS_(heapuse_chunk)(c, &start, &size, &site);
   for (i = 0; i < w->n_sites; i++)
      if (w->sites[i] == site)
         break;
   end = start + size;
   if (start <= w->from && end >= w->to) {
      w->big_start = start;
      w->big_end = end;
      w->big_site = i;
   }
   if (i == w->n_sites)
      return;
   if (start < w->from)
      start = w->from;
   if (end > w->to)
      end = w->to;
   if (end > start)
      w->bytes[i] += end - start;
}

static void count_window_page(Stamp* slot, Addr page, void* opaque)
{
   WindowWalk* w = opaque;
   const UChar* f = WS_(watch_mark)(page);
   if (f == NULL || !(*f & WS_HEAP_PAGE))
      return;
   w->from = page << WS_(page_shift)();
   w->to = w->from + WS_(page_size)();
   if (w->from >= w->big_start && w->to <= w->big_end) {
      if (w->big_site < w->n_sites)
         w->bytes[w->big_site] += WS_(page_size)();
      return;
   }
   WS_(heap_for_blocks_in)(w->from, w->to, count_chunk, w);
}

Bool WS_(heapsites_window)(const XArray* pages, ExeContext* const* sites,
                           UInt n_sites, ULong* live, ULong* window)
{
   WindowWalk w;
   Word p, n_pages = VG_(sizeXA)(pages);
   UInt i;
   if (!WS_(clo).heap_usage)
      return False;
   VG_(memset)(window, 0, n_sites * sizeof *window);
   w.sites = sites;
   w.n_sites = n_sites;
   w.bytes = window;
   w.big_start = w.big_end = 0;
   w.big_site = n_sites;
   for (p = 0; p < n_pages && n_sites > 0; p++)
      count_window_page(NULL, *(const Addr*)VG_(indexXA)(pages, p), &w);
   for (i = 0; i < n_sites; i++)
      live[i] = WS_(heapuse_live_bytes)(sites[i]);
   return True;
}

/*--------------------------------------------------------------------*/
/*--- end                                           ws_heapsites.c ---*/
/*--------------------------------------------------------------------*/

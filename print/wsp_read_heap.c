/*--------------------------------------------------------------------*/
/*--- ws_print: reading heap usage.                wsp_read_heap.c ---*/
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

/* Owns the reading of the heap usage records of format 4
   (docs/output-format.md): heap-site lines (one per allocation site,
   numbered from 1, with consistent counts), their heap-chunk lines
   (format 6: a chunk's record, its fixed fields then keys) and
   heap-window lines (after their peak's owner lines, one per heap owner
   it names).  heap-site and heap-window lines are KEY VALUE records: the keys below are read into the model's fields,
   and every pair is kept, so that keys this reader does not know are
   skipped, not refused. */

#include <stdio.h>

#include "wsp_reader.h"

/* The keys every heap-site line has, in the order ws writes them, and
   the optional ones ws_print uses; usage, or (chunks below the
   resolution, whose figures are bounds) below-resolution and
   usage-max. */
enum { K_CHUNKS, K_BYTES, K_PEAK_LIVE, K_NEVER, K_READ_ONLY,
       K_WRITE_ONLY, K_LIFETIME, K_FIRST_DELAY, K_IDLE_TAIL, K_USEFUL,
       K_THREADS, N_REQUIRED, K_USAGE = N_REQUIRED, K_BELOW, K_USAGE_MAX,
       K_TOUCHED, K_NEVER_BYTES, K_EXIT_LIVE, K_SCORE, K_LIFETIME_SCORE,
       K_GROWTH, N_KEYS };
static const char *const site_keys[N_KEYS] = {
   "chunks", "bytes", "peak-live", "never", "read-only",
   "write-only", "lifetime", "first-delay", "idle-tail", "useful",
   "threads", "usage", "below-resolution", "usage-max", "touched",
   "never-bytes", "exit-live", "score", "lifetime-score", "growth"
};
static const struct kv_spec site_spec = {
   "heap-site", site_keys, N_KEYS, N_REQUIRED,
   1u << K_USAGE | 1u << K_USAGE_MAX | 1u << K_USEFUL | 1u << K_SCORE
   | 1u << K_LIFETIME_SCORE
};

int heap_site_line(struct reader *r)
{
   struct lex *p = &r->p;
   struct wsp_file *f = p->f;
   struct cur c = cur_line(p);
   uint64_t v[N_KEYS], sid;
   struct wsp_heap_site h;

   cur_lit(&c, site_spec.word);
   if (cur_kv_record(p, &c, &site_spec, &h.id, &sid, v, &r->cap.kvs,
                     &h.kv_first, &h.kv_n))
      return -1;
   if (h.id != f->n_heap_sites + 1)
      return fail(p, "heap-site numbers run from 1 in file order: this "
                  "one should be %zu", f->n_heap_sites + 1);
   h.stack = wsp_stack_find(f, sid);
   if (h.stack == SIZE_MAX)
      return fail(p, "stack %llu is not defined before this line",
                  (unsigned long long)sid);
   for (size_t i = 0; i < f->n_heap_sites; i++)
      if (f->heap_sites[i].stack == h.stack)
         return fail(p, "a second heap-site line for stack %llu",
                     (unsigned long long)sid);
   h.chunks = v[K_CHUNKS];
   h.bytes = v[K_BYTES];
   h.peak_live = v[K_PEAK_LIVE];
   if ((v[K_USAGE] == WSP_NONE)
       == (v[K_BELOW] == WSP_NONE || v[K_USAGE_MAX] == WSP_NONE)
       || (v[K_BELOW] == WSP_NONE) != (v[K_USAGE_MAX] == WSP_NONE)
       || v[K_BELOW] == 0)
      return fail(p, "a heap-site line has usage, or below-resolution N "
                  "(at least 1) and usage-max");
   h.below = v[K_BELOW] == WSP_NONE ? 0 : v[K_BELOW];
   h.usage_milli = h.below ? v[K_USAGE_MAX] : v[K_USAGE];
   h.never = v[K_NEVER];
   h.read_only = v[K_READ_ONLY];
   h.write_only = v[K_WRITE_ONLY];
   h.lifetime = v[K_LIFETIME];
   h.first_delay = v[K_FIRST_DELAY];
   h.idle_tail = v[K_IDLE_TAIL];
   h.useful_milli = v[K_USEFUL];
   h.threads = v[K_THREADS];
   h.touched = v[K_TOUCHED];
   h.never_bytes = v[K_NEVER_BYTES];
   h.exit_live = v[K_EXIT_LIVE];
   h.score_milli = v[K_SCORE];
   h.lifetime_score_milli = v[K_LIFETIME_SCORE];
   h.growth = v[K_GROWTH];
   h.chunk_first = f->n_heap_chunks;
   h.n_chunks = 0;
   if (h.chunks == 0)
      return fail(p, "a site has allocated at least one chunk");
   if (h.never > h.chunks || h.read_only > h.chunks - h.never
       || h.write_only > h.chunks - h.never - h.read_only
       || h.threads > h.chunks - h.never)
      return fail(p, "never, read-only and write-only chunks are "
                  "distinct, and threads counts accessed chunks, all among "
                  "the site's chunks");
   if (h.below > h.chunks)
      return fail(p, "below-resolution counts some of the site's chunks");
   if (h.peak_live > h.bytes || (h.touched != WSP_NONE && h.touched > h.bytes)
       || (h.never_bytes != WSP_NONE && h.never_bytes > h.bytes))
      return fail(p, "peak-live, touched and never-bytes are at most the "
                  "bytes allocated");
   if (wsp_grow(&f->heap_sites, &r->cap.heap_sites, f->n_heap_sites,
                sizeof *f->heap_sites))
      return fail(p, "out of memory");
   f->heap_sites[f->n_heap_sites++] = h;
   return 0;
}

/* `heap-scores lifetime F usage F useful F`, once, after the heap-site
   lines: the run's global scores. */
int heap_scores_line(struct reader *r)
{
   static const char *const keys[3] = { "lifetime", "usage", "useful" };
   struct lex *p = &r->p;
   struct wsp_file *f = p->f;
   struct cur c = cur_line(p);
   struct wsp_str k, v;
   if (f->have_heap_scores)
      return fail(p, "one heap-scores line");
   cur_lit(&c, "heap-scores");
   for (size_t i = 0; i < 3; i++)
      if (!cur_word(&c, &k) || !wsp_str_is(k, keys[i]) || !cur_word(&c, &v)
          || !word_milli(v, &f->heap_scores_milli[i]))
         return fail(p, "a heap-scores line is 'heap-scores lifetime F "
                     "usage F useful F', fractions from 0.000 to 1.000");
   if (!cur_end(&c))
      return fail(p, "a heap-scores line is 'heap-scores lifetime F "
                  "usage F useful F', fractions from 0.000 to 1.000");
   f->have_heap_scores = 1;
   return 0;
}

/* A time, an offset or '-' after the word |key|, into |v| (WSP_NONE for
   '-'). */
static int time_or_dash(struct cur *c, const char *key, uint64_t *v)
{
   struct wsp_str w;
   if (!cur_word(c, &w) || !wsp_str_is(w, key) || !cur_lit(c, " "))
      return 0;
   if (cur_lit(c, "-")) {
      *v = WSP_NONE;
      return cur_end(c) || c->s[c->pos] == ' ';
   }
   return cur_u64(c, v) > 0 && *v != WSP_NONE;
}

#define CHUNK_SHAPE "a heap-chunk line is 'heap-chunk SITE alloc T free T|- " \
   "size N first T|- last T|- lo N|- hi N|-' and then keys and values"

/* `heap-chunk SITE alloc T free T size N first T last T lo N hi N`
   (version 6), then keys and values (reads, writes), after the
   heap-site line of its site or its other heap-chunk lines. */
int heap_chunk_line(struct reader *r)
{
   struct lex *p = &r->p;
   struct wsp_file *f = p->f;
   struct cur c = cur_line(p);
   struct wsp_heap_chunk k;
   struct wsp_heap_site *h;
   uint64_t site;

   cur_lit(&c, "heap-chunk ");
   if (cur_u64(&c, &site) <= 0 || !time_or_dash(&c, "alloc", &k.alloc)
       || k.alloc == WSP_NONE || !time_or_dash(&c, "free", &k.free)
       || !time_or_dash(&c, "size", &k.size) || k.size == WSP_NONE
       || !time_or_dash(&c, "first", &k.first)
       || !time_or_dash(&c, "last", &k.last)
       || !time_or_dash(&c, "lo", &k.lo) || !time_or_dash(&c, "hi", &k.hi))
      return fail(p, CHUNK_SHAPE);
   k.reads = k.writes = WSP_NONE;
   while (!cur_end(&c)) {
      struct wsp_str key;
      uint64_t v;
      if (!cur_word(&c, &key) || !cur_lit(&c, " ") || cur_u64(&c, &v) <= 0)
         return fail(p, CHUNK_SHAPE);
      if (wsp_str_is(key, "reads"))
         k.reads = v;
      else if (wsp_str_is(key, "writes"))
         k.writes = v;
   }
   if (f->n_heap_sites == 0 || site != f->n_heap_sites)
      return fail(p, "heap-chunk lines follow the heap-site line of their "
                  "site (%zu)", f->n_heap_sites);
   h = &f->heap_sites[f->n_heap_sites - 1];
   if ((k.free != WSP_NONE && k.free < k.alloc)
       || (k.first == WSP_NONE) != (k.last == WSP_NONE)
       || (k.first != WSP_NONE && (k.first < k.alloc || k.last < k.first
                                   || (k.free != WSP_NONE
                                       && k.last > k.free))))
      return fail(p, "a chunk is freed after its allocation, and accessed "
                  "(first, then last) in between");
   if ((k.lo == WSP_NONE) != (k.hi == WSP_NONE)
       || (k.lo != WSP_NONE && (k.first == WSP_NONE || k.lo > k.hi
                                || k.hi >= k.size)))
      return fail(p, "lo and hi are offsets in an accessed chunk, lo at "
                  "most hi");
   if (h->n_chunks && k.alloc < f->heap_chunks[f->n_heap_chunks - 1].alloc)
      return fail(p, "a site's heap-chunk lines come in allocation order");
   if (h->n_chunks == h->chunks)
      return fail(p, "a site has at most one heap-chunk line per chunk");
   if (wsp_grow(&f->heap_chunks, &r->cap.heap_chunks, f->n_heap_chunks,
                sizeof *f->heap_chunks))
      return fail(p, "out of memory");
   k.site = f->n_heap_sites - 1;
   f->heap_chunks[f->n_heap_chunks++] = k;
   h->n_chunks++;
   return 0;
}

static const char *const window_keys[] = { "live", "window" };
static const struct kv_spec window_spec = {
   "heap-window", window_keys, 2, 2, 0
};

/* `heap-window PEAK STACK live N window N` after the owner lines of
   the open peak. */
int heap_window_line(struct reader *r)
{
   struct lex *p = &r->p;
   struct wsp_file *f = p->f;
   struct cur c = cur_line(p);
   uint64_t v[2], pn, sid;
   struct wsp_heap_window w;
   int named = 0;

   if (!r->b.peak_open)
      return fail(p, "heap-window lines follow the owner lines of their "
                  "peak");
   const struct wsp_peak *pk = &f->peaks[r->b.open_peak];
   cur_lit(&c, window_spec.word);
   if (cur_kv_record(p, &c, &window_spec, &pn, &sid, v, &r->cap.kvs,
                     &w.kv_first, &w.kv_n))
      return -1;
   if (pn != r->b.open_peak)
      return fail(p, "heap-window lines follow the owner lines of their "
                  "peak (%zu)", r->b.open_peak);
   w.peak = r->b.open_peak;
   w.stack = wsp_stack_find(f, sid);
   for (size_t i = 0; i < pk->own_n && w.stack != SIZE_MAX; i++) {
      const struct wsp_owner *o = &f->owners[pk->own_first + i].o;
      named |= o->kind == WSP_OWN_HEAP && o->stack == w.stack;
   }
   if (!named)
      return fail(p, "a heap-window line names a heap owner of its peak");
   w.live = v[0];
   w.window = v[1];
   if (w.window > w.live)
      return fail(p, "the bytes in the window are some of the live "
                  "bytes");
   for (size_t i = r->b.windows_first; i < f->n_heap_windows; i++)
      if (f->heap_windows[i].stack == w.stack)
         return fail(p, "a second heap-window line for the same owner");
   if (wsp_grow(&f->heap_windows, &r->cap.heap_windows, f->n_heap_windows,
                sizeof *f->heap_windows))
      return fail(p, "out of memory");
   f->heap_windows[f->n_heap_windows++] = w;
   return 0;
}

/*--------------------------------------------------------------------*/
/*--- end                                          wsp_read_heap.c ---*/
/*--------------------------------------------------------------------*/

/*--------------------------------------------------------------------*/
/*--- ws_print: the samples of the model.             wsp_series.c ---*/
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

/* Owns the samples of the model: the figures every renderer reports
   (count, sum and largest value of each column with the time of its
   first largest sample, each thread id's figures), computed as the
   reader adds the samples in file order, and the samples themselves,
   which a renderer walks with wsp_samples_each(). */

#include <stdlib.h>
#include <string.h>

#include "wsp_model.h"

const char *const wsp_col_name[WSP_N_COLS] = { "t", "insn", "data",
                                               "shared" };

/* The figures of a thread id: found, or added in the order of ids. */
static struct wsp_tid_stats *tid_slot(struct wsp_series *ser, uint64_t tid)
{
   size_t lo = 0, hi = ser->n_tids;
   while (lo < hi) {
      size_t mid = lo + (hi - lo) / 2;
      if (ser->tids[mid].tid < tid)
         lo = mid + 1;
      else
         hi = mid;
   }
   if (lo < ser->n_tids && ser->tids[lo].tid == tid)
      return &ser->tids[lo];
   if (wsp_grow(&ser->tids, &ser->cap_tids, ser->n_tids, sizeof *ser->tids))
      return NULL;
   memmove(&ser->tids[lo + 1], &ser->tids[lo],
           (ser->n_tids - lo) * sizeof *ser->tids);
   ser->n_tids++;
   memset(&ser->tids[lo], 0, sizeof ser->tids[lo]);
   ser->tids[lo].tid = tid;
   return &ser->tids[lo];
}

static void add_figures(struct wsp_series *ser, const struct wsp_sample *s)
{
   for (int c = 0; c < WSP_N_COLS; c++) {
      struct wsp_col_stats *st = &ser->col[c];
      uint64_t v = s->v[c];
      if (v == WSP_NONE)
         continue;
      st->sum += v;
      if (ser->n == 0 || v > st->max) {
         st->max = v;
         st->max_t = s->v[WSP_COL_T];
      }
   }
   ser->last_t = s->v[WSP_COL_T];
   ser->n++;
}

int wsp_series_add(struct wsp_file *f, const struct wsp_sample *s,
                   const struct wsp_thread_ws *thr)
{
   struct wsp_series *ser = &f->samples;
   for (uint32_t i = 0; i < s->thr_count; i++) {
      struct wsp_tid_stats *ts = tid_slot(ser, thr[i].tid);
      if (!ts)
         return -1;
      ts->n++;
      ts->sum_insn += thr[i].insn;
      ts->sum_data += thr[i].data;
      if (thr[i].insn > ts->max_insn)
         ts->max_insn = thr[i].insn;
      if (thr[i].data > ts->max_data)
         ts->max_data = thr[i].data;
   }
   if (wsp_grow(&ser->kept, &ser->cap, ser->n, sizeof *ser->kept))
      return -1;
   struct wsp_sample *k = &ser->kept[ser->n];
   *k = *s;
   k->thr_first = ser->n_thr;
   for (uint32_t i = 0; i < s->thr_count; i++) {
      if (wsp_grow(&ser->thr, &ser->cap_thr, ser->n_thr, sizeof *ser->thr))
         return -1;
      ser->thr[ser->n_thr++] = thr[i];
   }
   add_figures(ser, s);
   return 0;
}

void wsp_series_final(struct wsp_file *f)
{
   f->samples.kept[f->samples.n - 1].final = 1;
}

int wsp_samples_each(const struct wsp_file *f, wsp_sample_fn *fn, void *arg)
{
   const struct wsp_series *ser = &f->samples;
   for (size_t i = 0; i < ser->n; i++) {
      const struct wsp_sample *s = &ser->kept[i];
      int r = fn(arg, i, s, s->thr_count ? ser->thr + s->thr_first : NULL);
      if (r)
         return r;
   }
   return 0;
}

/*--------------------------------------------------------------------*/
/*--- end                                             wsp_series.c ---*/
/*--------------------------------------------------------------------*/

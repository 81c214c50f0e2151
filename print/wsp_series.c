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
   which a renderer walks with wsp_samples_each().

   Memory must not grow with the file (a long run writes hundreds of
   megabytes of samples): the samples are kept while they take at most
   WSP_KEPT_BYTES; past that they are let go (streamed), and each walk
   reads them again from the file, through the reader's struct
   wsp_again.  Every figure stays exact: the figures are computed as
   the samples come, and a walk sees every sample.  A page that draws
   the samples (the HTML report) gets a thinned view instead, whose
   size is fixed: of each of WSP_VIEW_BUCKETS equal spans of the run,
   the first and last sample and those with each column's smallest and
   largest value, so that no peak or dip is lost. */

#include <stdlib.h>
#include <string.h>

#include "wsp_model.h"

const char *const wsp_col_name[WSP_N_COLS] = { "t", "insn", "data",
                                               "shared", "insn-lines",
                                               "data-lines", "heap" };

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
   if (!ser->streamed && ser->again
       && (ser->n + 1) * sizeof *ser->kept
          + (ser->n_thr + s->thr_count) * sizeof *ser->thr > WSP_KEPT_BYTES) {
      free(ser->kept);
      free(ser->thr);
      ser->kept = NULL;
      ser->thr = NULL;
      ser->cap = ser->cap_thr = ser->n_thr = 0;
      ser->streamed = 1;
   }
   if (!ser->streamed) {
      if (wsp_grow(&ser->kept, &ser->cap, ser->n, sizeof *ser->kept))
         return -1;
      struct wsp_sample *k = &ser->kept[ser->n];
      *k = *s;
      k->thr_first = ser->n_thr;
      for (uint32_t i = 0; i < s->thr_count; i++) {
         if (wsp_grow(&ser->thr, &ser->cap_thr, ser->n_thr,
                      sizeof *ser->thr))
            return -1;
         ser->thr[ser->n_thr++] = thr[i];
      }
   }
   add_figures(ser, s);
   return 0;
}

void wsp_series_final(struct wsp_file *f)
{
   if (!f->samples.streamed)
      f->samples.kept[f->samples.n - 1].final = 1;
}

int wsp_samples_each(const struct wsp_file *f, wsp_sample_fn *fn, void *arg)
{
   const struct wsp_series *ser = &f->samples;
   if (ser->streamed) {
      struct wsp_again *a = ser->again;
      int r = a->samples(a, fn, arg);
      if (r < 0)
         a->failed = 1;
      return r;
   }
   for (size_t i = 0; i < ser->n; i++) {
      const struct wsp_sample *s = &ser->kept[i];
      int r = fn(arg, i, s, s->thr_count ? ser->thr + s->thr_first : NULL);
      if (r)
         return r;
   }
   return 0;
}

const struct wsp_error *wsp_samples_error(const struct wsp_file *f)
{
   const struct wsp_again *a = f->samples.again;
   return a && a->failed ? &a->err : NULL;
}

uint64_t wsp_last_time(const struct wsp_file *f)
{
   uint64_t t = f->samples.n ? f->samples.last_t : 0;
   if (f->n_events && f->events[f->n_events - 1].t > t)
      t = f->events[f->n_events - 1].t;
   return t;
}

/*------------------------------------------------------------*/
/*--- The thinned view                                     ---*/
/*------------------------------------------------------------*/

/* The samples kept of a bucket: the first, the last, and the smallest
   and largest of each column but t, each with its threads. */
enum { ROLE_FIRST, ROLE_LAST, ROLE_MIN, N_ROLES = ROLE_MIN + 2 * (WSP_N_COLS - 1) };

struct role {
   struct wsp_sample     s;
   struct wsp_thread_ws *thr;
   size_t                cap;
};

struct thinning {
   struct wsp_view *v;
   size_t           cap, cap_thr, n_thr;
   double           tmax;
   size_t           bucket;          /* of the samples in role[] */
   int              any;
   struct role      role[N_ROLES];
};

static int set_role(struct role *r, const struct wsp_sample *s,
                    const struct wsp_thread_ws *thr)
{
   r->s = *s;
   for (uint32_t i = 0; i < s->thr_count; i++) {
      if (wsp_grow(&r->thr, &r->cap, i, sizeof *r->thr))
         return -1;
      r->thr[i] = thr[i];
   }
   return 0;
}

/* The samples of the bucket, each once, in file order, into the view. */
static int flush(struct thinning *th)
{
   struct wsp_view *v = th->v;
   if (!th->any)
      return 0;
   for (;;) {
      const struct role *next = NULL;
      uint64_t after = v->n ? v->own_s[v->n - 1].v[WSP_COL_T] : 0;
      for (int k = 0; k < N_ROLES; k++) {
         const struct role *r = &th->role[k];
         uint64_t t = r->s.v[WSP_COL_T];
         if ((!v->n || t > after) && (!next || t < next->s.v[WSP_COL_T]))
            next = r;
      }
      if (!next)
         break;
      if (wsp_grow(&v->own_s, &th->cap, v->n, sizeof *v->own_s))
         return -1;
      struct wsp_sample *k = &v->own_s[v->n++];
      *k = next->s;
      k->thr_first = th->n_thr;
      for (uint32_t i = 0; i < next->s.thr_count; i++) {
         if (wsp_grow(&v->own_thr, &th->cap_thr, th->n_thr,
                      sizeof *v->own_thr))
            return -1;
         v->own_thr[th->n_thr++] = next->thr[i];
      }
   }
   th->any = 0;
   return 0;
}

static int thin_sample(void *arg, size_t i, const struct wsp_sample *s,
                       const struct wsp_thread_ws *thr)
{
   struct thinning *th = arg;
   double b = (double)s->v[WSP_COL_T] / th->tmax * WSP_VIEW_BUCKETS;
   size_t bucket = b >= WSP_VIEW_BUCKETS ? WSP_VIEW_BUCKETS - 1 : (size_t)b;
   (void)i;
   if (th->any && bucket != th->bucket && flush(th))
      return -1;
   th->bucket = bucket;
   for (int k = 0; k < N_ROLES; k++) {
      int c = 1 + (k - ROLE_MIN) / 2, largest = (k - ROLE_MIN) % 2;
      int take = !th->any || k == ROLE_LAST;
      if (!take && k >= ROLE_MIN && s->v[c] != WSP_NONE)
         take = largest ? s->v[c] > th->role[k].s.v[c]
                        : s->v[c] < th->role[k].s.v[c];
      if (take && set_role(&th->role[k], s, thr))
         return -1;
   }
   th->any = 1;
   return 0;
}

int wsp_samples_view(const struct wsp_file *f, struct wsp_view *v)
{
   memset(v, 0, sizeof *v);
   if (!f->samples.streamed) {
      v->s = f->samples.kept;
      v->n = f->samples.n;
      v->thr = f->samples.thr;
      return 0;
   }
   struct thinning th;
   memset(&th, 0, sizeof th);
   th.v = v;
   th.tmax = (double)wsp_last_time(f);
   if (th.tmax < 1)
      th.tmax = 1;
   int r = wsp_samples_each(f, thin_sample, &th);
   if (!r)
      r = flush(&th);
   for (int k = 0; k < N_ROLES; k++)
      free(th.role[k].thr);
   v->s = v->own_s;
   v->thr = v->own_thr;
   v->thinned = 1;
   return r ? -1 : 0;
}

void wsp_view_free(struct wsp_view *v)
{
   free(v->own_s);
   free(v->own_thr);
   memset(v, 0, sizeof *v);
}

/*--------------------------------------------------------------------*/
/*--- end                                             wsp_series.c ---*/
/*--------------------------------------------------------------------*/

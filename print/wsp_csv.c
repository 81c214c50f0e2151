/*--------------------------------------------------------------------*/
/*--- ws_print: the samples as CSV.                    wsp_csv.c ---*/
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

/* One header row, then one row per sample, exactly the file's numbers:

     t,insn,data
     t,insn,data,shared,tid1_insn,tid1_data,tid2_insn,...   (per thread)

   With per-thread columns every thread id seen in any sample gets two
   columns, in increasing order; they are empty in the samples where
   that thread was not alive. */

#include <stdlib.h>

#include "wsp_model.h"

static int cmp_u64(const void *a, const void *b)
{
   uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
   return x < y ? -1 : x > y;
}

void wsp_csv(FILE *out, const struct wsp_file *f)
{
   uint64_t *tids = NULL;
   size_t n_tids = 0;

   if (f->per_thread && f->n_thr) {
      tids = malloc(f->n_thr * sizeof *tids);
      if (!tids) {
         fprintf(out, "out of memory\n");
         return;
      }
      for (size_t i = 0; i < f->n_thr; i++)
         tids[i] = f->thr[i].tid;
      qsort(tids, f->n_thr, sizeof *tids, cmp_u64);
      for (size_t i = 0; i < f->n_thr; i++)
         if (i == 0 || tids[i] != tids[n_tids - 1])
            tids[n_tids++] = tids[i];
   }

   fprintf(out, "t,insn,data");
   if (f->per_thread)
      fprintf(out, ",shared");
   for (size_t k = 0; k < n_tids; k++)
      fprintf(out, ",tid%llu_insn,tid%llu_data", (unsigned long long)tids[k],
              (unsigned long long)tids[k]);
   fputc('\n', out);

   for (size_t i = 0; i < f->n_samples; i++) {
      const struct wsp_sample *s = &f->samples[i];
      fprintf(out, "%llu,%llu,%llu", (unsigned long long)s->t,
              (unsigned long long)s->insn, (unsigned long long)s->data);
      if (f->per_thread) {
         const struct wsp_thread_ws *th = f->thr + s->thr_first;
         size_t j = 0;
         fprintf(out, ",%llu", (unsigned long long)s->shared);
         /* both lists increase: merge */
         for (size_t k = 0; k < n_tids; k++) {
            if (j < s->thr_count && th[j].tid == tids[k]) {
               fprintf(out, ",%llu,%llu", (unsigned long long)th[j].insn,
                       (unsigned long long)th[j].data);
               j++;
            } else {
               fputs(",,", out);
            }
         }
      }
      fputc('\n', out);
   }
   free(tids);
}

/*--------------------------------------------------------------------*/
/*--- end                                                wsp_csv.c ---*/
/*--------------------------------------------------------------------*/

/*--------------------------------------------------------------------*/
/*--- ws_print: the samples as CSV.                      wsp_csv.c ---*/
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

     t,insn,data[,insn_lines,data_lines][,heap]
        [,shared,tid1_insn,tid1_data,tid2_insn,...]

   The line and heap columns when the file has them (the working sets
   in lines, format 5 on; the live heap bytes, format 6 with the heap
   followed); then, with per-thread columns, every thread id seen in any
   sample gets two columns, in increasing order, empty in the samples
   where that thread was not alive. */

#include "wsp_render.h"

struct rows {
   FILE                    *out;
   const struct wsp_series *ser;
   int                      lines, heap, per_thread;
};

static int row(void *arg, size_t i, const struct wsp_sample *s,
               const struct wsp_thread_ws *th)
{
   const struct rows *r = arg;
   FILE *out = r->out;
   (void)i;
   fprintf(out, "%llu,%llu,%llu", (unsigned long long)s->v[WSP_COL_T],
           (unsigned long long)s->v[WSP_COL_INSN],
           (unsigned long long)s->v[WSP_COL_DATA]);
   if (r->lines)
      fprintf(out, ",%llu,%llu", (unsigned long long)s->v[WSP_COL_INSN_LINES],
              (unsigned long long)s->v[WSP_COL_DATA_LINES]);
   if (r->heap)
      fprintf(out, ",%llu", (unsigned long long)s->v[WSP_COL_HEAP]);
   if (r->per_thread) {
      size_t j = 0;
      fprintf(out, ",%llu", (unsigned long long)s->v[WSP_COL_SHARED]);
      /* both lists increase: merge */
      for (size_t k = 0; k < r->ser->n_tids; k++) {
         if (j < s->thr_count && th[j].tid == r->ser->tids[k].tid) {
            fprintf(out, ",%llu,%llu", (unsigned long long)th[j].insn,
                    (unsigned long long)th[j].data);
            j++;
         } else {
            fputs(",,", out);
         }
      }
   }
   fputc('\n', out);
   return 0;
}

void wsp_csv(FILE *out, const struct wsp_file *f)
{
   const struct wsp_series *ser = &f->samples;
   struct rows r = { out, ser, f->columns.at[WSP_COL_INSN_LINES] >= 0,
                     f->columns.at[WSP_COL_HEAP] >= 0, f->per_thread };

   fprintf(out, "t,insn,data");
   if (r.lines)
      fprintf(out, ",insn_lines,data_lines");
   if (r.heap)
      fprintf(out, ",heap");
   if (f->per_thread)
      fprintf(out, ",shared");
   for (size_t k = 0; k < ser->n_tids; k++)
      fprintf(out, ",tid%llu_insn,tid%llu_data",
              (unsigned long long)ser->tids[k].tid,
              (unsigned long long)ser->tids[k].tid);
   fputc('\n', out);
   wsp_samples_each(f, row, &r);
}

/*--------------------------------------------------------------------*/
/*--- end                                                wsp_csv.c ---*/
/*--------------------------------------------------------------------*/

/*--------------------------------------------------------------------*/
/*--- ws_print: routines in text.              wsp_text_routines.c ---*/
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

/* Owns the text report's "Routines: cost against input" section
   (--ws-routines=yes): the routines in the file's order (ranked by ws:
   those called out by exponent times share of the cost, then by total
   cost; docs/manual.md, section 9), each flagged one
   said in words, then a log-log plot of max cost (and min) against
   input size for the first ones with a fit, the fitted line through
   it. */

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "wsp_render.h"

#define MAX_ROUTINES 10
#define MAX_PLOTS    3
#define PLOT_ROWS    12

static void milli(char *buf, size_t n, int64_t m, int places)
{
   uint64_t a = m < 0 ? (uint64_t)-m : (uint64_t)m;
   if (places == 2)
      snprintf(buf, n, "%s%llu.%02llu", m < 0 ? "-" : "",
               (unsigned long long)((a + 5) / 1000),
               (unsigned long long)((a + 5) % 1000 / 10));
   else
      snprintf(buf, n, "%s%llu.%03llu", m < 0 ? "-" : "",
               (unsigned long long)(a / 1000), (unsigned long long)(a % 1000));
}

static void plot(FILE *out, const struct wsp_file *f,
                 const struct wsp_routine *r, int width)
{
   const struct wsp_routine_row *rows = &f->routine_rows[r->first_row];
   int cols = width - 14 < 60 ? width - 14 : 60;
   double x0 = 0, x1 = 0, y0 = 0, y1 = 0, sx = 0, sy = 0;
   size_t n = 0;
   char grid[PLOT_ROWS][96];
   char a[32], b[32];
   if (cols < 20)
      cols = 20;
   for (size_t i = 0; i < r->n_rows; i++) {
      if (rows[i].size < 1 || rows[i].max < 1)
         continue;
      double x = log((double)rows[i].size);
      double lo = log((double)(rows[i].min ? rows[i].min : 1));
      double hi = log((double)rows[i].max);
      if (n == 0 || x < x0) x0 = x;
      if (n == 0 || x > x1) x1 = x;
      if (n == 0 || lo < y0) y0 = lo;
      if (n == 0 || hi > y1) y1 = hi;
      sx += x;
      sy += hi;
      n++;
   }
   if (n < 3 || x1 <= x0)
      return;
   if (y1 <= y0)
      y1 = y0 + 1;
   for (int j = 0; j < PLOT_ROWS; j++) {
      memset(grid[j], ' ', (size_t)cols);
      grid[j][cols] = '\0';
   }
   /* the fitted line: through the means with the file's slope */
   double slope = r->exponent_milli / 1000.0, mx = sx / n, my = sy / n;
   for (int c = 0; c < cols; c++) {
      double y = my + slope * (x0 + (x1 - x0) * c / (cols - 1) - mx);
      int j = (int)lround((y - y0) / (y1 - y0) * (PLOT_ROWS - 1));
      if (j >= 0 && j < PLOT_ROWS)
         grid[PLOT_ROWS - 1 - j][c] = '.';
   }
   for (size_t i = 0; i < r->n_rows; i++) {
      if (rows[i].size < 1 || rows[i].max < 1)
         continue;
      int c = (int)lround((log((double)rows[i].size) - x0) / (x1 - x0)
                          * (cols - 1));
      int hi = (int)lround((log((double)rows[i].max) - y0) / (y1 - y0)
                           * (PLOT_ROWS - 1));
      int lo = (int)lround((log((double)(rows[i].min ? rows[i].min : 1))
                            - y0) / (y1 - y0) * (PLOT_ROWS - 1));
      for (int j = lo; j < hi; j++)
         grid[PLOT_ROWS - 1 - j][c] = '|';
      grid[PLOT_ROWS - 1 - hi][c] = 'o';
   }
   fprintf(out, "\n    ");
   wsp_put_escaped(out, wsp_routine_name(f, r));
   fprintf(out, ": max cost (o), min..max (|), fit (.), log scales\n");
   for (int j = 0; j < PLOT_ROWS; j++) {
      if (j == 0)
         fprintf(out, "%12s ", wsp_commas(a, sizeof a,
                                           (uint64_t)llround(exp(y1))));
      else if (j == PLOT_ROWS - 1)
         fprintf(out, "%12s ", wsp_commas(a, sizeof a,
                                           (uint64_t)llround(exp(y0))));
      else
         fprintf(out, "%12s ", "");
      int end = cols;
      while (end > 0 && grid[j][end - 1] == ' ')
         end--;
      fprintf(out, "|%.*s\n", end, grid[j]);
   }
   fprintf(out, "%12s +", "");
   for (int c = 0; c < cols; c++)
      fputc('-', out);
   wsp_commas(a, sizeof a, rows[0].size ? rows[0].size : rows[1].size);
   wsp_commas(b, sizeof b, rows[r->n_rows - 1].size);
   fprintf(out, "\n%12s  %-*s%s lines read\n", "", cols - (int)strlen(b), a,
           b);
}

void wsp_text_routines(FILE *out, const struct wsp_file *f, int width)
{
   char a[32], b[32], c[32], d[32], e[32], q[32];
   size_t plots = 0;
   if (!f->n_routines)
      return;
   wsp_wrap(out, width, 2, "\nRoutines: cost against input (input = the "
            "64-byte lines an activation reads, trms; docs/manual.md, "
            "\"Per-routine footprint\"):\n");
   wsp_wrap(out, width, 4, "  %zu routine%s with an activation; %s, "
            "those called out first (a fit with r2 0.8 or more over input "
            "sizes that span a factor of 4, a cost of 1 %% of the "
            "costliest routine's or more) by exponent times that share, "
            "then the others by cost:\n", f->n_routines, f->n_routines == 1 ? "" : "s",
            f->n_routines > MAX_ROUTINES ? "the first 10" : "all");
   for (size_t i = 0; i < f->n_routines && i < MAX_ROUTINES; i++) {
      const struct wsp_routine *r = &f->routines[i];
      const struct wsp_stack *s = &f->stacks[r->stack];
      const struct wsp_routine_row *rows = &f->routine_rows[r->first_row];
      struct wsp_line l = { 0 };
      wsp_lprintf(&l, "  %3zu  ", i + 1);
      wsp_lwhere(&l, &f->frames[s->first].w, width, 0);
      wsp_lflush(out, &l, width);
      if (r->fitted) {
         milli(e, sizeof e, r->exponent_milli, 2);
         milli(q, sizeof q, r->r2_milli, 2);
         wsp_wrap(out, width, 9, "       cost ~ input^%s (r2 %s) over %zu "
                  "sizes from %s to %s lines%s\n", e, q, r->n_rows,
                  wsp_commas(a, sizeof a, rows[0].size),
                  wsp_commas(b, sizeof b, rows[r->n_rows - 1].size),
                  wsp_routine_flagged(f, r) ? ": grows faster than its input" : "");
      } else {
         wsp_wrap(out, width, 9, "       no fit: %zu size%s\n", r->n_rows,
                  r->n_rows == 1 ? "" : "s");
      }
      wsp_wrap(out, width, 9, "       %s call%s, cost %s (%.1f %% of the "
               "costliest routine's), rms-max %s, trms-max %s, induced %llu "
               "by threads and %llu by system calls\n",
               wsp_commas(a, sizeof a, r->calls),
               r->calls == 1 ? "" : "s", wsp_commas(b, sizeof b, r->cost),
               100.0 * (double)r->cost / (double)wsp_routine_most_cost(f),
               wsp_commas(c, sizeof c, r->rms_max),
               wsp_commas(d, sizeof d, r->trms_max),
               (unsigned long long)r->thread_induced,
               (unsigned long long)r->syscall_induced);
   }
   for (size_t i = 0; i < f->n_routines && plots < MAX_PLOTS; i++)
      if (f->routines[i].fitted && f->routines[i].exponent_milli > 0) {
         plot(out, f, &f->routines[i], width);
         plots++;
      }
}

/*--------------------------------------------------------------------*/
/*--- end                                      wsp_text_routines.c ---*/
/*--------------------------------------------------------------------*/

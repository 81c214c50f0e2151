/*--------------------------------------------------------------------*/
/*--- ws_print: the text report's charts.         wsp_text_chart.c ---*/
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

/* The charts of the text report, in the manner of ms_print: one per
   working set (instruction, data), and one of the live heap bytes when
   the file has them (massif's curve), made of characters, then a
   legend for the time axis.

   A chart has `height` rows and as many columns as fit in `width`.
   Time runs from 0 to the last time in the file, each column covering
   an equal share.  A column shows the largest sample taken in it (so a
   peak is never averaged away) drawn with ':', the column holding the
   run's peak with '#'.  A column in which no sample was taken shows
   the next sample when that sample's window (t - tau, t] reaches back
   into it, and stays blank otherwise.  The y axis is in pages, from 0
   to the peak; the x axis in instructions (k, M, G, T: thousands,
   millions, ...) or milliseconds (s: thousands of ms).  Under the axis
   a row of symbols places the marks (a letter per label), starts '['
   and stops ']' ('|' for a stop and a start in the same column), and
   a row under each chart its peaks, by number.  Both charts' columns
   come from one walk over the samples. */

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "wsp_render.h"

/*------------------------------------------------------------*/
/*--- Helpers                                              ---*/
/*------------------------------------------------------------*/

/* Print a row of a chart without its trailing blanks. */
static void put_row(FILE *out, const char *row, int len)
{
   while (len > 0 && row[len - 1] == ' ')
      len--;
   fwrite(row, 1, (size_t)len, out);
   fputc('\n', out);
}

/* A row of symbols under a chart's axis, under its plot. */
static void symbol_row(FILE *out, const char *row, int cols, int yw)
{
   fprintf(out, "%*s  ", yw, "");
   put_row(out, row, cols);
}

static int digits(uint64_t v)
{
   int n = 1;
   while (v >= 10) {
      v /= 10;
      n++;
   }
   return n;
}

/*------------------------------------------------------------*/
/*--- The time axis                                        ---*/
/*------------------------------------------------------------*/

struct taxis {
   double      tmax;       /* time at the right end (> 0) */
   int         cols;       /* plot columns */
   double      scale;      /* time units per axis unit */
   const char *unit;       /* "Mi", "ms", ... */
};

static void taxis_init(struct taxis *a, const struct wsp_file *f, int cols)
{
   static const struct { double scale; const char *unit; } iu[] = {
      { 1e12, "Ti" }, { 1e9, "Gi" }, { 1e6, "Mi" }, { 1e3, "ki" },
   };
   a->tmax = (double)wsp_last_time(f);
   if (a->tmax <= 0)
      a->tmax = 1;
   a->cols = cols;
   a->scale = 1;
   a->unit = f->ms ? "ms" : "i";
   if (f->ms) {
      if (a->tmax >= 1e4) {
         a->scale = 1e3;
         a->unit = "s";
      }
      return;
   }
   for (size_t i = 0; i < sizeof iu / sizeof iu[0]; i++)
      if (a->tmax >= iu[i].scale) {
         a->scale = iu[i].scale;
         a->unit = iu[i].unit;
         return;
      }
}

/* The column of time t. */
static int tcol(const struct taxis *a, double t)
{
   double c = floor(t / a->tmax * a->cols);
   if (c < 0)
      return 0;
   if (c >= a->cols)
      return a->cols - 1;
   return (int)c;
}

/* Write the axis line's tick marks into axis[] (cols long) and the
   labels row into lab[] (starting at column 0 = the axis origin). */
static void ticks(const struct taxis *a, char *axis, char *lab, int lablen)
{
   double span = a->tmax / a->scale;        /* in axis units */
   double step = 0;
   int decimals = 0;
   char buf[64];

   /* The densest step of 1, 2 or 5 times a power of ten whose labels
      fit with room between them. */
   for (int e = -6; e <= 20 && step == 0; e++)
      for (int m = 0; m < 3; m++) {
         double s = (m == 0 ? 1 : m == 1 ? 2 : 5) * pow(10, e);
         int d = e < 0 ? -e : 0;
         if (span / s > 1000 || s * a->scale < 1)
            continue;                /* too many, or under one time unit */
         int w = snprintf(buf, sizeof buf, "%.*f", d, floor(span / s) * s);
         double per = s / span * a->cols;
         if (per >= w + 2 && per >= 6) {
            step = s;
            decimals = d;
            break;
         }
      }
   lab[0] = '0';
   if (step == 0)
      return;
   int free_from = 2;                     /* first column a label may use */
   for (int i = 1; i * step <= span * (1 + 1e-12); i++) {
      double v = i * step;
      int c = tcol(a, v * a->scale);
      if (floor(v / span * a->cols) >= a->cols)
         break;
      axis[c] = '+';
      int w = snprintf(buf, sizeof buf, "%.*f", decimals, v);
      int at = c + 1;                     /* lab[0] is under the origin */
      if (at >= free_from && at + w <= lablen) {
         memcpy(lab + at, buf, (size_t)w);
         free_from = at + w + 1;
      }
   }
}

/*------------------------------------------------------------*/
/*--- Marks, starts and stops on the time axis             ---*/
/*------------------------------------------------------------*/

#define MAX_LETTERS 52

/* The distinct mark labels, in the order they first appear. */
struct marks {
   struct wsp_str label[MAX_LETTERS];
   size_t         n;            /* labels with a letter */
   size_t         n_more;       /* distinct labels beyond the letters */
   size_t         n_marks;      /* mark events */
   size_t         n_startstop;
};

static char letter(size_t i)
{
   return i < 26 ? (char)('a' + i) : i < 52 ? (char)('A' + i - 26) : '*';
}

/* The letter index of a mark's label, or MAX_LETTERS. */
static size_t mark_index(const struct marks *m, struct wsp_str l)
{
   for (size_t i = 0; i < m->n; i++)
      if (wsp_str_eq(m->label[i], l))
         return i;
   return MAX_LETTERS;
}

static void marks_init(struct marks *m, const struct wsp_file *f)
{
   memset(m, 0, sizeof *m);
   /* Labels beyond the letters are counted, not remembered: the count
      may be approximate for repeats, which only changes one number. */
   struct wsp_str *more = calloc(f->n_events + 1, sizeof *more);
   size_t n_more = 0;
   for (size_t i = 0; i < f->n_events; i++) {
      const struct wsp_event *e = &f->events[i];
      if (e->kind == WSP_EV_START || e->kind == WSP_EV_REGION_START
          || e->kind == WSP_EV_STOP)
         m->n_startstop++;
      if (e->kind != WSP_EV_MARK)
         continue;
      m->n_marks++;
      if (mark_index(m, e->text) < MAX_LETTERS)
         continue;
      if (m->n < MAX_LETTERS) {
         m->label[m->n++] = e->text;
         continue;
      }
      if (!more)
         continue;
      size_t j;
      for (j = 0; j < n_more && j < 1000; j++)
         if (wsp_str_eq(more[j], e->text))
            break;
      if (j == n_more || j == 1000)
         more[n_more++] = e->text;
   }
   m->n_more = n_more;
   free(more);
}

/* The symbol row under a chart: cols characters. */
static void event_row(char *row, const struct wsp_file *f,
                      const struct marks *m, const struct taxis *a)
{
   /* per column: bit 0 start, bit 1 stop, bits 2.. the mark letter + 1,
      or all ones for several labels */
   unsigned *cell = calloc((size_t)a->cols, sizeof *cell);
   if (!cell)
      return;
   for (size_t i = 0; i < f->n_events; i++) {
      const struct wsp_event *e = &f->events[i];
      int c = tcol(a, (double)e->t);
      if (e->kind == WSP_EV_START || e->kind == WSP_EV_REGION_START)
         cell[c] |= 1;
      else if (e->kind == WSP_EV_STOP)
         cell[c] |= 2;
      else if (e->kind == WSP_EV_MARK) {
         unsigned k = (unsigned)mark_index(m, e->text) + 1;
         unsigned old = cell[c] >> 2;
         unsigned now = (old == 0 || old == k) ? k : 0xffffu;
         cell[c] = (cell[c] & 3) | (now << 2);
      }
   }
   for (int c = 0; c < a->cols; c++) {
      unsigned k = cell[c] >> 2;
      if (k == 0xffffu)
         row[c] = '*';
      else if (k)
         row[c] = letter(k - 1);
      else if ((cell[c] & 3) == 3)
         row[c] = '|';
      else if (cell[c] & 1)
         row[c] = '[';
      else if (cell[c] & 2)
         row[c] = ']';
   }
   free(cell);
}

static void legend(FILE *out, const struct wsp_file *f,
                   const struct marks *m)
{
   if (f->n_peaks)
      fprintf(out, "Under each chart: its peaks by number, * several (see "
              "Peaks below)\n");
   if (!m->n_marks && !m->n_startstop)
      return;
   /* the symbols in use: marks a, a-f, or a-z then A-F (labels past
      the letters are '*', listed last) */
   char marks[40] = "";
   if (m->n == 1)
      snprintf(marks, sizeof marks, " marks a,");
   else if (m->n > 1 && m->n <= 26)
      snprintf(marks, sizeof marks, " marks a-%c,", letter(m->n - 1));
   else if (m->n == 27)
      snprintf(marks, sizeof marks, " marks a-z then A,");
   else if (m->n > 27)
      snprintf(marks, sizeof marks, " marks a-z then A-%c,",
               letter(m->n - 1));
   fprintf(out, "Time axis:%s%s%s\n",
           m->n_startstop ? " [ start, ] stop, | both," : "", marks,
           m->n_marks ? " * several:" : "");
   for (size_t i = 0; i < m->n; i++) {
      size_t shown = 0, count = 0;
      char tb[48];
      fprintf(out, "  %c  ", letter(i));
      wsp_put_escaped(out, m->label[i]);
      fprintf(out, " at");
      for (size_t j = 0; j < f->n_events; j++) {
         const struct wsp_event *e = &f->events[j];
         if (e->kind != WSP_EV_MARK || !wsp_str_eq(e->text, m->label[i]))
            continue;
         count++;
         if (shown < 4) {
            wsp_fmt_time(tb, sizeof tb, e->t, f->ms);
            fprintf(out, "%s %s", shown ? "," : "", tb);
            shown++;
         }
      }
      if (count > shown)
         fprintf(out, ", ... (%zu times)", count);
      fputc('\n', out);
   }
   if (m->n_more)
      fprintf(out, "  *  %zu more label%s\n", m->n_more,
              m->n_more > 1 ? "s" : "");
}

/*------------------------------------------------------------*/
/*--- Peaks on the time axis                               ---*/
/*------------------------------------------------------------*/

struct peak_at {
   uint64_t t;
   size_t   n;
};

static int by_time(const void *a, const void *b)
{
   const struct peak_at *x = a, *y = b;
   if (x->t != y->t)
      return x->t < y->t ? -1 : 1;
   return x->n < y->n ? -1 : x->n > y->n;
}

/* The peaks row under a chart: each peak of the chart's kind by its
   number, starting at its column, in time order (a file lists them by
   rank); '*' where a number has no room. */
static void peak_row(char *row, const struct wsp_file *f, int data,
                     const struct taxis *a)
{
   struct peak_at *at = malloc(f->n_peaks * sizeof *at + 1);
   size_t n = 0;
   int free_from = 0;
   if (!at)
      return;
   for (size_t i = 0; i < f->n_peaks; i++)
      if (f->peaks[i].data == data)
         at[n++] = (struct peak_at){ f->peaks[i].t, i };
   qsort(at, n, sizeof *at, by_time);
   for (size_t k = 0; k < n; k++) {
      char num[24];
      int c = tcol(a, (double)at[k].t);
      int w = snprintf(num, sizeof num, "%zu", at[k].n);
      if (c >= free_from && c + w <= a->cols) {
         memcpy(row + c, num, (size_t)w);
         free_from = c + w + 1;
      } else {
         /* in the blank after the number before, or at the right end */
         int col = c >= free_from ? c : free_from - 1;
         if (col < a->cols)
            row[col] = '*';
      }
   }
   free(at);
}

static int has_peaks(const struct wsp_file *f, int data)
{
   for (size_t i = 0; i < f->n_peaks; i++)
      if (f->peaks[i].data == data)
         return 1;
   return 0;
}

/*------------------------------------------------------------*/
/*--- One chart                                            ---*/
/*------------------------------------------------------------*/

/* The charts: the working sets (insn, data), then the live heap bytes
   when the file has them (version 6), massif's curve. */
enum { CHART_INSN, CHART_DATA, CHART_HEAP, N_CHARTS };
static const enum wsp_col chart_col[N_CHARTS] = {
   WSP_COL_INSN, WSP_COL_DATA, WSP_COL_HEAP
};

/* The largest sample of one chart, at least 1. */
static uint64_t chart_top(const struct wsp_file *f, int which)
{
   uint64_t peak = f->samples.col[chart_col[which]].max;
   return peak ? peak : 1;
}

/* The value of each column of the charts, or -1 for a blank one: a
   column shows the largest sample taken in it; a blank one, of a
   working set, the next sample when that sample's window reaches back
   into it, and of the heap the sample before (the live bytes stand
   until the next allocation or free). */
struct columns {
   const struct taxis *a[N_CHARTS];   /* each chart's time axis */
   double              tau;
   int                 charts;        /* 2, or 3 with the heap's */
   double             *col[N_CHARTS];
   double              last_heap;     /* the last sample's heap bytes */
   int                 prev[N_CHARTS]; /* the column of the last sample */
};

static int column_sample(void *arg, size_t i, const struct wsp_sample *s,
                         const struct wsp_thread_ws *thr)
{
   struct columns *k = arg;
   double t = (double)s->v[WSP_COL_T];
   (void)i;
   (void)thr;
   for (int d = 0; d < k->charts; d++) {
      const struct taxis *a = k->a[d];
      double v = (double)s->v[chart_col[d]];
      int c = tcol(a, t);
      for (int e = k->prev[d] + 1; e < c; e++)  /* blank columns before */
         if (d == CHART_HEAP)
            k->col[d][e] = k->prev[d] >= 0 ? k->last_heap : -1;
         else if (t - k->tau < (e + 1) * a->tmax / a->cols)
            k->col[d][e] = v;
      if (v > k->col[d][c])
         k->col[d][c] = v;
      k->prev[d] = c;
   }
   if (k->charts > CHART_HEAP)
      k->last_heap = (double)s->v[WSP_COL_HEAP];
   return 0;
}

/* One chart of col (its columns' values); yw is the width of the y
   labels, the same for both charts so that their columns line up. */
static void chart(FILE *out, const struct wsp_file *f, int which,
                  const struct taxis *a, const double *col, int height,
                  int yw, const struct marks *m)
{
   int data = which == CHART_DATA;
   uint64_t top = chart_top(f, which);
   int cols = a->cols;
   char *row = malloc((size_t)cols + (size_t)yw + 16);
   char *lab = calloc((size_t)cols + 8, 1);
   if (!row || !lab) {
      free(row);
      free(lab);
      fprintf(out, "(out of memory)\n");
      return;
   }
   int peak_col = tcol(a, (double)f->samples.col[chart_col[which]].max_t);

   if (which == CHART_HEAP)
      fprintf(out, "Live heap, bytes the program asked for\n");
   else
      fprintf(out, "%s working set, pages of %llu bytes\n",
              data ? "Data" : "Instruction",
              (unsigned long long)f->pagesize);
   int mid = height >= 6 && top >= 4 ? height / 2 : 0;
   for (int r = height; r >= 1; r--) {
      int n = 0;
      if (r == height)
         n = snprintf(row, (size_t)yw + 3, "%*llu ^", yw,
                      (unsigned long long)top);
      else if (r == mid)
         n = snprintf(row, (size_t)yw + 3, "%*.0f |", yw,
                      (double)top * r / height);
      else
         n = snprintf(row, (size_t)yw + 3, "%*s |", yw, "");
      for (int c = 0; c < cols; c++) {
         char ch = ' ';
         if (col[c] > 0) {
            double h = col[c] * height / (double)top;
            int rows = (int)(h + 0.5);
            if (rows >= r)
               ch = c == peak_col ? '#' : ':';
            else if (rows == 0 && r == 1)
               ch = '.';
         }
         row[n++] = ch;
      }
      put_row(out, row, n);
   }
   /* the x axis, its labels and the events under it */
   memset(row, '-', (size_t)cols);
   memset(lab, ' ', (size_t)cols + 2);
   ticks(a, row, lab, cols + 2);
   fprintf(out, "%*s +%.*s>%s\n", yw, "0", cols, row, a->unit);
   fprintf(out, "%*s ", yw, "");
   put_row(out, lab, cols + 2);
   if (m->n_marks || m->n_startstop) {
      memset(row, ' ', (size_t)cols);
      event_row(row, f, m, a);
      symbol_row(out, row, cols, yw);
   }
   if (which != CHART_HEAP && has_peaks(f, data)) {
      memset(row, ' ', (size_t)cols);
      peak_row(row, f, data, a);
      symbol_row(out, row, cols, yw);
   }
   free(row);
   free(lab);
}

/* The width of a chart's y labels, and the columns left for its plot
   in |width|. */
static int plot_cols(int width, int yw)
{
   int cols = width - yw - 5;         /* label, ' ', axis, plot, '>', unit */
   return cols < 8 ? 8 : cols;
}

/* The charts, their columns from one walk over the samples; the working
   sets' y labels of one width, so that their columns line up, the
   heap's (in bytes) of its own. */
static void charts(FILE *out, const struct wsp_file *f,
                   const struct wsp_text_opts *o, const struct marks *m)
{
   int n = f->columns.at[WSP_COL_HEAP] >= 0 ? N_CHARTS : CHART_HEAP;
   uint64_t ti = chart_top(f, CHART_INSN), td = chart_top(f, CHART_DATA);
   int yw[N_CHARTS], ok = 1;
   struct taxis a[N_CHARTS];
   struct columns k = { { NULL }, (double)f->tau, n, { NULL }, 0,
                        { -1, -1, -1 } };
   yw[CHART_INSN] = yw[CHART_DATA] = digits(ti > td ? ti : td);
   yw[CHART_HEAP] = digits(n > CHART_HEAP ? chart_top(f, CHART_HEAP) : 1);
   for (int d = 0; d < n; d++) {
      taxis_init(&a[d], f, plot_cols(o->width, yw[d]));
      k.a[d] = &a[d];
      k.col[d] = malloc((size_t)a[d].cols * sizeof *k.col[d]);
      ok = ok && k.col[d];
   }
   fputc('\n', out);
   if (ok) {
      for (int d = 0; d < n; d++)
         for (int c = 0; c < a[d].cols; c++)
            k.col[d][c] = -1;
      wsp_samples_each(f, column_sample, &k);
      for (int d = 0; d < n; d++) {
         if (d)
            fputc('\n', out);
         chart(out, f, d, &a[d], k.col[d], o->height, yw[d], m);
      }
   } else {
      fprintf(out, "(out of memory)\n");
   }
   fputc('\n', out);
   for (int d = 0; d < n; d++)
      free(k.col[d]);
}

/*------------------------------------------------------------*/
/*--- The charts and their legend                          ---*/
/*------------------------------------------------------------*/

void wsp_text_charts(FILE *out, const struct wsp_file *f,
                     const struct wsp_text_opts *o)
{
   struct marks m;
   marks_init(&m, f);
   if (f->samples.n) {
      charts(out, f, o, &m);
   } else {
      fprintf(out, "\nNo samples: measurement was never on%s.\n\n",
              f->version >= 4 ? "" : ", or the run was shorter than T");
   }
   legend(out, f, &m);
   if (m.n_marks || m.n_startstop || f->n_peaks)
      fputc('\n', out);
}

/*--------------------------------------------------------------------*/
/*--- end                                         wsp_text_chart.c ---*/
/*--------------------------------------------------------------------*/

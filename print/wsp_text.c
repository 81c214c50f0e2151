/*--------------------------------------------------------------------*/
/*--- ws_print: the text report and its charts.       wsp_text.c ---*/
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

/* The report ws_print prints by default, in the manner of ms_print:
   a header, one chart per working set (instruction, data) made of
   characters, a legend for the time axis, then the summaries.

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
   a row under each chart its peaks, by number.

   After the header, the largest samples with their peaks' numbers (to
   jump to); after the summaries the peaks with their stacks and owners,
   and the hot pages (wsp_peaks.c). */

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "wsp_model.h"

#define MAX_LISTED 10         /* peaks of a stack, dumps, changes */

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

static int digits(uint64_t v)
{
   int n = 1;
   while (v >= 10) {
      v /= 10;
      n++;
   }
   return n;
}

static double last_time(const struct wsp_file *f)
{
   double t = 0;
   if (f->n_samples)
      t = (double)f->samples[f->n_samples - 1].t;
   if (f->n_events && (double)f->events[f->n_events - 1].t > t)
      t = (double)f->events[f->n_events - 1].t;
   return t;
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
   a->tmax = last_time(f);
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

static int same(struct wsp_str a, struct wsp_str b)
{
   return a.len == b.len && memcmp(a.s, b.s, a.len) == 0;
}

/* The letter index of a mark's label, or MAX_LETTERS. */
static size_t mark_index(const struct marks *m, struct wsp_str l)
{
   for (size_t i = 0; i < m->n; i++)
      if (same(m->label[i], l))
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
         if (same(more[j], e->text))
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
         if (e->kind != WSP_EV_MARK || !same(e->text, m->label[i]))
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

static uint64_t value(const struct wsp_sample *s, int data)
{
   return data ? s->data : s->insn;
}

/* The largest sample of one kind (its index in *at), at least 1. */
static uint64_t chart_top(const struct wsp_file *f, int data, size_t *at)
{
   uint64_t peak = 0;
   *at = 0;
   for (size_t i = 0; i < f->n_samples; i++)
      if (value(&f->samples[i], data) > peak) {
         peak = value(&f->samples[i], data);
         *at = i;
      }
   return peak ? peak : 1;
}

/* One chart; yw is the width of the y labels, the same for both charts
   so that their columns line up. */
static void chart(FILE *out, const struct wsp_file *f, int data,
                  int width, int height, int yw, const struct marks *m)
{
   size_t peak_i;
   uint64_t top = chart_top(f, data, &peak_i);
   int cols = width - yw - 5;         /* label, ' ', axis, plot, '>', unit */
   if (cols < 8)
      cols = 8;
   struct taxis a;
   taxis_init(&a, f, cols);

   /* The value of each column, or -1 for a blank one. */
   double *col = malloc((size_t)cols * sizeof *col);
   char *row = malloc((size_t)cols + (size_t)yw + 16);
   char *lab = calloc((size_t)cols + 8, 1);
   if (!col || !row || !lab) {
      free(col);
      free(row);
      free(lab);
      fprintf(out, "(out of memory)\n");
      return;
   }
   for (int c = 0; c < cols; c++)
      col[c] = -1;
   int prev = -1;
   for (size_t i = 0; i < f->n_samples; i++) {
      const struct wsp_sample *s = &f->samples[i];
      double v = (double)value(s, data);
      int c = tcol(&a, (double)s->t);
      for (int e = prev + 1; e < c; e++)        /* blank columns before */
         if ((double)s->t - (double)f->tau < (e + 1) * a.tmax / cols)
            col[e] = v;
      if (v > col[c])
         col[c] = v;
      prev = c;
   }
   int peak_col = f->n_samples ? tcol(&a, (double)f->samples[peak_i].t) : -1;

   fprintf(out, "%s working set, pages of %llu bytes\n",
           data ? "Data" : "Instruction", (unsigned long long)f->pagesize);
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
   ticks(&a, row, lab, cols + 2);
   fprintf(out, "%*s +%.*s>%s\n", yw, "0", cols, row, a.unit);
   fprintf(out, "%*s ", yw, "");
   put_row(out, lab, cols + 2);
   if (m->n_marks || m->n_startstop) {
      memset(row, ' ', (size_t)cols);
      event_row(row, f, m, &a);
      fprintf(out, "%*s  ", yw, "");
      put_row(out, row, cols);
   }
   if (has_peaks(f, data)) {
      memset(row, ' ', (size_t)cols);
      peak_row(row, f, data, &a);
      fprintf(out, "%*s  ", yw, "");
      put_row(out, row, cols);
   }
   free(col);
   free(row);
   free(lab);
}

/*------------------------------------------------------------*/
/*--- Header and summaries                                 ---*/
/*------------------------------------------------------------*/

static void header(FILE *out, const struct wsp_file *f,
                   const struct wsp_text_opts *o)
{
   wsp_rule(out, o->width);
   if (!f->have_header) {
      fprintf(out, "Output file:  %s\n", o->name);
      for (size_t i = 0; i < f->n_hdr; i++) {
         fprintf(out, "%.*s: ", (int)f->hdr[i].key.len, f->hdr[i].key.s);
         wsp_put_escaped(out, f->hdr[i].value);
         fputc('\n', out);
      }
      fprintf(out, "Run:          did not finish: the file ends inside "
              "its header\n");
      wsp_rule(out, o->width);
      return;
   }
   const char *u = f->ms ? "ms" : "i";
   int set_tau = 0, set_every = 0;
   for (size_t i = 0; i < f->n_events; i++)
      if (f->events[i].kind == WSP_EV_SET) {
         set_tau |= f->events[i].text.len == 3
                    && memcmp(f->events[i].text.s, "tau", 3) == 0;
         set_every |= f->events[i].text.len == 5
                      && memcmp(f->events[i].text.s, "every", 5) == 0;
      }
   fprintf(out, "Command:      ");
   wsp_put_escaped(out, f->command);
   fprintf(out, "\nOutput file:  %s (", o->name);
   wsp_put_escaped(out, f->tool);
   fprintf(out, ", format %d)\n", f->version);
   fprintf(out, "PID:          %llu (parent %llu)\n",
           (unsigned long long)f->pid, (unsigned long long)f->ppid);
   fprintf(out, "Time unit:    %s\n", f->ms ? "milliseconds (ms)"
                                            : "instructions (i)");
   fprintf(out, "Every (T):    %llu %s%s\n", (unsigned long long)f->every, u,
           set_every ? " at first (changed at run time, see Events)" : "");
   fprintf(out, "Window (tau): %llu %s%s\n", (unsigned long long)f->tau, u,
           set_tau ? " at first (changed at run time, see Events)" : "");
   fprintf(out, "Page size:    %llu bytes\n", (unsigned long long)f->pagesize);
   fprintf(out, "Options:      syscalls %s, per-thread %s, "
           "instr-atstart %s\n", f->syscalls ? "yes" : "no",
           f->per_thread ? "yes" : "no", f->instr_atstart ? "yes" : "no");
   fprintf(out, "Samples:      %zu\n", f->n_samples);
   if (f->complete)
      fprintf(out, "Run:          finished\n");
   else
      fprintf(out, "Run:          did not finish: the file has no trailer "
              "(killed?)%s\n", f->cut_line ? "; its cut last line was left "
              "out" : "");
   wsp_rule(out, o->width);
}

static void apt_line(FILE *out, const char *what, uint64_t avg10,
                     uint64_t peak, uint64_t total, int have_total,
                     uint64_t ps)
{
   char a[32], ka[32], kp[32], kt[32];
   wsp_fmt_avg(a, sizeof a, avg10);
   wsp_fmt_kb(ka, sizeof ka, (double)avg10 / 10.0, ps);
   wsp_fmt_kb(kp, sizeof kp, (double)peak, ps);
   wsp_fmt_kb(kt, sizeof kt, (double)total, ps);
   if (have_total)
      fprintf(out, "  %s avg/peak/total: %s/%llu/%llu pages (%s/%s/%s kB)\n",
              what, a, (unsigned long long)peak, (unsigned long long)total,
              ka, kp, kt);
   else
      fprintf(out, "  %s avg/peak: %s/%llu pages (%s/%s kB)\n", what, a,
              (unsigned long long)peak, ka, kp);
}

/* Mean of the samples in tenths, rounded half up. */
static uint64_t mean10(const struct wsp_file *f, int data, uint64_t *peak)
{
   long double sum = 0;
   *peak = 0;
   for (size_t i = 0; i < f->n_samples; i++) {
      uint64_t v = value(&f->samples[i], data);
      sum += v;
      if (v > *peak)
         *peak = v;
   }
   if (!f->n_samples)
      return 0;
   long double m = sum * 10 / f->n_samples + 0.5L;
   return m >= 18446744073709551615.0L ? UINT64_MAX : (uint64_t)m;
}

static void summary(FILE *out, const struct wsp_file *f)
{
   uint64_t peak;
   if (f->have_insn_summary || f->have_data_summary) {
      fprintf(out, "Summary (from the trailer):\n");
      if (f->have_insn_summary)
         apt_line(out, "Insn", f->insn_summary.avg10, f->insn_summary.peak,
                  f->insn_summary.total, 1, f->pagesize);
      if (f->have_data_summary)
         apt_line(out, "Data", f->data_summary.avg10, f->data_summary.peak,
                  f->data_summary.total, 1, f->pagesize);
   } else {
      fprintf(out, "Summary (from the %zu samples; totals are only in "
              "a trailer):\n", f->n_samples);
      uint64_t m = mean10(f, 0, &peak);
      apt_line(out, "Insn", m, peak, 0, 0, f->pagesize);
      m = mean10(f, 1, &peak);
      apt_line(out, "Data", m, peak, 0, 0, f->pagesize);
   }
   fprintf(out, "  Samples: %zu\n", f->n_samples);
}

static void regions(FILE *out, const struct wsp_file *f, int width)
{
   struct wsp_line l = { .n = 0 };
   if (!f->n_regions) {
      fprintf(out, "\nRegions: %s\n", f->complete ? "none (WS_MARK names "
              "them: see docs/control.md)"
              : "none in the file (they are written at exit)");
      return;
   }
   fprintf(out, "\nRegions (pages):\n");
   fprintf(out, "  %7s %8s  %-22s %-22s %s\n", "regions", "samples",
           "insn avg/peak/total", "data avg/peak/total", "label");
   for (size_t i = 0; i < f->n_regions; i++) {
      const struct wsp_region *g = &f->regions[i];
      char a[32], ib[80], db[80];
      wsp_fmt_avg(a, sizeof a, g->insn.avg10);
      snprintf(ib, sizeof ib, "%s/%llu/%llu", a,
               (unsigned long long)g->insn.peak,
               (unsigned long long)g->insn.total);
      wsp_fmt_avg(a, sizeof a, g->data.avg10);
      snprintf(db, sizeof db, "%s/%llu/%llu", a,
               (unsigned long long)g->data.peak,
               (unsigned long long)g->data.total);
      wsp_lprintf(&l, "  %7llu %8llu  %-22s %-22s ",
                  (unsigned long long)g->regions,
                  (unsigned long long)g->samples, ib, db);
      wsp_lstr(&l, g->label);          /* no control bytes: checked */
      wsp_lflush(out, &l, width);
   }
}

/* Per-thread columns: one line per thread id. */
static void per_thread(FILE *out, const struct wsp_file *f)
{
   if (!f->per_thread || !f->n_samples)
      return;
   uint64_t shared_peak = 0;
   long double shared_sum = 0;
   for (size_t i = 0; i < f->n_samples; i++) {
      shared_sum += f->samples[i].shared;
      if (f->samples[i].shared > shared_peak)
         shared_peak = f->samples[i].shared;
   }
   fprintf(out, "\nPer thread (pages; a thread id may be reused after "
           "its thread exits):\n");
   fprintf(out, "  shared data pages avg/peak: %.1Lf/%llu\n",
           shared_sum / f->n_samples, (unsigned long long)shared_peak);
   fprintf(out, "  %6s %8s  %-16s %s\n", "tid", "samples",
           "insn avg/peak", "data avg/peak");
   uint64_t tid = 0;
   while (wsp_next_tid(f, &tid)) {
      size_t n = 0;
      long double si = 0, sd = 0;
      uint64_t pi = 0, pd = 0;
      for (size_t i = 0; i < f->n_thr; i++)
         if (f->thr[i].tid == tid) {
            n++;
            si += f->thr[i].insn;
            sd += f->thr[i].data;
            if (f->thr[i].insn > pi)
               pi = f->thr[i].insn;
            if (f->thr[i].data > pd)
               pd = f->thr[i].data;
         }
      char ib[48], db[48];
      snprintf(ib, sizeof ib, "%.1Lf/%llu", si / n, (unsigned long long)pi);
      snprintf(db, sizeof db, "%.1Lf/%llu", sd / n, (unsigned long long)pd);
      fprintf(out, "  %6llu %8zu  %-16s %s\n", (unsigned long long)tid,
              n, ib, db);
   }
}

static void events(FILE *out, const struct wsp_file *f)
{
   size_t started = 0, exited = 0, live = 0, most = 0, other = 0;
   size_t n_set = 0;
   char tb[48];

   for (size_t i = 0; i < f->n_events; i++)
      switch (f->events[i].kind) {
      case WSP_EV_THREAD_START:
         started++;
         if (++live > most)
            most = live;
         break;
      case WSP_EV_THREAD_EXIT:
         exited++;
         if (live)
            live--;
         break;
      case WSP_EV_SET:
         n_set++;
         break;
      case WSP_EV_OTHER:
         other++;
         break;
      default:
         break;
      }
   fprintf(out, "\nEvents:\n");
   fprintf(out, "  threads: %zu started, %zu exited, at most %zu at a "
           "time\n", started, exited, most);
   if (f->n_events && f->events[f->n_events - 1].kind == WSP_EV_EXEC) {
      const struct wsp_event *e = &f->events[f->n_events - 1];
      wsp_fmt_time(tb, sizeof tb, e->t, f->ms);
      fprintf(out, "  at %s the program exec'd ", tb);
      wsp_put_escaped(out, e->text);
      fprintf(out, "; this file ends there\n");
   }
   if (n_set) {
      size_t shown = 0;
      fprintf(out, "  parameter changes: %zu\n", n_set);
      for (size_t i = 0; i < f->n_events && shown < MAX_LISTED; i++) {
         const struct wsp_event *e = &f->events[i];
         if (e->kind != WSP_EV_SET)
            continue;
         wsp_fmt_time(tb, sizeof tb, e->t, f->ms);
         fprintf(out, "    at %s: ", tb);
         wsp_put_escaped(out, e->text);
         fprintf(out, " %llu\n", (unsigned long long)e->num);
         shown++;
      }
      if (n_set > shown)
         fprintf(out, "    ... and %zu more\n", n_set - shown);
   }
   size_t n_ev = 0;                   /* ws dump to a file or gdb */
   for (size_t k = 0; k < f->n_events; k++)
      n_ev += f->events[k].kind == WSP_EV_DUMP_FILE
              || f->events[k].kind == WSP_EV_DUMP_MONITOR;
   if (f->n_dumps + n_ev) {
      /* the blocks (WS_DUMP) and the dumps elsewhere (ws dump), merged
         in time order */
      size_t shown = 0, d = 0, i = 0;
      fprintf(out, "  dumps: %zu\n", f->n_dumps + n_ev);
      while (shown < MAX_LISTED) {
         while (i < f->n_events && f->events[i].kind != WSP_EV_DUMP_FILE
                && f->events[i].kind != WSP_EV_DUMP_MONITOR)
            i++;
         if (d >= f->n_dumps && i >= f->n_events)
            break;
         if (d < f->n_dumps
             && (i >= f->n_events || f->dumps[d].t <= f->events[i].t)) {
            const struct wsp_dump *b = &f->dumps[d++];
            wsp_fmt_time(tb, sizeof tb, b->t, f->ms);
            fprintf(out, "    at %s: WS_DUMP", tb);
            if (b->label.len) {
               fputc(' ', out);
               wsp_put_escaped(out, b->label);
            }
            fprintf(out, ": %llu insn and %llu data pages\n",
                    (unsigned long long)b->n_insn,
                    (unsigned long long)b->n_data);
         } else {
            const struct wsp_event *e = &f->events[i++];
            wsp_fmt_time(tb, sizeof tb, e->t, f->ms);
            fprintf(out, "    at %s: ", tb);
            if (e->kind == WSP_EV_DUMP_FILE) {
               fprintf(out, "ws dump to the file ");
               wsp_put_escaped(out, e->text);
            } else {
               fprintf(out, "ws dump to gdb or vgdb");
            }
            fputc('\n', out);
         }
         shown++;
      }
      if (f->n_dumps + n_ev > shown)
         fprintf(out, "    ... and %zu more\n", f->n_dumps + n_ev - shown);
   }
   if (other)
      fprintf(out, "  %zu event%s of kinds this ws_print does not know\n",
              other, other > 1 ? "s" : "");
}

/*------------------------------------------------------------*/
/*--- The report                                           ---*/
/*------------------------------------------------------------*/

void wsp_text(FILE *out, const struct wsp_file *f,
              const struct wsp_text_opts *o)
{
   header(out, f, o);
   if (!f->have_header)
      return;
   wsp_text_largest(out, f, o->width);
   struct marks m;
   marks_init(&m, f);
   if (f->n_samples) {
      size_t at;
      uint64_t ti = chart_top(f, 0, &at), td = chart_top(f, 1, &at);
      int yw = digits(ti > td ? ti : td);
      fputc('\n', out);
      chart(out, f, 0, o->width, o->height, yw, &m);
      fputc('\n', out);
      chart(out, f, 1, o->width, o->height, yw, &m);
      fputc('\n', out);
   } else {
      fprintf(out, "\nNo samples: measurement was never on%s.\n\n",
              f->version >= 4 ? "" : ", or the run was shorter than T");
   }
   legend(out, f, &m);
   if (m.n_marks || m.n_startstop || f->n_peaks)
      fputc('\n', out);
   wsp_rule(out, o->width);
   summary(out, f);
   regions(out, f, o->width);
   wsp_text_peaks(out, f, o->width);
   wsp_text_hot(out, f, o->width);
   wsp_heap_text(out, f, o->width);
   per_thread(out, f);
   events(out, f);
}

/*--------------------------------------------------------------------*/
/*--- end                                               wsp_text.c ---*/
/*--------------------------------------------------------------------*/

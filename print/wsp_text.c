/*--------------------------------------------------------------------*/
/*--- ws_print: the text report.                        wsp_text.c ---*/
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
   a header; the largest samples with their peaks' numbers, to jump to
   (wsp_text_peaks.c); the charts and their legend (wsp_text_chart.c);
   then the summaries and regions; the peaks with their stacks and
   owners and the hot pages (wsp_text_peaks.c); heap efficiency
   (wsp_text_heap.c); per-thread figures and the events. */

#include <math.h>
#include <string.h>

#include "wsp_render.h"

#define MAX_LISTED 10         /* parameter changes, dumps */

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
   if (f->linesize)
      fprintf(out, "Line size:    %llu bytes\n",
              (unsigned long long)f->linesize);
   fprintf(out, "Options:      syscalls %s, per-thread %s, "
           "instr-atstart %s\n", f->syscalls ? "yes" : "no",
           f->per_thread ? "yes" : "no", f->instr_atstart ? "yes" : "no");
   fprintf(out, "Samples:      %zu\n", f->samples.n);
   if (f->complete)
      fprintf(out, "Run:          finished\n");
   else
      fprintf(out, "Run:          did not finish: the file has no trailer "
              "(killed?)%s\n", f->cut_line ? "; its cut last line was left "
              "out" : "");
   wsp_rule(out, o->width);
}

/* Pages in whole kB as ws's own summary gives them: |sum| pages over |n|
   samples (1: a count of pages), rounded half up from the unrounded
   sum, so that an average's kB is ws's and not those of its rounding. */
static unsigned long long kb_of(long double sum, uint64_t n, uint64_t ps)
{
   long double denom = (long double)(n ? n : 1) * 1024;
   long double kb = floorl((sum * ps + denom / 2) / denom);
   return kb >= 18446744073709551615.0L ? UINT64_MAX : (unsigned long long)kb;
}

/* |sum| and |n| are the samples', whose mean in tenths is |mean10|: the
   average's kB come from them when they give the trailer's average
   |avg10| (ws's own files), else (older files) from |avg10|. */
static void apt_line(FILE *out, const char *what, uint64_t avg10,
                     uint64_t mean10, long double sum, size_t n, uint64_t peak,
                     uint64_t total, int have_total, uint64_t ps)
{
   char a[32];
   if (mean10 != avg10) {
      sum = avg10;
      n = 10;
   }
   wsp_fmt_avg(a, sizeof a, avg10);
   if (have_total)
      fprintf(out, "  %s avg/peak/total: %s/%llu/%llu pages (%llu/%llu/%llu "
              "kB)", what, a, (unsigned long long)peak,
              (unsigned long long)total, kb_of(sum, n, ps), kb_of(peak, 1, ps),
              kb_of(total, 1, ps));
   else
      fprintf(out, "  %s avg/peak: %s/%llu pages (%llu/%llu kB)\n", what, a,
              (unsigned long long)peak, kb_of(sum, n, ps), kb_of(peak, 1, ps));
}

/* Mean of the samples in tenths, rounded half up; their sum in *sum. */
static uint64_t mean10(const struct wsp_file *f, int data, uint64_t *peak,
                       long double *sum)
{
   const struct wsp_col_stats *st = &f->samples.col[wsp_kind_col(data)];
   *peak = st->max;
   *sum = st->sum;
   if (!f->samples.n)
      return 0;
   long double m = st->sum * 10 / f->samples.n + 0.5L;
   return m >= 18446744073709551615.0L ? UINT64_MAX : (uint64_t)m;
}

/* The trailer's lines of a kind after its pages, as ws's own summary
   gives them (", A/P/T lines", data's then ", density D"), and the end
   of the line. */
static void lines_tail(FILE *out, const struct wsp_file *f, int data)
{
   if (f->have_lines_summary) {
      const struct wsp_apt *l = data ? &f->data_lines_summary
                                     : &f->insn_lines_summary;
      char a[32];
      wsp_fmt_avg(a, sizeof a, l->avg10);
      fprintf(out, ", %s/%llu/%llu lines", a, (unsigned long long)l->peak,
              (unsigned long long)l->total);
      if (data)
         fprintf(out, ", density %llu.%03llu",
                 (unsigned long long)(f->density1000 / 1000),
                 (unsigned long long)(f->density1000 % 1000));
   }
   fputc('\n', out);
}

static void summary(FILE *out, const struct wsp_file *f)
{
   uint64_t ipeak, dpeak;
   long double isum, dsum;
   uint64_t im = mean10(f, 0, &ipeak, &isum), dm = mean10(f, 1, &dpeak, &dsum);
   if (f->have_insn_summary || f->have_data_summary) {
      fprintf(out, "Summary (from the trailer):\n");
      if (f->have_insn_summary) {
         apt_line(out, "Insn", f->insn_summary.avg10, im, isum,
                  f->samples.n, f->insn_summary.peak, f->insn_summary.total,
                  1, f->pagesize);
         lines_tail(out, f, 0);
      }
      if (f->have_data_summary) {
         apt_line(out, "Data", f->data_summary.avg10, dm, dsum,
                  f->samples.n, f->data_summary.peak, f->data_summary.total,
                  1, f->pagesize);
         lines_tail(out, f, 1);
      }
   } else {
      fprintf(out, "Summary (from the %zu samples; totals are only in "
              "a trailer):\n", f->samples.n);
      apt_line(out, "Insn", im, im, isum, f->samples.n, ipeak, 0, 0,
               f->pagesize);
      apt_line(out, "Data", dm, dm, dsum, f->samples.n, dpeak, 0, 0,
               f->pagesize);
   }
   if (f->have_lines_summary)
      fprintf(out, "  Lines of %llu bytes; density: lines in the window / "
              "lines of its pages\n", (unsigned long long)f->linesize);
   fprintf(out, "  Samples: %zu\n", f->samples.n);
}

/* "avg/peak/total" of one kind. */
static void apt_text(char *buf, size_t n, const struct wsp_apt *a)
{
   char avg[32];
   wsp_fmt_avg(avg, sizeof avg, a->avg10);
   snprintf(buf, n, "%s/%llu/%llu", avg, (unsigned long long)a->peak,
            (unsigned long long)a->total);
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
   for (int lines = 0; lines <= (f->linesize != 0); lines++) {
      fprintf(out, "\nRegions (%s):\n", lines ? "lines" : "pages");
      fprintf(out, "  %7s %8s  %-22s %-22s %s\n", "regions", "samples",
              "insn avg/peak/total", "data avg/peak/total", "label");
      for (size_t i = 0; i < f->n_regions; i++) {
         const struct wsp_region *g = &f->regions[i];
         char ib[80], db[80];
         apt_text(ib, sizeof ib, lines ? &g->insn_lines : &g->insn);
         apt_text(db, sizeof db, lines ? &g->data_lines : &g->data);
         wsp_lprintf(&l, "  %7llu %8llu  %-22s %-22s ",
                     (unsigned long long)g->regions,
                     (unsigned long long)g->samples, ib, db);
         wsp_lstr(&l, g->label);       /* no control bytes: checked */
         wsp_lflush(out, &l, width);
      }
   }
}

/* Per-thread columns: one line per thread id. */
static void per_thread(FILE *out, const struct wsp_file *f)
{
   const struct wsp_series *ser = &f->samples;
   if (!f->per_thread || !ser->n)
      return;
   fprintf(out, "\nPer thread (pages; a thread id may be reused after "
           "its thread exits):\n");
   fprintf(out, "  shared data pages avg/peak: %.1Lf/%llu\n",
           ser->col[WSP_COL_SHARED].sum / ser->n,
           (unsigned long long)ser->col[WSP_COL_SHARED].max);
   fprintf(out, "  %6s %8s  %-16s %s\n", "tid", "samples",
           "insn avg/peak", "data avg/peak");
   for (size_t k = 0; k < ser->n_tids; k++) {
      const struct wsp_tid_stats *ts = &ser->tids[k];
      char ib[48], db[48];
      snprintf(ib, sizeof ib, "%.1Lf/%llu", ts->sum_insn / ts->n,
               (unsigned long long)ts->max_insn);
      snprintf(db, sizeof db, "%.1Lf/%llu", ts->sum_data / ts->n,
               (unsigned long long)ts->max_data);
      fprintf(out, "  %6llu %8zu  %-16s %s\n", (unsigned long long)ts->tid,
              ts->n, ib, db);
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
   wsp_text_charts(out, f, o);
   wsp_rule(out, o->width);
   summary(out, f);
   regions(out, f, o->width);
   wsp_text_peaks(out, f, o->width);
   wsp_text_hot(out, f, o->width);
   wsp_text_heap(out, f, o->width);
   wsp_text_routines(out, f, o->width);
   wsp_text_curves(out, f, o->width);
   per_thread(out, f);
   events(out, f);
}

/*--------------------------------------------------------------------*/
/*--- end                                               wsp_text.c ---*/
/*--------------------------------------------------------------------*/

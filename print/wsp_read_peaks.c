/*--------------------------------------------------------------------*/
/*--- ws_print: reading peaks.                    wsp_read_peaks.c ---*/
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

/* Owns the reading of peaks: version 3's peak events (in the body,
   after the sample they flag) and version 4's peak lines (in the
   trailer, each checked against the samples: the one at its time has
   its size, and a largest sample is the first of its size), with their
   peak-region and owner lines (at most 10, largest first, adding up to
   the peak's pages). */

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "wsp_reader.h"

/* The owner lines of the open peak are over: check their sum. */
int close_peak(struct reader *r)
{
   struct lex *p = &r->p;
   struct body *b = &r->b;
   const struct wsp_file *f = p->f;
   if (!b->peak_open)
      return 0;
   b->peak_open = 0;
   const struct wsp_peak *pk = &f->peaks[b->open_peak];
   /* version 4: the peak's own working set, of its kind */
   uint64_t total = f->version >= 4 ? pk->size : b->last_data;
   uint64_t sum = 0;
   if (f->version >= 4 && (pk->why & WSP_WHY_REGION) && pk->reg_n == 0)
      return fail(p, "peak %zu is a region's largest sample: "
                  "'peak-region' lines name the regions", b->open_peak);
   for (size_t i = 0; i < pk->own_n; i++) {
      uint64_t pages = f->owners[pk->own_first + i].pages;
      if (pages > total - sum)              /* would pass the total */
         return fail(p, "the owner lines of peak %zu add up to more than "
                     "its %llu pages", b->open_peak,
                     (unsigned long long)total);
      sum += pages;
   }
   if (sum != total)
      return fail(p, "the owner lines of peak %zu add up to %llu pages, the "
                  "peak has %llu", b->open_peak, (unsigned long long)sum,
                  (unsigned long long)total);
   return 0;
}

/* The arguments of `event T peak N KIND SIZE STACK` (a1: after "peak "). */
int peak_event(struct reader *r, struct wsp_event *e, struct wsp_str a1)
{
   struct lex *p = &r->p;
   struct body *b = &r->b;
   struct wsp_file *f = p->f;
   struct cur c = { a1.s, a1.len, 0 };
   static const char form[] = "a peak event is 'event T peak N insn|data "
                              "SIZE STACK'";
   struct wsp_peak pk;
   uint64_t n, sid;
   int k;

   memset(&pk, 0, sizeof pk);
   if ((k = cur_u64(&c, &n)) <= 0)
      return num_fail(p, k, form);
   if (!cur_lit(&c, " ") || (pk.data = cur_kind(&c)) < 0
       || !cur_lit(&c, " "))
      return fail(p, "%s", form);
   if ((k = cur_u64(&c, &pk.size)) <= 0 || !cur_lit(&c, " ")
       || (k = cur_u64(&c, &sid)) <= 0 || !cur_end(&c))
      return num_fail(p, k < 0 ? k : 0, form);
   if (n > f->n_peaks)
      return fail(p, "peaks are numbered from 0 in file order: this one "
                  "should be at most %zu", f->n_peaks);
   if (n < f->n_peaks) {
      /* the peak goes on, larger; only the latest of its kind can */
      if (b->latest[pk.data] != n + 1)
         return fail(p, "peak %llu is not the latest %s peak",
                     (unsigned long long)n, pk.data ? "data" : "insn");
      if (pk.size <= f->peaks[n].size)
         return fail(p, "a peak's event comes again only when the peak is "
                     "larger (it was %llu)",
                     (unsigned long long)f->peaks[n].size);
   }
   if (!b->at_sample || e->t != b->last_sample_t)
      return fail(p, "a peak event follows the sample it flags, at the "
                  "same time");
   if (pk.size != (pk.data ? b->last_data : b->last_insn))
      return fail(p, "the peak's size is not its sample's %s column (%llu)",
                  pk.data ? "data" : "insn",
                  (unsigned long long)(pk.data ? b->last_data
                                               : b->last_insn));
   if (stack_ref(p, sid, &pk.stack))
      return -1;
   pk.t = e->t;
   pk.own_first = f->n_owners;
   pk.line = p->lineno;
   if (n == f->n_peaks) {
      if (wsp_grow(&f->peaks, &r->cap.peaks, f->n_peaks, sizeof *f->peaks))
         return fail(p, "out of memory");
      f->n_peaks++;
   }
   f->peaks[n] = pk;
   e->kind = WSP_EV_PEAK;
   e->num = n;
   b->open_peak = (size_t)n;
   b->latest[pk.data] = (size_t)n + 1;
   b->peak_open = 1;
   b->windows_first = f->n_heap_windows;
   return 0;
}

/* The sample at time t (times increase), or NULL. */
static const struct wsp_sample *sample_at(const struct wsp_file *f,
                                          uint64_t t)
{
   const struct wsp_series *ser = &f->samples;
   size_t lo = 0, hi = ser->n;
   while (lo < hi) {
      size_t mid = lo + (hi - lo) / 2;
      if (ser->kept[mid].v[WSP_COL_T] < t)
         lo = mid + 1;
      else
         hi = mid;
   }
   return lo < ser->n && ser->kept[lo].v[WSP_COL_T] == t ? &ser->kept[lo]
                                                         : NULL;
}

/* What the samples say of a version 4 peak pk (s: the sample at its
   time, or NULL): it has the peak's size, and a largest sample is the
   first of its size.  0, or failed. */
static int peak_sample(struct lex *p, const struct wsp_file *f,
                       const struct wsp_peak *pk, const struct wsp_sample *s)
{
   enum wsp_col col = wsp_kind_col(pk->data);
   if (!s || s->v[col] != pk->size)
      return fail(p, "no sample has %llu %s pages at t=%llu",
                  (unsigned long long)pk->size, pk->data ? "data" : "insn",
                  (unsigned long long)pk->t);
   const struct wsp_col_stats *st = &f->samples.col[col];
   if ((pk->why & WSP_WHY_LARGEST) && st->max_t != pk->t)
      return fail(p, "the largest %s sample is the first of %llu pages, "
                  "at t=%llu", pk->data ? "data" : "insn",
                  (unsigned long long)st->max, (unsigned long long)st->max_t);
   return 0;
}

/* The peak lines whose samples were let go, by reading the samples
   again: each check finds the sample at its peak's time (both in time
   order), then the checks are made in the order of their lines. */
struct finding {
   struct reader *r;
   size_t        *order;            /* of the checks, by their peak's t */
   size_t         at;
};

static uint64_t check_t(const struct reader *r, size_t i)
{
   return r->p.f->peaks[r->checks[i].peak].t;
}

static const struct reader *order_reader;

static int by_peak_time(const void *a, const void *b)
{
   uint64_t x = check_t(order_reader, *(const size_t *)a);
   uint64_t y = check_t(order_reader, *(const size_t *)b);
   return x < y ? -1 : x > y;
}

static int find_sample(void *arg, size_t i, const struct wsp_sample *s,
                       const struct wsp_thread_ws *thr)
{
   struct finding *fd = arg;
   struct reader *r = fd->r;
   uint64_t t = s->v[WSP_COL_T];
   (void)i;
   (void)thr;
   while (fd->at < r->n_checks && check_t(r, fd->order[fd->at]) < t)
      fd->at++;
   for (size_t j = fd->at; j < r->n_checks
                           && check_t(r, fd->order[j]) == t; j++) {
      r->checks[fd->order[j]].found = 1;
      r->checks[fd->order[j]].s = *s;
   }
   return 0;
}

int check_peaks(struct reader *r)
{
   struct finding fd = { r, malloc(r->n_checks * sizeof *fd.order), 0 };
   const struct wsp_file *f = r->p.f;
   if (!fd.order)
      return fail(&r->p, "out of memory");
   for (size_t i = 0; i < r->n_checks; i++)
      fd.order[i] = i;
   order_reader = r;
   qsort(fd.order, r->n_checks, sizeof *fd.order, by_peak_time);
   int k = wsp_samples_each(f, find_sample, &fd);
   free(fd.order);
   if (k) {
      *r->p.err = *wsp_samples_error(f);
      return -1;
   }
   size_t lineno = r->p.lineno;
   for (size_t i = 0; i < r->n_checks; i++) {
      const struct peak_check *c = &r->checks[i];
      r->p.lineno = c->line;
      if (peak_sample(&r->p, f, &f->peaks[c->peak], c->found ? &c->s : NULL))
         return -1;
   }
   r->p.lineno = lineno;
   return 0;
}

/* `peak N KIND T SIZE BASELINE WHY rise|sample STACK OWN`: a version 4
   peak, in the trailer. */
int peak_line(struct reader *r)
{
   struct lex *p = &r->p;
   struct body *b = &r->b;
   struct wsp_file *f = p->f;
   struct cur c = cur_line(p);
   static const char form[] = "a peak line is 'peak N insn|data T SIZE "
                              "BASELINE WHY rise|sample STACK OWN'";
   static const char *const reasons[] = { "largest", "region", "detected" };
   struct wsp_peak pk;
   uint64_t n, sid, own;
   int k;

   memset(&pk, 0, sizeof pk);
   cur_lit(&c, "peak ");
   if ((k = cur_u64(&c, &n)) <= 0 || !cur_lit(&c, " "))
      return num_fail(p, k < 0 ? k : 0, form);
   if ((pk.data = cur_kind(&c)) < 0 || !cur_lit(&c, " "))
      return fail(p, "%s", form);
   if ((k = cur_u64(&c, &pk.t)) <= 0 || !cur_lit(&c, " ")
       || (k = cur_u64(&c, &pk.size)) <= 0 || !cur_lit(&c, " ")
       || (k = cur_u64(&c, &pk.baseline)) <= 0 || !cur_lit(&c, " "))
      return num_fail(p, k < 0 ? k : 0, form);
   do {
      unsigned bit = 0;
      for (unsigned i = 0; i < 3 && !bit; i++)
         if (cur_lit(&c, reasons[i]))
            bit = 1u << i;
      if (!bit)
         return fail(p, "a peak's reasons are largest, region and "
                     "detected, separated by commas");
      if (pk.why & bit)
         return fail(p, "a peak's reason is given twice");
      pk.why |= bit;
   } while (cur_lit(&c, ","));
   if (!cur_lit(&c, " "))
      return fail(p, "%s", form);
   if (cur_lit(&c, "rise"))
      pk.rise = 1;
   else if (!cur_lit(&c, "sample"))
      return fail(p, "%s", form);
   if (!cur_lit(&c, " ") || (k = cur_u64(&c, &sid)) <= 0
       || !cur_lit(&c, " "))
      return num_fail(p, k < 0 ? k : 0, form);
   pk.own_line = -1;
   if (!cur_lit(&c, "-")) {
      if ((k = cur_u64(&c, &own)) <= 0)
         return num_fail(p, k, form);
      pk.own_line = own > (uint64_t)LONG_MAX ? LONG_MAX : (long)own;
   }
   if (!cur_end(&c))
      return fail(p, "%s", form);

   if (n != f->n_peaks)
      return fail(p, "peaks are numbered from 0 in file order: this one "
                  "should be %zu", f->n_peaks);
   if (stack_ref(p, sid, &pk.stack))
      return -1;
   if (pk.own_line >= 0 && (size_t)pk.own_line >= f->stacks[pk.stack].n)
      return fail(p, "the own line lies beyond the stack's %zu lines",
                  f->stacks[pk.stack].n);
   if (f->n_peaks) {
      const struct wsp_peak *prev = &f->peaks[f->n_peaks - 1];
      if (prev->data && !pk.data)
         return fail(p, "instruction peaks come before data peaks");
      /* the most prominent first; the baseline is rounded, so two
         neighbours may seem one page out of order */
      if (prev->data == pk.data
          && (double)pk.size - (double)pk.baseline
             > (double)prev->size - (double)prev->baseline + 1.0)
         return fail(p, "the peaks of a kind come the most prominent "
                     "first (size minus baseline)");
   }
   if (!f->samples.streamed && peak_sample(p, f, &pk, sample_at(f, pk.t)))
      return -1;
   pk.own_first = f->n_owners;
   pk.reg_first = f->n_region_labels;
   pk.line = p->lineno;
   if (wsp_grow(&f->peaks, &r->cap.peaks, f->n_peaks, sizeof *f->peaks))
      return fail(p, "out of memory");
   if (f->samples.streamed) {
      if (wsp_grow(&r->checks, &r->cap_checks, r->n_checks,
                   sizeof *r->checks))
         return fail(p, "out of memory");
      memset(&r->checks[r->n_checks], 0, sizeof *r->checks);
      r->checks[r->n_checks].line = p->lineno;
      r->checks[r->n_checks++].peak = f->n_peaks;
   }
   f->peaks[f->n_peaks] = pk;
   b->open_peak = f->n_peaks++;
   b->peak_open = 1;
   b->windows_first = f->n_heap_windows;
   return 0;
}

/* `peak-region N LABEL`: peak N is the largest sample of the regions of
   that name. */
int peak_region_line(struct reader *r)
{
   struct lex *p = &r->p;
   struct body *b = &r->b;
   struct wsp_file *f = p->f;
   struct cur c = cur_line(p);
   uint64_t n;
   int k;
   cur_lit(&c, "peak-region ");
   if ((k = cur_u64(&c, &n)) <= 0 || !cur_lit(&c, " "))
      return num_fail(p, k < 0 ? k : 0, "a peak-region line is "
                      "'peak-region N LABEL'");
   if (!b->peak_open || n != b->open_peak
       || f->peaks[b->open_peak].own_n)
      return fail(p, "'peak-region N LABEL' follows peak N's line, before "
                  "its owner lines");
   struct wsp_peak *pk = &f->peaks[b->open_peak];
   if (!(pk->why & WSP_WHY_REGION))
      return fail(p, "peak %llu's reasons lack 'region'",
                  (unsigned long long)n);
   struct wsp_str label = cur_rest(&c);
   if (label_text(p, &label, "peak-region"))
      return -1;
   if (wsp_grow(&f->region_labels, &r->cap.region_labels, f->n_region_labels,
            sizeof *f->region_labels))
      return fail(p, "out of memory");
   f->region_labels[f->n_region_labels++] = label;
   pk->reg_n++;
   return 0;
}

#define MAX_OWNER_LINES 10   /* of a peak, `rest` included */

int owner_line(struct reader *r)
{
   struct lex *p = &r->p;
   struct body *b = &r->b;
   struct wsp_file *f = p->f;
   struct cur c = cur_line(p);
   static const char form[] = "an owner line is 'owner PEAK PAGES OWNER'";
   struct wsp_owner_line ol;
   uint64_t n;
   int k;

   cur_lit(&c, "owner ");
   if ((k = cur_u64(&c, &n)) <= 0 || !cur_lit(&c, " ")
       || (k = cur_u64(&c, &ol.pages)) <= 0 || !cur_lit(&c, " "))
      return num_fail(p, k < 0 ? k : 0, form);
   if (!b->peak_open || n != b->open_peak)
      return fail(p, "owner lines follow their peak's %s",
                  f->version >= 4 ? "line" : "event");
   if (f->n_heap_windows > b->windows_first)
      return fail(p, "owner lines come before the heap-window lines of "
                  "their peak");
   struct wsp_peak *pk = &f->peaks[b->open_peak];
   if (ol.pages == 0)
      return fail(p, "an owner line has at least one page");
   if (cur_owner(p, &c, &ol.o, 1, 0, 1))
      return -1;
   if (f->version >= 4 && ol.o.kind != WSP_OWN_REST
       && (ol.o.kind == WSP_OWN_CODE) != !pk->data)
      return fail(p, "an instruction peak's owners are 'code OBJECT "
                  "FUNCTION', a data peak's what lives in its pages");
   if (pk->own_n == MAX_OWNER_LINES)
      return fail(p, "a peak has at most %d owner lines",
                  MAX_OWNER_LINES);
   if (pk->own_n) {
      const struct wsp_owner_line *prev = &f->owners[f->n_owners - 1];
      if (prev->o.kind == WSP_OWN_REST)
         return fail(p, "'rest' is the last owner line of a peak");
      if (ol.o.kind != WSP_OWN_REST
          && (prev->pages < ol.pages
              || (prev->pages == ol.pages && prev->o.kind > ol.o.kind)))
         return fail(p, "owner lines come largest first, ties in the order "
                     "of the format's owner table");
      /* one line per owner; but two names may be written alike (ws
         writes a blank or control character in a name as _) */
      for (size_t i = 0; i < pk->own_n && ol.o.kind != WSP_OWN_GLOBAL
                         && ol.o.kind != WSP_OWN_FILE
                         && ol.o.kind != WSP_OWN_CODE; i++) {
         struct wsp_str t = f->owners[pk->own_first + i].o.text;
         if (t.len == ol.o.text.len && memcmp(t.s, ol.o.text.s, t.len) == 0)
            return fail(p, "the owner is named twice for this peak");
      }
   }
   if (ol.o.kind == WSP_OWN_REST && pk->own_n != MAX_OWNER_LINES - 1)
      return fail(p, "'rest' comes only as the %dth owner line, after the "
                  "%d largest owners", MAX_OWNER_LINES, MAX_OWNER_LINES - 1);
   if (wsp_grow(&f->owners, &r->cap.owners, f->n_owners, sizeof *f->owners))
      return fail(p, "out of memory");
   f->owners[f->n_owners++] = ol;
   pk->own_n++;
   return 0;
}

/*--------------------------------------------------------------------*/
/*--- end                                         wsp_read_peaks.c ---*/
/*--------------------------------------------------------------------*/

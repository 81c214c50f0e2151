/*--------------------------------------------------------------------*/
/*--- ws_print: two runs side by side.                  wsp_diff.c ---*/
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

/* --diff A B: run B against run A.  The summary (each kind's average,
   largest sample and total, in pages and, when both runs measured lines
   of one size, in lines with the data density; the live heap's largest
   sample and average when both runs have it), the peaks (each kind's
   largest sample, and the detected peaks matched by stack), the regions
   (matched by label) the heap sites (matched by allocation stack) and
   the routines (matched by function), each list worst change first: the
   largest growth, then the largest shrinking; and the locality curves
   (matched by scope, kind and unit: their knees and the taus whose
   figures changed).

   Peaks' stacks are matched by their functions, outermost first,
   inlined frames included, without source lines: a line moved by an
   edit does not make a peak new.  Heap sites are matched by their
   functions and source lines where a site of A and one of B have the
   same (two sites of one function, main's two mallocs, stay apart),
   and the others by their functions alone, so that a site whose lines
   an edit moved is still matched.  Sites of A (or of B) with the same
   key are summed.  A growth by more than the --fail-above percentage of
   the run's largest sample of a kind or of the live heap, of a region's,
   of a heap site's bytes (from nothing counts) or of the cost of a
   routine called out in either run is a failure, listed last. */

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "wsp_render.h"

/* The words a diff line names a run by: its program's base name (the
   command's first word). */
static struct wsp_str program(const struct wsp_file *f)
{
   struct wsp_str c = f->command;
   size_t end = 0, start = 0;
   while (end < c.len && c.s[end] != ' ')
      end++;
   for (size_t i = 0; i < end; i++)
      if (c.s[i] == '/')
         start = i + 1;
   struct wsp_str p = { c.s + start, end - start };
   return p;
}

int wsp_diff_refusal(const struct wsp_file *a, const struct wsp_file *b,
                     char *why, size_t n)
{
   struct wsp_str pa = program(a), pb = program(b);
   if (!wsp_str_eq(pa, pb))
      snprintf(why, n, "the runs are of different programs ('%.*s' and "
               "'%.*s')", (int)pa.len, pa.s, (int)pb.len, pb.s);
   else if (a->pagesize != b->pagesize)
      snprintf(why, n, "the runs have different page sizes (%llu and %llu "
               "bytes)", (unsigned long long)a->pagesize,
               (unsigned long long)b->pagesize);
   else if (a->linesize && b->linesize && a->linesize != b->linesize)
      snprintf(why, n, "the runs have different line sizes (%llu and %llu "
               "bytes)", (unsigned long long)a->linesize,
               (unsigned long long)b->linesize);
   else if (a->ms != b->ms)
      snprintf(why, n, "the runs have different time units (%s and %s)",
               a->ms ? "ms" : "i", b->ms ? "ms" : "i");
   else
      return 0;
   return 1;
}

/*------------------------------------------------------------*/
/*--- Changes and the failures they make                   ---*/
/*------------------------------------------------------------*/

struct verdict {
   double limit;              /* --fail-above, or < 0 */
   char   (*lines)[1024];     /* what grew too much */
   size_t n, cap;
};

static void change(char *buf, size_t n, uint64_t a, uint64_t b);

/* what grew from a to b: a failure when by more than the limit. */
static void fail_if(struct verdict *v, uint64_t a, uint64_t b,
                    const char *what)
{
   char c[64];
   if (v->limit < 0 || b <= a || (a && (double)(b - a) * 100.0 / (double)a
                                       <= v->limit))
      return;
   if (v->n == v->cap) {
      size_t cap = v->cap ? v->cap * 2 : 8;
      void *p = realloc(v->lines, cap * sizeof *v->lines);
      if (!p)
         return;
      v->lines = p;
      v->cap = cap;
   }
   change(c, sizeof c, a, b);
   snprintf(v->lines[v->n++], sizeof *v->lines, "%.900s: %llu -> %llu, %s",
            what, (unsigned long long)a, (unsigned long long)b, c);
}

/* "+1000 (+84.0 %)", "-3 (-0.2 %)", "0", "+12 (new)". */
static void change(char *buf, size_t n, uint64_t a, uint64_t b)
{
   double d = (double)b - (double)a;
   if (a == b)
      snprintf(buf, n, "0");
   else if (a == 0)
      snprintf(buf, n, "+%llu (new)", (unsigned long long)b);
   else
      snprintf(buf, n, "%+.0f (%+.1f %%)", d, d * 100.0 / (double)a);
}

static void row(FILE *out, const char *what, uint64_t a, uint64_t b)
{
   char c[64];
   change(c, sizeof c, a, b);
   fprintf(out, "  %-22s %14llu %14llu  %s\n", what, (unsigned long long)a,
           (unsigned long long)b, c);
}

static void row_avg(FILE *out, const char *what, uint64_t a10, uint64_t b10)
{
   char c[64];
   double d = ((double)b10 - (double)a10) / 10.0;
   if (a10 == b10)
      snprintf(c, sizeof c, "0");
   else if (a10 == 0)
      snprintf(c, sizeof c, "%+.1f (new)", d);
   else
      snprintf(c, sizeof c, "%+.1f (%+.1f %%)", d,
               d * 1000.0 / (double)a10);
   fprintf(out, "  %-22s %12llu.%u %12llu.%u  %s\n", what,
           (unsigned long long)(a10 / 10), (unsigned)(a10 % 10),
           (unsigned long long)(b10 / 10), (unsigned)(b10 % 10), c);
}

/* Worst first: the largest growth, then the largest shrinking. */
static int worse(uint64_t a1, uint64_t b1, uint64_t a2, uint64_t b2)
{
   double d1 = (double)b1 - (double)a1, d2 = (double)b2 - (double)a2;
   if ((d1 > 0) != (d2 > 0))
      return d1 > 0 ? -1 : 1;
   if (fabs(d1) != fabs(d2))
      return fabs(d1) > fabs(d2) ? -1 : 1;
   return 0;
}

/*------------------------------------------------------------*/
/*--- The summary                                          ---*/
/*------------------------------------------------------------*/

/* The summary line of a column (pages or lines of a kind), or NULL
   when the file has none (a cut file). */
static const struct wsp_apt *summary_of(const struct wsp_file *f,
                                        enum wsp_col col)
{
   switch (col) {
   case WSP_COL_INSN:
      return f->have_insn_summary ? &f->insn_summary : NULL;
   case WSP_COL_DATA:
      return f->have_data_summary ? &f->data_summary : NULL;
   case WSP_COL_INSN_LINES:
      return f->have_lines_summary ? &f->insn_lines_summary : NULL;
   case WSP_COL_DATA_LINES:
      return f->have_lines_summary ? &f->data_lines_summary : NULL;
   default:
      return NULL;
   }
}

/* A column's average (tenths), largest sample and total: the trailer's,
   or from the samples. */
static struct wsp_apt apt_of(const struct wsp_file *f, enum wsp_col col)
{
   const struct wsp_series *ser = &f->samples;
   const struct wsp_col_stats *st = &ser->col[col];
   const struct wsp_apt *have = summary_of(f, col);
   struct wsp_apt r = { 0, st->max, 0 };
   if (have)
      return *have;
   if (ser->n)
      r.avg10 = (uint64_t)(st->sum * 10 / ser->n + 0.5L);
   return r;
}

/* Each kind's rows, data first, in pages (lines: 0) or lines (1). */
static void summary_rows(FILE *out, const struct wsp_file *a,
                         const struct wsp_file *b, int lines,
                         struct verdict *v)
{
   static const enum wsp_col cols[2][2] = {
      { WSP_COL_INSN, WSP_COL_DATA },
      { WSP_COL_INSN_LINES, WSP_COL_DATA_LINES } };
   for (int data = 1; data >= 0; data--) {
      enum wsp_col col = cols[lines][data];
      struct wsp_apt x = apt_of(a, col), y = apt_of(b, col);
      const char *k = data ? "data" : "insn";
      char w[40];
      snprintf(w, sizeof w, "%s peak", k);
      row(out, w, x.peak, y.peak);
      snprintf(w, sizeof w, "%s average", k);
      row_avg(out, w, x.avg10, y.avg10);
      snprintf(w, sizeof w, "%s total", k);
      row(out, w, x.total, y.total);
      if (!lines) {
         snprintf(w, sizeof w, "the run's %s peak", k);
         fail_if(v, x.peak, y.peak, w);
      }
   }
}

/* The pages; the lines too when both runs measured them at one size
   (--fail-above judges the pages alone: the lines follow them). */
static void summary(FILE *out, const struct wsp_file *a,
                    const struct wsp_file *b, struct verdict *v)
{
   fprintf(out, "\nSummary, pages of %llu bytes:\n  %-22s %14s %14s  "
           "change\n", (unsigned long long)a->pagesize, "", "A", "B");
   summary_rows(out, a, b, 0, v);
   row(out, "samples", a->samples.n, b->samples.n);
   row(out, "time", wsp_last_time(a), wsp_last_time(b));
   if (a->columns.at[WSP_COL_HEAP] >= 0 && b->columns.at[WSP_COL_HEAP] >= 0) {
      struct wsp_apt x = apt_of(a, WSP_COL_HEAP), y = apt_of(b, WSP_COL_HEAP);
      row(out, "live heap peak", x.peak, y.peak);
      row_avg(out, "live heap average", x.avg10, y.avg10);
      fail_if(v, x.peak, y.peak, "the run's live heap peak");
   }
   if (!a->linesize || a->linesize != b->linesize)
      return;
   fprintf(out, "\nSummary, lines of %llu bytes:\n  %-22s %14s %14s  "
           "change\n", (unsigned long long)a->linesize, "", "A", "B");
   summary_rows(out, a, b, 1, v);
   if (a->have_lines_summary && b->have_lines_summary) {
      double d = ((double)b->density1000 - (double)a->density1000) / 1000;
      char c[32] = "0";
      if (d != 0)
         snprintf(c, sizeof c, "%+.3f", d);
      fprintf(out, "  %-22s %10llu.%03llu %10llu.%03llu  %s\n",
              "data density", (unsigned long long)(a->density1000 / 1000),
              (unsigned long long)(a->density1000 % 1000),
              (unsigned long long)(b->density1000 / 1000),
              (unsigned long long)(b->density1000 % 1000), c);
   }
}

/*------------------------------------------------------------*/
/*--- Stacks as keys                                       ---*/
/*------------------------------------------------------------*/

/* Whether a frame's location is a file:line. */
static int has_line(const struct wsp_where *w)
{
   return w->loc.len > 0 && w->loc.s[0] != '('
          && memchr(w->loc.s, ':', w->loc.len) != NULL;
}

/* A stack's functions, outermost first, separated by ';', as
   --folded-by=function names them ("??? (in liblzma.so.5)" without
   line information, so that two objects' nameless code stays apart),
   and with |lines| each frame's file:line after its function, as
   --folded-by=line names them (malloc'd, or NULL). */
static char *stack_key(const struct wsp_file *f, size_t idx, int lines)
{
   const struct wsp_stack *st = &f->stacks[idx];
   size_t len = 1;
   for (size_t i = 0; i < st->n; i++)
      len += f->frames[st->first + i].w.fn.len
             + f->frames[st->first + i].w.loc.len + 6;
   char *k = malloc(len), *p = k;
   if (!k)
      return NULL;
   for (size_t i = st->n; i-- > 0;) {
      const struct wsp_where *w = &f->frames[st->first + i].w;
      memcpy(p, w->fn.s, w->fn.len);
      p += w->fn.len;
      if (w->loc.len > 1 && w->loc.s[0] == '(') {
         memcpy(p, " (in ", 5);
         memcpy(p + 5, w->loc.s + 1, w->loc.len - 1);
         p += 5 + w->loc.len - 1;
      } else if (lines && has_line(w)) {
         memcpy(p, " (", 2);
         memcpy(p + 2, w->loc.s, w->loc.len);
         p[2 + w->loc.len] = ')';
         p += 3 + w->loc.len;
      }
      if (i)
         *p++ = ';';
   }
   *p = 0;
   return k;
}

/* One thing matched across the runs: its key, and its figures in A
   (x) and B (y). */
#define N_FIG 4
struct match {
   char    *key;
   uint64_t x[N_FIG], y[N_FIG];
   int      in_a, in_b;
   size_t   first[2];      /* 1 + the index of the key's first thing in
                              A and in B (routines), or 0 */
};

struct matches {
   struct match *m;
   size_t        n, cap;
};

static struct match *find(const struct matches *ms, const char *key)
{
   for (size_t i = 0; i < ms->n; i++)
      if (strcmp(ms->m[i].key, key) == 0)
         return &ms->m[i];
   return NULL;
}

/* Add figures under key for run b (else a), summing those of one key;
   the match, or NULL when out of memory. */
static struct match *add(struct matches *ms, char *key, int b,
                         const uint64_t *fig)
{
   struct match *m;
   if (!key)
      return NULL;
   if ((m = find(ms, key)) != NULL)
      free(key);
   else {
      if (wsp_grow(&ms->m, &ms->cap, ms->n, sizeof *ms->m)) {
         free(key);
         return NULL;
      }
      m = &ms->m[ms->n++];
      memset(m, 0, sizeof *m);
      m->key = key;
   }
   for (int k = 0; k < N_FIG; k++)
      (b ? m->y : m->x)[k] += fig[k];
   *(b ? &m->in_b : &m->in_a) = 1;
   return m;
}

static int cmp_fig0(const void *p, const void *q)
{
   const struct match *a = p, *b = q;
   int w = worse(a->x[0], a->y[0], b->x[0], b->y[0]);
   return w ? w : strcmp(a->key, b->key);
}

static void matches_free(struct matches *ms)
{
   for (size_t i = 0; i < ms->n; i++)
      free(ms->m[i].key);
   free(ms->m);
}

static void counts(FILE *out, const struct matches *ms)
{
   size_t both = 0, only_a = 0, only_b = 0;
   for (size_t i = 0; i < ms->n; i++) {
      both += ms->m[i].in_a && ms->m[i].in_b;
      only_a += ms->m[i].in_a && !ms->m[i].in_b;
      only_b += !ms->m[i].in_a && ms->m[i].in_b;
   }
   fprintf(out, " (%zu in both, %zu only in A, %zu only in B)", both,
           only_a, only_b);
}

/* Whether a match is in both runs with the same figures: such rows
   are counted, not listed. */
static int unchanged(const struct match *m)
{
   return m->in_a && m->in_b && memcmp(m->x, m->y, sizeof m->x) == 0;
}

static void unchanged_rows(FILE *out, const struct matches *ms,
                           const char *what)
{
   size_t n = 0;
   for (size_t i = 0; i < ms->n; i++)
      n += unchanged(&ms->m[i]);
   if (n)
      fprintf(out, "  (%zu %s the same in both, not listed)\n", n, what);
}

static const char *presence(const struct match *m)
{
   return !m->in_a ? "  [only in B]" : !m->in_b ? "  [only in A]" : "";
}

/*------------------------------------------------------------*/
/*--- Peaks, regions, heap sites                           ---*/
/*------------------------------------------------------------*/

static void peaks(FILE *out, const struct wsp_file *a,
                  const struct wsp_file *b)
{
   struct matches ms = { 0 };
   for (int r = 0; r < 2; r++) {
      const struct wsp_file *f = r ? b : a;
      for (size_t i = 0; i < f->n_peaks; i++) {
         const struct wsp_peak *p = &f->peaks[i];
         char *k = stack_key(f, p->stack, 0), *kk;
         if (!k || !(kk = malloc(strlen(k) + 8))) {
            free(k);
            continue;
         }
         snprintf(kk, strlen(k) + 8, "%s %s", p->data ? "data" : "insn", k);
         free(k);
         uint64_t fig[N_FIG] = { p->size, 1, 0, 0 };
         add(&ms, kk, r, fig);
      }
   }
   if (!ms.n)
      return;
   qsort(ms.m, ms.n, sizeof *ms.m, cmp_fig0);
   fprintf(out, "\nPeaks, matched by kind and stack, pages (the sum when "
           "several share one)");
   counts(out, &ms);
   fprintf(out, ":\n  %14s %14s  %-20s  kind and stack, outermost first\n",
           "A", "B", "change");
   for (size_t i = 0; i < ms.n; i++) {
      const struct match *m = &ms.m[i];
      char c[64];
      if (unchanged(m))
         continue;
      change(c, sizeof c, m->x[0], m->y[0]);
      fprintf(out, "  %14llu %14llu  %-20s  %s%s\n",
              (unsigned long long)m->x[0], (unsigned long long)m->y[0], c,
              m->key, presence(m));
   }
   unchanged_rows(out, &ms, "peaks");
   matches_free(&ms);
}

static void regions(FILE *out, const struct wsp_file *a,
                    const struct wsp_file *b, struct verdict *v)
{
   struct matches ms = { 0 };
   for (int r = 0; r < 2; r++) {
      const struct wsp_file *f = r ? b : a;
      for (size_t i = 0; i < f->n_regions; i++) {
         const struct wsp_region *g = &f->regions[i];
         char *k = malloc(g->label.len + 1);
         if (!k)
            continue;
         memcpy(k, g->label.s, g->label.len);
         k[g->label.len] = 0;
         uint64_t fig[N_FIG] = { g->data.peak, g->insn.peak, g->data.avg10,
                                 g->samples };
         add(&ms, k, r, fig);
      }
   }
   if (!ms.n)
      return;
   qsort(ms.m, ms.n, sizeof *ms.m, cmp_fig0);
   fprintf(out, "\nRegions, matched by label");
   counts(out, &ms);
   fprintf(out, ":\n");
   int header = 0;
   for (size_t i = 0; i < ms.n; i++) {
      const struct match *m = &ms.m[i];
      struct wsp_str label = { m->key, strlen(m->key) };
      if (unchanged(m))
         continue;
      fprintf(out, "  region '");
      wsp_put_escaped(out, label);
      fprintf(out, "'%s\n", presence(m));
      if (!header++)
         fprintf(out, "  %-22s %14s %14s  change\n", "", "A", "B");
      row(out, "data peak", m->x[0], m->y[0]);
      row(out, "insn peak", m->x[1], m->y[1]);
      row_avg(out, "data average", m->x[2], m->y[2]);
      row(out, "samples", m->x[3], m->y[3]);
      char what[900];
      snprintf(what, sizeof what, "the data peak of region '%.850s'",
               m->key);
      fail_if(v, m->x[0], m->y[0], what);
      snprintf(what, sizeof what, "the insn peak of region '%.850s'",
               m->key);
      fail_if(v, m->x[1], m->y[1], what);
   }
   unchanged_rows(out, &ms, "regions");
   matches_free(&ms);
}

static void heap_sites(FILE *out, const struct wsp_file *a,
                       const struct wsp_file *b, struct verdict *v)
{
   struct matches by_line = { 0 }, ms = { 0 };
   /* first the stacks with their lines, to know which are in both */
   for (int r = 0; r < 2; r++) {
      const struct wsp_file *f = r ? b : a;
      for (size_t i = 0; i < f->n_heap_sites; i++) {
         uint64_t none[N_FIG] = { 0 };
         add(&by_line, stack_key(f, f->heap_sites[i].stack, 1), r, none);
      }
   }
   for (int r = 0; r < 2; r++) {
      const struct wsp_file *f = r ? b : a;
      for (size_t i = 0; i < f->n_heap_sites; i++) {
         const struct wsp_heap_site *s = &f->heap_sites[i];
         uint64_t fig[N_FIG] = { s->bytes, s->chunks, s->peak_live,
                                 wsp_heap_value(s, WSP_KEY_USAGE) };
         char *k = stack_key(f, s->stack, 1);
         const struct match *m = k ? find(&by_line, k) : NULL;
         if (!m || !m->in_a || !m->in_b) {
            free(k);
            k = stack_key(f, s->stack, 0);
         }
         add(&ms, k, r, fig);
      }
   }
   matches_free(&by_line);
   if (!ms.n)
      return;
   qsort(ms.m, ms.n, sizeof *ms.m, cmp_fig0);
   fprintf(out, "\nHeap sites, matched by allocation stack (functions and "
           "lines where both runs have them, else functions; outermost "
           "first), bytes allocated");
   counts(out, &ms);
   fprintf(out, ":\n");
   int header = 0;
   for (size_t i = 0; i < ms.n; i++) {
      const struct match *m = &ms.m[i];
      if (unchanged(m))
         continue;
      fprintf(out, "  %s%s\n", m->key, presence(m));
      if (!header++)
         fprintf(out, "  %-22s %14s %14s  change\n", "", "A", "B");
      row(out, "bytes", m->x[0], m->y[0]);
      row(out, "chunks", m->x[1], m->y[1]);
      row(out, "peak live bytes", m->x[2], m->y[2]);
      row(out, "bytes never touched", m->x[3], m->y[3]);
      char what[900];
      snprintf(what, sizeof what, "the bytes of heap site %.850s", m->key);
      fail_if(v, m->x[0], m->y[0], what);
   }
   unchanged_rows(out, &ms, "sites");
   matches_free(&ms);
}

/* A routine's name across runs: its function and, where the debug
   information has them, its file without the line ("lzma_code
   (lzma_code.c)"), or its object ("??? (in liblzma.so.5)"), so that an
   edit that moves a function keeps it matched and two static functions
   of one name in two files stay apart. */
static char *routine_key(const struct wsp_file *f, const struct wsp_routine *r)
{
   const struct wsp_where *w = &f->frames[f->stacks[r->stack].first].w;
   size_t len = w->fn.len + w->loc.len + 8;
   char *k = malloc(len);
   if (!k)
      return NULL;
   if (has_line(w)) {
      size_t file = w->loc.len;
      while (file > 0 && w->loc.s[file - 1] != ':')
         file--;
      snprintf(k, len, "%.*s (%.*s)", (int)w->fn.len, w->fn.s,
               (int)(file - 1), w->loc.s);
   } else if (w->loc.len > 1 && w->loc.s[0] == '(')
      snprintf(k, len, "%.*s (in %.*s", (int)w->fn.len, w->fn.s,
               (int)(w->loc.len - 1), w->loc.s + 1);
   else
      snprintf(k, len, "%.*s", (int)w->fn.len, w->fn.s);
   return k;
}

/* "input^1.41 (r2 0.86)", with ", grows faster" when flagged; "no
   fit"; "-" when the run has no such routine. */
static void fit_text(char *buf, size_t n, const struct wsp_file *f,
                     size_t first)
{
   const struct wsp_routine *r;
   if (!first) {
      snprintf(buf, n, "-");
      return;
   }
   r = &f->routines[first - 1];
   if (!r->fitted)
      snprintf(buf, n, "no fit");
   else
      snprintf(buf, n, "input^%.2f (r2 %.2f)%s", r->exponent_milli / 1000.0,
               r->r2_milli / 1000.0,
               wsp_routine_flagged(f, r) ? ", grows faster" : "");
}

/* The routines (--ws-routines=yes), worst change of cost first; a
   routine called out in either run (docs/manual.md, "Per-routine
   footprint") fails --fail-above when its cost grew by more. */
static void routines(FILE *out, const struct wsp_file *a,
                     const struct wsp_file *b, struct verdict *v)
{
   struct matches ms = { 0 };
   for (int r = 0; r < 2; r++) {
      const struct wsp_file *f = r ? b : a;
      for (size_t i = 0; i < f->n_routines; i++) {
         const struct wsp_routine *rt = &f->routines[i];
         size_t sizes;
         uint64_t fig[N_FIG] = { rt->cost, rt->calls, rt->trms_max,
                                 (uint64_t)wsp_routine_called_out(f, rt,
                                                                  &sizes) };
         struct match *m = add(&ms, routine_key(f, rt), r, fig);
         if (m && !m->first[r])
            m->first[r] = i + 1;
      }
   }
   if (!ms.n)
      return;
   qsort(ms.m, ms.n, sizeof *ms.m, cmp_fig0);
   fprintf(out, "\nRoutines, matched by function (and file, or object), "
           "cost in instructions (the sum when several share one)");
   counts(out, &ms);
   fprintf(out, ":\n");
   int header = 0;
   for (size_t i = 0; i < ms.n; i++) {
      const struct match *m = &ms.m[i];
      char fa[64], fb[64];
      if (unchanged(m))
         continue;
      fprintf(out, "  %s%s\n", m->key, presence(m));
      if (!header++)
         fprintf(out, "  %-22s %14s %14s  change\n", "", "A", "B");
      row(out, "cost", m->x[0], m->y[0]);
      row(out, "calls", m->x[1], m->y[1]);
      row(out, "trms-max", m->x[2], m->y[2]);
      fit_text(fa, sizeof fa, a, m->first[0]);
      fit_text(fb, sizeof fb, b, m->first[1]);
      if (strcmp(fa, fb) != 0)
         fprintf(out, "  %-22s %s -> %s\n", "cost against input", fa, fb);
      if (m->x[3] || m->y[3]) {
         char what[900];
         snprintf(what, sizeof what, "the cost of routine %.850s", m->key);
         fail_if(v, m->x[0], m->y[0], what);
      }
   }
   unchanged_rows(out, &ms, "routines");
   matches_free(&ms);
}

/*------------------------------------------------------------*/
/*--- Locality curves                                      ---*/
/*------------------------------------------------------------*/

static int same_curve(const struct wsp_curve_point *x,
                      const struct wsp_curve_point *y)
{
   return x->data == y->data && x->line == y->line
          && wsp_str_eq(x->scope, y->scope);
}

/* The curve of |f| that is |like|'s (scope, kind and unit), or 0. */
static int curve_like(const struct wsp_file *f,
                      const struct wsp_curve_point *like, struct wsp_curve *c)
{
   for (size_t i = 0; i < f->n_curve_points; i = wsp_curve_at(f, i, c))
      if (same_curve(&f->curve_points[i], like)) {
         wsp_curve_at(f, i, c);
         return 1;
      }
   return 0;
}

static void knees_of(FILE *out, const char *run, const struct wsp_file *f,
                     const struct wsp_curve *c)
{
   struct wsp_knee k[WSP_MAX_KNEES];
   size_t n = wsp_curve_knees(f, c, k);
   char text[600];
   if (n == 0)
      fprintf(out, "    knees in %s: none\n", run);
   for (size_t i = 0; i < n; i++) {
      wsp_knee_text(text, sizeof text, f, c, &k[i]);
      fprintf(out, "    knee in %s: %s\n", run, text);
   }
}

/* "12.345" from thousandths. */
static const char *milli3(char *buf, size_t n, uint64_t v)
{
   snprintf(buf, n, "%llu.%03llu", (unsigned long long)(v / 1000),
            (unsigned long long)(v % 1000));
   return buf;
}

/* The curves (--ws-curves=exact), matched by scope, kind and unit: of
   each curve in both runs whose points differ, the knees of both runs
   and every tau at which s or m changed. */
static void curves(FILE *out, const struct wsp_file *a,
                   const struct wsp_file *b)
{
   struct wsp_curve ca, cb;
   size_t both = 0, only_a = 0, only_b = 0, same = 0;
   int titled = 0;
   for (size_t i = 0; i < b->n_curve_points; i = wsp_curve_at(b, i, &cb))
      only_b += !curve_like(a, &b->curve_points[i], &ca);
   for (size_t i = 0; i < a->n_curve_points; i = wsp_curve_at(a, i, &ca)) {
      const struct wsp_curve_point *pa = &a->curve_points[i], *pb;
      wsp_curve_at(a, i, &ca);
      if (!curve_like(b, pa, &cb)) {
         only_a++;
         continue;
      }
      both++;
      pb = &b->curve_points[cb.first];
      int differ = ca.n != cb.n;
      for (size_t k = 0; k < ca.n && !differ; k++)
         differ = pa[k].x != pb[k].x || pa[k].s != pb[k].s
                  || pa[k].m != pb[k].m;
      if (!differ) {
         same++;
         continue;
      }
      if (!titled++)
         fprintf(out, "\nLocality curves, matched by scope, kind and unit "
                 "(s in units, m in misses per 1,000 instructions; the "
                 "taus whose s or m changed):\n");
      fprintf(out, "  %.*s %s %s\n", (int)pa->scope.len, pa->scope.s,
              pa->data ? "data" : "insn", pa->line ? "line" : "page");
      knees_of(out, "A", a, &ca);
      knees_of(out, "B", b, &cb);
      fprintf(out, "    %14s %12s %12s %12s %12s\n", "tau", "s in A",
              "s in B", "m in A", "m in B");
      for (size_t x = 0, y = 0; x < ca.n || y < cb.n;) {
         const struct wsp_curve_point *px = x < ca.n ? &pa[x] : NULL;
         const struct wsp_curve_point *py = y < cb.n ? &pb[y] : NULL;
         char s1[32] = "-", s2[32] = "-", m1[32] = "-", m2[32] = "-";
         uint64_t tau;
         if (px && (!py || px->x <= py->x)) {
            tau = px->x;
            milli3(s1, sizeof s1, px->s);
            milli3(m1, sizeof m1, px->m);
            x++;
         } else
            tau = py->x;
         if (py && py->x == tau) {
            milli3(s2, sizeof s2, py->s);
            milli3(m2, sizeof m2, py->m);
            y++;
         }
         if (strcmp(s1, s2) != 0 || strcmp(m1, m2) != 0)
            fprintf(out, "    %14llu %12s %12s %12s %12s\n",
                    (unsigned long long)tau, s1, s2, m1, m2);
      }
   }
   if (both + only_a + only_b == 0)
      return;
   if (!titled)
      fprintf(out, "\nLocality curves, matched by scope, kind and unit:\n");
   fprintf(out, "  (%zu in both, %zu only in A, %zu only in B; %zu the same "
           "in both, not listed)\n", both, only_a, only_b, same);
}

int wsp_diff(FILE *out, const struct wsp_file *a, const char *name_a,
             const struct wsp_file *b, const char *name_b, double fail_above)
{
   struct verdict v = { fail_above, NULL, 0, 0 };
   char why[300];
   fprintf(out, "A: %s: ", name_a);
   wsp_put_escaped(out, a->command);
   fprintf(out, "\nB: %s: ", name_b);
   wsp_put_escaped(out, b->command);
   fputc('\n', out);
   if (wsp_diff_refusal(a, b, why, sizeof why))
      fprintf(out, "Note: %s (--force)\n", why);
   summary(out, a, b, &v);
   peaks(out, a, b);
   regions(out, a, b, &v);
   heap_sites(out, a, b, &v);
   routines(out, a, b, &v);
   curves(out, a, b);
   if (fail_above >= 0) {
      fprintf(out, "\n%s: %zu figure%s grew by more than %g %%%s\n",
              v.n ? "FAIL" : "OK", v.n, v.n == 1 ? "" : "s", fail_above,
              v.n ? ":" : "");
      for (size_t i = 0; i < v.n; i++)
         fprintf(out, "  %s\n", v.lines[i]);
   }
   free(v.lines);
   return v.n > 0;
}

/*--------------------------------------------------------------------*/
/*--- end                                               wsp_diff.c ---*/
/*--------------------------------------------------------------------*/

/*--------------------------------------------------------------------*/
/*--- ws_print: heap efficiency in text.           wsp_text_heap.c ---*/
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

/* The text report's "Heap efficiency" section (docs/manual.md, "Heap
   usage"): the totals of the heap-site lines, then the sites worst
   first by the bytes they never touched and by the bytes they kept
   idle after their last use, each with its figures and its whole
   allocation stack (a site already shown is named only). */

#include <stdlib.h>
#include <string.h>

#include "wsp_render.h"

#define MAX_SITES 10          /* listed in each ranking */

static void milli(char *buf, size_t n, uint64_t m)
{
   snprintf(buf, n, "%llu.%03llu", (unsigned long long)(m / 1000),
            (unsigned long long)(m % 1000));
}

/* Whether the run knew which bytes of a chunk were accessed to a cache
   line (else to a page). */
static int line_resolution(const struct wsp_file *f)
{
   return f->linesize != WSP_NONE && f->linesize != 0
          && f->linesize < f->pagesize;
}

/* The Memoro paper's marks of a site (wsp_heap_marks), in words. */
static const char *mark_words(unsigned char m)
{
   switch (m) {
   case WSP_TOP_PEAK_LIVE:
      return "peak-live bytes";
   case WSP_TOP_CHUNKS:
      return "chunks";
   case WSP_TOP_PEAK_LIVE | WSP_TOP_CHUNKS:
      return "peak-live bytes and of chunks";
   }
   return NULL;
}

static void site_block(FILE *out, const struct wsp_file *f, size_t i,
                       enum wsp_heap_key key, unsigned char mark, int width)
{
   const struct wsp_heap_site *s = &f->heap_sites[i];
   const char *u = f->ms ? "ms" : "i";
   char a[32], b[32], c[32], d[32], e[32], us[32], uf[32];
   /* below the resolution, usage is a bound */
   snprintf(us, sizeof us, "%s", s->below ? "at most " : "");
   milli(us + strlen(us), sizeof us - strlen(us), s->usage_milli);
   milli(uf, sizeof uf, s->useful_milli);
   if (key == WSP_KEY_SCORE) {
      milli(d, sizeof d, s->score_milli);
      wsp_wrap(out, width, 6, "  site %llu: %s bytes x (1 - score %s) of "
               "%s bytes\n", (unsigned long long)s->id,
               wsp_commas(a, sizeof a, wsp_heap_value(s, key)), d,
               wsp_commas(b, sizeof b, s->bytes));
   } else if (key == WSP_KEY_USAGE)
      wsp_wrap(out, width, 6, "  site %llu: %s of %s bytes never touched "
               "(usage %s)\n",
              (unsigned long long)s->id,
              wsp_commas(a, sizeof a, wsp_heap_value(s, key)),
              wsp_commas(b, sizeof b, s->bytes), us);
   else
      wsp_wrap(out, width, 6, "  site %llu: %s of %s bytes idle after "
               "their last use (useful %s)\n", (unsigned long long)s->id,
              wsp_commas(a, sizeof a, wsp_heap_value(s, key)),
              wsp_commas(b, sizeof b, s->bytes), uf);
   c[0] = '\0';
   if (s->exit_live != WSP_NONE)
      wsp_commas(c, sizeof c, s->exit_live);
   wsp_wrap(out, width, 8, "      %s chunk%s, peak live %s bytes%s%s%s\n",
            wsp_commas(a, sizeof a, s->chunks), s->chunks == 1 ? "" : "s",
            wsp_commas(b, sizeof b, s->peak_live), c[0] ? ", " : "", c,
            c[0] ? " live at exit" : "");
   if (mark)
      wsp_wrap(out, width, 8, "      marked: in the top 90th percentile "
               "of %s\n", mark_words(mark));
   wsp_wrap(out, width, 8, "      never touched %s, read-only %s, "
            "write-only %s, by several threads %s\n",
            wsp_commas(a, sizeof a, s->never), wsp_commas(b, sizeof b, s->read_only),
            wsp_commas(c, sizeof c, s->write_only),
            wsp_commas(d, sizeof d, s->threads));
   if (s->below)
      wsp_wrap(out, width, 8, "      %s chunk%s below the resolution "
               "(%s figures are bounds)\n", wsp_commas(a, sizeof a, s->below),
               s->below == 1 ? "" : "s", s->below == 1 ? "its" : "their");
   wsp_wrap(out, width, 8, "      usage %s, useful %s; on average lifetime "
            "%s %s, first access %s %s after allocation, idle %s %s before "
            "the free\n", us, uf, wsp_commas(a, sizeof a, s->lifetime), u,
            wsp_commas(b, sizeof b, s->first_delay), u,
            wsp_commas(e, sizeof e, s->idle_tail), u);
   if (s->lifetime_score_milli != WSP_NONE && s->growth != WSP_NONE) {
      milli(d, sizeof d, s->lifetime_score_milli);
      wsp_wrap(out, width, 8, "      lifetime score %s, %s run%s of three "
               "or more chunks growing in size\n", d,
               wsp_commas(a, sizeof a, s->growth), s->growth == 1 ? "" : "s");
   }
   wsp_put_stack(out, f, s->stack, -1, "      ", width);
}

/* The worst MAX_SITES sites by key; those already shown above (in
   |shown|) by number only. */
static void ranking(FILE *out, const struct wsp_file *f,
                    enum wsp_heap_key key, unsigned char *shown,
                    const unsigned char *marks, int width)
{
   size_t *o = wsp_heap_order(f, key), n = 0;
   char a[32];
   if (!o) {
      fprintf(out, "  (out of memory)\n");
      return;
   }
   for (size_t k = 0; k < f->n_heap_sites && n < MAX_SITES; k++) {
      const struct wsp_heap_site *s = &f->heap_sites[o[k]];
      if (wsp_heap_value(s, key) == 0)
         break;
      n++;
      if (shown[o[k]]) {
         char m[32];
         int idle = key == WSP_KEY_USEFUL;
         milli(m, sizeof m, idle ? s->useful_milli : s->usage_milli);
         wsp_wrap(out, width, 6, "  site %llu (above): %s bytes %s "
                  "(%s %s)\n",
                 (unsigned long long)s->id,
                 wsp_commas(a, sizeof a, wsp_heap_value(s, key)),
                 idle ? "idle" : "never touched", idle ? "useful" : "usage",
                 m);
         continue;
      }
      shown[o[k]] = 1;
      site_block(out, f, o[k], key, marks[o[k]], width);
   }
   if (n == 0)
      fprintf(out, "  none\n");
   free(o);
}

void wsp_text_heap(FILE *out, const struct wsp_file *f, int width)
{
   uint64_t chunks = 0, bytes = 0, wasted = 0, idle = 0, never = 0;
   char a[32], b[32], c[32], d[32];
   if (f->version < 4)
      return;
   if (f->heap_usage == 0) {
      wsp_wrap(out, width, 2, "\nHeap efficiency: not followed in this "
               "run (--ws-heap=no or --ws-heap-usage=no)\n");
      return;
   }
   if (!f->n_heap_sites) {
      wsp_wrap(out, width, 2, "\nHeap efficiency: %s\n", f->complete
               ? "no heap chunk was allocated while ws followed the heap"
               : "not in the file (it is written at exit)");
      return;
   }
   for (size_t i = 0; i < f->n_heap_sites; i++) {
      const struct wsp_heap_site *s = &f->heap_sites[i];
      chunks += s->chunks;
      bytes += s->bytes;
      wasted += wsp_heap_value(s, WSP_KEY_USAGE);
      idle += wsp_heap_value(s, WSP_KEY_USEFUL);
      never += s->never;
   }
   if (f->heap_usage == 2)
      wsp_wrap(out, width, 2, "\nHeap efficiency (each access attributed "
               "to its chunk; docs/manual.md, \"Heap usage\"):\n");
   else if (line_resolution(f))
      wsp_wrap(out, width, 2, "\nHeap efficiency (at the resolution of "
               "the %llu-byte lines; docs/manual.md, \"Heap usage\"):\n",
               (unsigned long long)f->linesize);
   else
      wsp_wrap(out, width, 2, "\nHeap efficiency (at the granularity of "
               "the %llu-byte pages; docs/manual.md, \"Heap usage\"):\n",
               (unsigned long long)f->pagesize);
   wsp_wrap(out, width, 4, "  %s allocation site%s, %s chunk%s, %s bytes "
            "allocated\n", wsp_commas(a, sizeof a, f->n_heap_sites),
            f->n_heap_sites == 1 ? "" : "s", wsp_commas(b, sizeof b, chunks),
            chunks == 1 ? "" : "s", wsp_commas(c, sizeof c, bytes));
   wsp_wrap(out, width, 4, "  %s bytes never touched, %s bytes idle after "
            "their last use, %s chunk%s never touched\n",
            wsp_commas(a, sizeof a, wasted), wsp_commas(b, sizeof b, idle),
            wsp_commas(d, sizeof d, never), never == 1 ? "" : "s");
   if (f->have_heap_scores) {
      milli(a, sizeof a, f->heap_scores_milli[0]);
      milli(b, sizeof b, f->heap_scores_milli[1]);
      milli(c, sizeof c, f->heap_scores_milli[2]);
      wsp_wrap(out, width, 4, "  global scores (the Memoro paper's "
               "geometric means over the sites): lifetime %s, usage %s, "
               "useful %s\n", a, b, c);
   }
   unsigned char *shown = calloc(f->n_heap_sites, 1);
   unsigned char *marks = malloc(f->n_heap_sites);
   if (!shown || !marks || wsp_heap_marks(f, marks)) {
      free(shown);
      free(marks);
      fprintf(out, "  (out of memory)\n");
      return;
   }
   size_t marked = 0;
   for (size_t i = 0; i < f->n_heap_sites; i++)
      marked += marks[i] != 0;
   wsp_wrap(out, width, 4, "  %zu site%s marked: in the top 90th "
            "percentile of the sites by peak-live bytes or by chunks, as the "
            "Memoro paper marks them\n", marked, marked == 1 ? "" : "s");
   if (f->have_heap_scores) {
      wsp_wrap(out, width, 4, "\n  Worst by the Memoro paper's score, "
               "bytes x (1 - score):\n");
      ranking(out, f, WSP_KEY_SCORE, shown, marks, width);
   }
   wsp_wrap(out, width, 4, "\n  Worst by bytes never touched, bytes x "
            "(1 - usage):\n");
   ranking(out, f, WSP_KEY_USAGE, shown, marks, width);
   wsp_wrap(out, width, 4, "\n  Worst by bytes idle after their last use, "
            "bytes x (1 - useful):\n");
   ranking(out, f, WSP_KEY_USEFUL, shown, marks, width);
   free(shown);
   free(marks);
   if (f->n_heap_sites > MAX_SITES)
      wsp_wrap(out, width, 4, "\n  ws_print --folded "
               "usage|useful|bytes|never|score lists all %zu sites.\n",
               f->n_heap_sites);
}

/*--------------------------------------------------------------------*/
/*--- end                                          wsp_text_heap.c ---*/
/*--------------------------------------------------------------------*/

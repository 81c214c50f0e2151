/*--------------------------------------------------------------------*/
/*--- ws_print: the locality curves in text.     wsp_text_curves.c ---*/
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

/* Owns the text report's section of the locality curves
   (--ws-curves=exact or sampled): per scope, kind and unit, s(tau) and m(tau) on a
   logarithmic tau axis (one row per doubling), a bar for m, the knees
   in words (wsp_curves.c), then the LRU miss ratio on a logarithmic
   size axis with a bar for it. */

#include <stdio.h>
#include <string.h>

#include "wsp_render.h"

#define BAR 30

static void bar(struct wsp_line *l, uint64_t v, uint64_t most)
{
   size_t n = most ? (size_t)((v * BAR + most / 2) / most) : 0;
   wsp_lput(l, "  ", 2);
   for (size_t i = 0; i < n; i++)
      wsp_lput(l, "#", 1);
}

static void fixed(char *buf, size_t n, uint64_t v, unsigned decimals)
{
   uint64_t scale = decimals == 3 ? 1000 : 10000;
   snprintf(buf, n, "%llu.%0*llu", (unsigned long long)(v / scale),
            (int)decimals, (unsigned long long)(v % scale));
}

static void curve(FILE *out, const struct wsp_file *f,
                  const struct wsp_curve *c, int width)
{
   const struct wsp_curve_point *p = &f->curve_points[c->first];
   const struct wsp_curve_point *q = &f->curve_points[c->mrc_first];
   const char *unit = p[0].line ? "lines" : "pages";
   struct wsp_knee knees[WSP_MAX_KNEES];
   size_t n_knees = wsp_curve_knees(f, c, knees);
   uint64_t most = 0;
   char a[32], b[32], text[600];

   fputc('\n', out);
   {
      struct wsp_line l = { 0 };
      wsp_lput(&l, "  ", 2);
      wsp_lstr(&l, p[0].scope);
      wsp_lprintf(&l, ", %s %s:", p[0].data ? "data" : "code", unit);
      wsp_lflush(out, &l, width);
   }
   fprintf(out, "    %12s %12s %10s%s\n", "tau", "s", "m",
           p[0].has_err ? "   standard errors of s, m" : "");
   for (size_t i = 0; i < c->n; i++)
      if (p[i].m > most)
         most = p[i].m;
   for (size_t i = 0; i < c->n; i++) {
      struct wsp_line l = { 0 };
      fixed(a, sizeof a, p[i].s, 3);
      fixed(b, sizeof b, p[i].m, 3);
      wsp_lprintf(&l, "    %12s %12s %10s", wsp_commas(text, sizeof text,
                                                        p[i].x), a, b);
      if (p[i].has_err) {
         fixed(a, sizeof a, p[i].s_err, 3);
         fixed(b, sizeof b, p[i].m_err, 3);
         wsp_lprintf(&l, "   +-%s +-%s", a, b);
      }
      if (p[i].from == WSP_FROM_EPOCHS || p[i].from == WSP_FROM_BOUNDS)
         wsp_lprintf(&l, "   (%s)", p[i].from == WSP_FROM_EPOCHS
                                    ? "epochs" : "bounds");
      bar(&l, p[i].m, most);
      wsp_lflush(out, &l, width);
   }
   for (size_t k = 0; k < n_knees; k++) {
      wsp_knee_text(text, sizeof text, f, c, &knees[k]);
      wsp_wrap(out, width, 6, "    %s%s.\n", k ? "" : "Knee: ", text);
   }
   if (!n_knees)
      wsp_wrap(out, width, 6, "    No knee: m falls about as fast as s "
               "grows.\n");
   fprintf(out, "    %12s %12s\n", unit, "LRU miss");
   for (size_t i = 0; i < c->n_mrc; i++) {
      struct wsp_line l = { 0 };
      fixed(a, sizeof a, q[i].miss, 4);
      wsp_lprintf(&l, "    %12s %12s", wsp_commas(text, sizeof text,
                                                    q[i].x), a);
      if (q[i].has_err) {
         fixed(a, sizeof a, q[i].miss_err, 4);
         wsp_lprintf(&l, "   +-%s", a);
      } else if (q[i].from == WSP_FROM_FOOTPRINT) {
         wsp_lprintf(&l, "   (footprint)");
      }
      bar(&l, q[i].miss, 10000);
      wsp_lflush(out, &l, width);
   }
}

void wsp_text_curves(FILE *out, const struct wsp_file *f, int width)
{
   struct wsp_curve c;
   if (!f->n_curve_points)
      return;
   if (f->curve_points[0].from)
      wsp_wrap(out, width, 2, "\nLocality curves (docs/manual.md, "
               "\"Locality curves\"), estimated from observed windows "
               "(--ws-curves=sampled), each value with one standard error "
               "(+-); the page curves' longer taus from ws's epochs, marked "
               "(epochs), each within its +- surely, and between the two "
               "the middle of what the windows and the epochs leave, marked "
               "(bounds), within its +- but for the windows' error; the "
               "LRU miss ratios marked (footprint) are converted "
               "from s and m, with no error given: s = the mean working "
               "set over windows of tau instructions, m = misses per 1,000 "
               "instructions, LRU miss = the miss ratio of an LRU cache of "
               "that many units; tau and the size double from row to "
               "row:\n");
   else
   wsp_wrap(out, width, 2, "\nLocality curves (docs/manual.md, \"Locality "
            "curves\"), exact, from every access: s = the mean working set "
            "over windows of tau instructions, m = misses per 1,000 "
            "instructions, LRU miss = the miss ratio of an LRU cache of that "
            "many units; tau and the size double from row to row:\n");
   for (size_t i = 0; i < f->n_curve_points; i = wsp_curve_at(f, i, &c))
      if (!f->curve_points[i].mrc) {
         wsp_curve_at(f, i, &c);
         curve(out, f, &c, width);
      }
}

/*--------------------------------------------------------------------*/
/*--- end                                        wsp_text_curves.c ---*/
/*--------------------------------------------------------------------*/

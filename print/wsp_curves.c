/*--------------------------------------------------------------------*/
/*--- ws_print: the locality curves and their knees.  wsp_curves.c ---*/
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

/* Owns what the viewers make of the curve and mrc records: which
   points form one curve, and its knees in words (docs/manual.md,
   "Locality curves").

   A step from tau_i to tau_(i+1) is a knee step when the missing rate
   falls at least by half, by at least 0.5 misses per 1,000
   instructions, and far faster than the working set grows:
   m_i / m_(i+1) >= (s_(i+1) / s_i)^2 (along a smooth locality curve m
   falls about as fast as s grows; at a knee a little more memory
   removes most misses).  Adjacent knee steps i .. j make one knee,
   from m_i down to m_(j+1); the three with the largest fall
   m_i / m_(j+1) are named, in order of tau: "this run needs N pages:
   with less, misses rise from m_(j+1) to m_i per 1,000 instructions",
   N the working set at tau_(j+1), rounded up. */

#include <stdio.h>
#include <string.h>

#include "wsp_render.h"

size_t wsp_curve_at(const struct wsp_file *f, size_t i, struct wsp_curve *c)
{
   const struct wsp_curve_point *p = f->curve_points;
   size_t n = f->n_curve_points, j = i;
   while (j < n && !p[j].mrc && p[j].data == p[i].data
          && p[j].line == p[i].line && wsp_str_eq(p[j].scope, p[i].scope))
      j++;
   c->first = i;
   c->n = j - i;
   c->mrc_first = j;
   while (j < n && p[j].mrc && p[j].data == p[i].data
          && p[j].line == p[i].line && wsp_str_eq(p[j].scope, p[i].scope))
      j++;
   c->n_mrc = j - c->mrc_first;
   return j;
}

/* A point made of bounds alone (--ws-curves=sampled between its
   windows and its epochs) is in no knee: its value is only the middle
   of what it may be. */
static int knee_step(const struct wsp_curve_point *a,
                     const struct wsp_curve_point *b)
{
   if (a->from == WSP_FROM_BOUNDS || b->from == WSP_FROM_BOUNDS)
      return 0;
   double grow = b->s ? (double)b->s / (double)(a->s ? a->s : 1) : 1;
   return a->m >= 2 * b->m && a->m - b->m >= 500
          && (double)a->m >= (double)b->m * grow * grow;
}

/* m_i / m_(j+1), a fall to no miss the largest. */
static double fall(const struct wsp_curve_point *p, const struct wsp_knee *k)
{
   return p[k->to].m ? (double)p[k->from].m / (double)p[k->to].m : 1e300;
}

size_t wsp_curve_knees(const struct wsp_file *f, const struct wsp_curve *c,
                       struct wsp_knee *out)
{
   const struct wsp_curve_point *p = &f->curve_points[c->first];
   struct wsp_knee all[64];
   size_t n = 0;
   for (size_t i = 0; i + 1 < c->n && n < 64; i++) {
      if (!knee_step(&p[i], &p[i + 1]))
         continue;
      if (n && all[n - 1].to == i)
         all[n - 1].to = i + 1;
      else
         all[n++] = (struct wsp_knee){ i, i + 1 };
   }
   /* keep the WSP_MAX_KNEES largest falls, in order of tau */
   while (n > WSP_MAX_KNEES) {
      size_t least = 0;
      for (size_t i = 1; i < n; i++)
         if (fall(p, &all[i]) < fall(p, &all[least]))
            least = i;
      memmove(&all[least], &all[least + 1], (n - least - 1) * sizeof *all);
      n--;
   }
   memcpy(out, all, n * sizeof *all);
   return n;
}

/* Thousandths as tenths, rounded half up. */
static void tenths(char *buf, size_t n, uint64_t milli)
{
   uint64_t t = (milli + 50) / 100;
   snprintf(buf, n, "%llu.%llu", (unsigned long long)(t / 10),
            (unsigned long long)(t % 10));
}

void wsp_knee_text(char *buf, size_t n, const struct wsp_file *f,
                   const struct wsp_curve *c, const struct wsp_knee *k)
{
   const struct wsp_curve_point *p = &f->curve_points[c->first];
   uint64_t units = (p[k->to].s + 999) / 1000;
   char lo[32], hi[32], who[300];
   const struct wsp_str *sc = &p[0].scope;
   tenths(lo, sizeof lo, p[k->to].m);
   tenths(hi, sizeof hi, p[k->from].m);
   if (wsp_str_is(*sc, "run"))
      snprintf(who, sizeof who, "this run");
   else
      snprintf(who, sizeof who, "region %.*s", (int)(sc->len - 7),
               sc->s + 7);
   snprintf(buf, n, "%s needs %llu %s%s%s: with less, misses rise from %s "
            "to %s per 1,000 instructions", who, (unsigned long long)units,
            p[0].line ? "line" : "page", units == 1 ? "" : "s",
            p[0].data ? "" : " of code", lo, hi);
}

/*--------------------------------------------------------------------*/
/*--- end                                             wsp_curves.c ---*/
/*--------------------------------------------------------------------*/

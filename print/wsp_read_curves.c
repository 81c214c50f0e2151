/*--------------------------------------------------------------------*/
/*--- ws_print: reading the locality curves.     wsp_read_curves.c ---*/
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

/* Owns the reading of the locality curves' records
   (docs/output-format.md, "Locality curves"): curve lines
   `curve SCOPE KIND UNIT tau N s F m F`, each curve's taus doubling
   from 64, then its mrc lines `mrc SCOPE KIND UNIT size N miss F`,
   sizes doubling from 1; SCOPE is `run` or `region:LABEL` (the label
   escaped as a word).  Keys may follow the values: an estimate's
   `s-err F m-err F` or `miss-err F` and `from WORD`; others are
   skipped, for the formats to come. */

#include <string.h>

#include "wsp_reader.h"

/* [0-9]+\.[0-9]{decimals} at the cursor, in units of the last decimal:
   1, 0 (none) or -1 (too large). */
static int cur_fixed(struct cur *c, unsigned decimals, uint64_t *v)
{
   uint64_t whole;
   int r = cur_u64(c, &whole);
   if (r <= 0)
      return r;
   if (c->pos >= c->len || c->s[c->pos] != '.')
      return 0;
   c->pos++;
   for (unsigned i = 0; i < decimals; i++, c->pos++) {
      if (c->pos >= c->len || !is_digit(c->s[c->pos]))
         return 0;
      if (whole > (UINT64_MAX - 9) / 10)
         return -1;
      whole = whole * 10 + (uint64_t)(c->s[c->pos] - '0');
   }
   *v = whole;
   return 1;
}

static int same_curve(const struct wsp_curve_point *a,
                      const struct wsp_curve_point *b)
{
   return a->data == b->data && a->line == b->line
          && wsp_str_eq(a->scope, b->scope);
}

/* The keys after a point's values, up to the line's end. */
static int estimate_keys(struct cur *c, struct wsp_curve_point *pt)
{
   struct wsp_str k, v;
   while (!cur_end(c)) {
      if (!cur_word(c, &k))
         return 0;
      if (wsp_str_is(k, pt->mrc ? "miss-err" : "s-err")) {
         if (!cur_lit(c, " ") || cur_fixed(c, pt->mrc ? 4 : 3,
                       pt->mrc ? &pt->miss_err : &pt->s_err) <= 0)
            return 0;
         pt->has_err = 1;
      } else if (!pt->mrc && wsp_str_is(k, "m-err")) {
         if (!cur_lit(c, " ") || cur_fixed(c, 3, &pt->m_err) <= 0)
            return 0;
      } else if (!cur_word(c, &v)) {
         return 0;
      } else if (wsp_str_is(k, "from")) {
         pt->from = wsp_str_is(v, "windows") ? WSP_FROM_WINDOWS
                    : wsp_str_is(v, "footprint") ? WSP_FROM_FOOTPRINT
                    : wsp_str_is(v, "epochs") ? WSP_FROM_EPOCHS
                    : wsp_str_is(v, "bounds") ? WSP_FROM_BOUNDS
                    : WSP_FROM_OTHER;
      }
   }
   return 1;
}

int curve_line(struct reader *r)
{
   struct lex *p = &r->p;
   struct wsp_file *f = p->f;
   struct cur c = cur_line(p);
   struct wsp_curve_point pt;
   const struct wsp_curve_point *prev =
      f->n_curve_points ? &f->curve_points[f->n_curve_points - 1] : NULL;
   static const char form[] =
      "a curve line is 'curve run|region:LABEL insn|data page|line tau N "
      "s D.DDD m D.DDD', an mrc line 'mrc run|region:LABEL insn|data "
      "page|line size N miss D.DDDD'";
   struct wsp_str unit;
   int k;

   memset(&pt, 0, sizeof pt);
   pt.mrc = word_is(p->line, p->len, "mrc");
   cur_lit(&c, pt.mrc ? "mrc" : "curve");
   if (!cur_word(&c, &pt.scope)
       || !(wsp_str_is(pt.scope, "run")
            || (pt.scope.len > 7 && memcmp(pt.scope.s, "region:", 7) == 0))
       || !cur_lit(&c, " ") || (pt.data = cur_kind(&c)) < 0
       || !cur_word(&c, &unit)
       || !(wsp_str_is(unit, "page") || wsp_str_is(unit, "line")))
      return fail(p, "%s", form);
   pt.line = wsp_str_is(unit, "line");
   if (pt.mrc) {
      if (!cur_lit(&c, " size ") || (k = cur_u64(&c, &pt.x)) <= 0
          || !cur_lit(&c, " miss ") || (k = cur_fixed(&c, 4, &pt.miss)) <= 0
          || !estimate_keys(&c, &pt) || pt.miss > 10000)
         return fail(p, "%s", form);
   } else {
      if (!cur_lit(&c, " tau ") || (k = cur_u64(&c, &pt.x)) <= 0
          || !cur_lit(&c, " s ") || (k = cur_fixed(&c, 3, &pt.s)) <= 0
          || !cur_lit(&c, " m ") || (k = cur_fixed(&c, 3, &pt.m)) <= 0
          || !estimate_keys(&c, &pt))
         return fail(p, "%s", form);
   }
   if (keep_raw(p, &pt.scope))
      return -1;
   if (pt.mrc ? (prev && same_curve(prev, &pt) && prev->mrc
                    ? pt.x != 2 * prev->x : pt.x != 1)
              : (prev && same_curve(prev, &pt) && !prev->mrc
                    ? pt.x != 2 * prev->x : pt.x != 64))
      return fail(p, "a curve's taus double from 64, then its mrc's sizes "
                  "from 1");
   if (pt.mrc && !(prev && same_curve(prev, &pt)))
      return fail(p, "an mrc line follows its curve's lines");
   if (wsp_grow(&f->curve_points, &r->cap.curve_points, f->n_curve_points,
                sizeof *f->curve_points))
      return fail(p, "out of memory");
   f->curve_points[f->n_curve_points++] = pt;
   return 0;
}

/*--------------------------------------------------------------------*/
/*--- end                                        wsp_read_curves.c ---*/
/*--------------------------------------------------------------------*/

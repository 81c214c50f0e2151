/*--------------------------------------------------------------------*/
/*--- ws_print: what is said of a routine.          wsp_routines.c ---*/
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

/* Owns the rules by which every view (text, HTML, --diff) calls a
   routine out and flags it (docs/manual.md, "Per-routine footprint"),
   so that the views cannot disagree. */

#include "wsp_render.h"

uint64_t wsp_routine_most_cost(const struct wsp_file *f)
{
   uint64_t most = 0;
   for (size_t i = 0; i < f->n_routines; i++)
      if (f->routines[i].cost > most)
         most = f->routines[i].cost;
   return most;
}

/* Called out: a fit over sizes that span a factor of 4 with r2 0.8 or
   more, for a cost of 1 % of the costliest routine's at least. */
int wsp_routine_called_out(const struct wsp_file *f,
                           const struct wsp_routine *r, size_t *sizes)
{
   const struct wsp_routine_row *rows = &f->routine_rows[r->first_row];
   uint64_t lo = 0, hi = 0;
   size_t n = 0;
   for (size_t i = 0; i < r->n_rows; i++)
      if (rows[i].size >= 1 && rows[i].max >= 1) {
         lo = lo ? lo : rows[i].size;
         hi = rows[i].size;
         n++;
      }
   *sizes = n;
   return r->fitted && hi >= 4 * lo && r->r2_milli >= 800
          && r->cost * 100 >= wsp_routine_most_cost(f);
}

/* Flagged ("grows faster than its input"): called out with an exponent
   of 1.2 or more over 5 sizes or more. */
int wsp_routine_flagged(const struct wsp_file *f,
                        const struct wsp_routine *r)
{
   size_t n;
   return wsp_routine_called_out(f, r, &n) && n >= 5
          && r->exponent_milli >= 1200;
}

struct wsp_str wsp_routine_name(const struct wsp_file *f,
                                const struct wsp_routine *r)
{
   return f->frames[f->stacks[r->stack].first].w.fn;
}

/*--------------------------------------------------------------------*/
/*--- end                                           wsp_routines.c ---*/
/*--------------------------------------------------------------------*/

/*--------------------------------------------------------------------*/
/*--- ws_print: the sites' folded stacks.             wsp_folded.c ---*/
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

/* --folded KEY: the allocation sites' stacks as folded stacks, one line
   per site, outermost frame first, frames separated by ';', then the
   site's value by key; sites whose value is 0 are left out, the others
   worst first.  flamegraph.pl, inferno and speedscope read it. */

#include <limits.h>
#include <stdlib.h>

#include "wsp_render.h"

/* A frame in folded stacks, as the text report names it: "fn
   (file:line)", so that each allocation site is a frame of its own;
   ';' separates frames there. */
static void folded_frame(FILE *out, const struct wsp_where *w)
{
   struct wsp_line l = { .n = 0 };
   wsp_lwhere(&l, w, INT_MAX, 0);     /* never shortened */
   for (size_t i = 0; i < l.n; i++)
      fputc(l.b[i] == ';' ? ':' : l.b[i], out);
}

void wsp_folded(FILE *out, const struct wsp_file *f, enum wsp_heap_key key)
{
   size_t *o = wsp_heap_order(f, key);
   if (!o)
      return;
   for (size_t k = 0; k < f->n_heap_sites; k++) {
      const struct wsp_heap_site *s = &f->heap_sites[o[k]];
      const struct wsp_stack *st = &f->stacks[s->stack];
      uint64_t v = wsp_heap_value(s, key);
      if (v == 0)
         continue;
      for (size_t i = st->n; i-- > 0;) {
         folded_frame(out, &f->frames[st->first + i].w);
         if (i)
            fputc(';', out);
      }
      fprintf(out, " %llu\n", (unsigned long long)v);
   }
   free(o);
}

/*--------------------------------------------------------------------*/
/*--- end                                             wsp_folded.c ---*/
/*--------------------------------------------------------------------*/

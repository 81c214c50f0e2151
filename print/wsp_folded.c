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
   worst first.  flamegraph.pl, inferno and speedscope read it.

   A frame is its function (--folded-by=function), so that a function
   is one frame however many lines of it call on, or "function
   (file:line)" (--folded-by=line), so that each call site is a frame
   of its own.  Names are written whole, however long.  A stack the
   unwinder cut at --num-callers gets an outermost frame "[stack cut at
   N frames]": its own outermost frame is no root of the program, and a
   flame graph shows the cut stacks together instead of as roots. */

#include <stdlib.h>

#include "wsp_render.h"

/* Bytes of a name as a folded frame: ';' separates frames and a
   newline ends the line, so ';' becomes ':' and control bytes \xNN. */
static void put_name(FILE *out, const char *s, size_t n)
{
   for (size_t i = 0; i < n; i++) {
      unsigned char c = (unsigned char)s[i];
      if (c == ';')
         fputc(':', out);
      else if (c < 0x20 || c == 0x7f)
         fprintf(out, "\\x%02x", c);
      else
         fputc(c, out);
   }
}

/* A frame as the text report names it, by function ("fn", "fn (in
   object)" without line information) or by line ("fn (file:line)"). */
static void put_frame(FILE *out, const struct wsp_where *w, int by_line)
{
   int in_obj = w->loc.len && w->loc.s[0] == '(';
   int none = wsp_str_is(w->loc, "???");
   put_name(out, w->fn.s, w->fn.len);
   if (wsp_fn_is_object_offset(w))
      return;
   if (in_obj) {
      fputs(" (in ", out);
      put_name(out, w->loc.s + 1, w->loc.len - 1);
   } else if (by_line && !none) {
      fputs(" (", out);
      put_name(out, w->loc.s, w->loc.len);
      fputc(')', out);
   }
}

size_t wsp_folded(FILE *out, const struct wsp_file *f, enum wsp_heap_key key,
                  int by_line)
{
   size_t *o = wsp_heap_order(f, key), lines = 0;
   if (!o)
      return 0;
   for (size_t k = 0; k < f->n_heap_sites; k++) {
      const struct wsp_heap_site *s = &f->heap_sites[o[k]];
      const struct wsp_stack *st = &f->stacks[s->stack];
      uint64_t v = wsp_heap_value(s, key);
      if (v == 0)
         continue;
      if (wsp_stack_cut(f, s->stack))
         fprintf(out, "[stack cut at %llu frames];",
                 (unsigned long long)f->num_callers);
      for (size_t i = st->n; i-- > 0;) {
         put_frame(out, &f->frames[st->first + i].w, by_line);
         if (i)
            fputc(';', out);
      }
      fprintf(out, " %llu\n", (unsigned long long)v);
      lines++;
   }
   free(o);
   return lines;
}

/*--------------------------------------------------------------------*/
/*--- end                                             wsp_folded.c ---*/
/*--------------------------------------------------------------------*/

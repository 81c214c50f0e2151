/*--------------------------------------------------------------------*/
/*--- ws_print: reading stacks and owners.       wsp_read_stacks.c ---*/
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

/* Owns the reading of stack blocks (version 3 on: `stack`, `frame`,
   `inline`), the `ip location function` form, and owners
   (docs/output-format.md, "Owners"): what a peak's owner line, a
   dump-owner line and a hot-owner line say lives in a page. */

#include <string.h>

#include "wsp_reader.h"

int stack_ref(struct lex *p, uint64_t id, size_t *idx)
{
   *idx = wsp_stack_find(p->f, id);
   if (*idx == SIZE_MAX)
      return fail(p, "stack %llu is not defined before this line",
                  (unsigned long long)id);
   return 0;
}

/* Is this a location: FILE:LINE (no blank), (OBJECT) or ???  */
static int location_ok(struct wsp_str l)
{
   size_t colon = SIZE_MAX;
   for (size_t i = 0; i < l.len; i++) {
      if (l.s[i] == ' ')
         return 0;
      if (l.s[i] == ':')
         colon = i;
   }
   if (wsp_str_is(l, "???"))
      return 1;
   if (l.len >= 3 && l.s[0] == '(' && l.s[l.len - 1] == ')')
      return 1;
   if (colon == SIZE_MAX || colon == 0 || colon + 1 == l.len)
      return 0;
   for (size_t i = colon + 1; i < l.len; i++)
      if (!is_digit(l.s[i]))
         return 0;
   return 1;
}

/* "IP LOCATION FUNCTION" from the cursor to the end of the line; its
   text kept when keep says so. */
int cur_where(struct lex *p, struct cur *c, struct wsp_where *w,
              const char *form, int keep)
{
   char wb[80];
   const char *why;
   int r = cur_hex(c, &w->ip);
   if (r <= 0 || !cur_lit(c, " "))
      return num_fail(p, r < 0 ? r : 0, form);
   size_t l0 = c->pos;
   while (c->pos < c->len && c->s[c->pos] != ' ')
      c->pos++;
   w->loc.s = c->s + l0;
   w->loc.len = c->pos - l0;
   if (!location_ok(w->loc))
      return fail(p, "the location is not FILE:LINE, (OBJECT) or ???");
   if (!cur_lit(c, " "))
      return fail(p, "%s", form);
   w->fn = cur_rest(c);
   if ((why = text_problem(w->fn, "function name", wb, sizeof wb)))
      return fail(p, "%s", why);
   if (!keep)
      return check_text(p, w->loc) || check_text(p, w->fn) ? -1 : 0;
   return keep_text(p, &w->loc) || keep_text(p, &w->fn) ? -1 : 0;
}

int stack_begin_line(struct reader *r)
{
   struct wsp_file *f = r->p.f;
   struct cur c = cur_line(&r->p);
   struct wsp_stack st;
   uint64_t n;
   int k;
   cur_lit(&c, "stack ");
   if ((k = cur_u64(&c, &st.id)) <= 0 || !cur_lit(&c, " ")
       || (k = cur_u64(&c, &n)) <= 0 || !cur_end(&c))
      return num_fail(&r->p, k < 0 ? k : 0, "a stack block begins 'stack "
                      "ID N'");
   if (st.id == 0 || n == 0)
      return fail(&r->p, "stack ids and line counts start at 1");
   if (wsp_stack_find(f, st.id) != SIZE_MAX)
      return fail(&r->p, "stack %llu is defined twice",
                  (unsigned long long)st.id);
   if (wsp_grow(&f->stacks, &r->cap.stacks, f->n_stacks, sizeof *f->stacks))
      return fail(&r->p, "out of memory");
   st.first = f->n_frames;
   st.n = 0;
   f->stacks[f->n_stacks] = st;
   r->b.lines_due = n;
   r->b.in_stack = 1;
   return 0;
}

int frame_line(struct reader *r)
{
   struct wsp_file *f = r->p.f;
   struct cur c = cur_line(&r->p);
   struct wsp_frame fr;
   struct wsp_stack *st = &f->stacks[f->n_stacks];

   if (cur_lit(&c, "frame "))
      fr.inl = 0;
   else if (cur_lit(&c, "inline "))
      fr.inl = 1;
   else
      return fail(&r->p, "stack %llu needs %zu more 'frame' or 'inline' "
                  "line(s)", (unsigned long long)st->id, r->b.lines_due);
   if (cur_where(&r->p, &c, &fr.w, "a stack line is 'frame|inline 0xIP "
                 "LOCATION FUNCTION'", 1))
      return -1;
   if (st->n && f->frames[f->n_frames - 1].inl
       && f->frames[f->n_frames - 1].w.ip != fr.w.ip)
      return fail(&r->p, "an inline line has the ip of the line after it");
   if (wsp_grow(&f->frames, &r->cap.frames, f->n_frames, sizeof *f->frames))
      return fail(&r->p, "out of memory");
   f->frames[f->n_frames++] = fr;
   st->n++;
   if (--r->b.lines_due == 0) {
      if (fr.inl)
         return fail(&r->p, "a stack ends with a frame line (an inline line "
                     "is followed by its caller's line)");
      r->b.in_stack = 0;
      if (wsp_stack_add(f, f->n_stacks))
         return fail(&r->p, "out of memory");
      f->n_stacks++;
   }
   return 0;
}

/* An owner from the cursor to the end of the line.  rest_ok: `rest`
   is allowed (a peak's owner lines); block_ok: a heap owner may name
   its block.  When keep says so, its text is kept as written, a
   global's or a file's name decoded. */
int cur_owner(struct lex *p, struct cur *c, struct wsp_owner *o,
              int rest_ok, int block_ok, int keep)
{
   static const char form[] = "an owner is 'heap ID [0xBLOCK SIZE]', "
                              "'freed ID [0xBLOCK SIZE]', 'heap-other', "
                              "'global SYMBOL', 'stack TID', 'file PATH', "
                              "'anon', 'unknown' or 'code OBJECT FUNCTION'";
   size_t start = c->pos;
   char wb[80];
   const char *why;
   uint64_t id;
   int r = 0;

   memset(o, 0, sizeof *o);
   o->text = cur_rest(c);
   o->block = o->size = WSP_NONE;
   if (cur_lit(c, "heap-other") && cur_end(c)) {
      o->kind = WSP_OWN_HEAP_OTHER;
   } else if (c->pos = start, cur_lit(c, "heap ")
              || (p->f->version >= 4 && cur_lit(c, "freed "))) {
      o->kind = o->text.s[0] == 'h' ? WSP_OWN_HEAP : WSP_OWN_FREED;
      if ((r = cur_u64(c, &id)) <= 0)
         return num_fail(p, r, form);
      if (!cur_end(c)) {
         if (!cur_lit(c, " ") || (r = cur_hex(c, &o->block)) <= 0
             || !cur_lit(c, " ") || (r = cur_u64(c, &o->size)) <= 0
             || !cur_end(c))
            return num_fail(p, r < 0 ? r : 0, form);
         if (!block_ok)
            return fail(p, "a peak's heap owners are summed by allocation "
                        "stack: '%s ID' without a block",
                        o->kind == WSP_OWN_HEAP ? "heap" : "freed");
      }
      if (stack_ref(p, id, &o->stack))
         return -1;
   } else if (wsp_str_is(o->text, "anon")) {
      o->kind = WSP_OWN_ANON;
   } else if (wsp_str_is(o->text, "unknown")) {
      o->kind = WSP_OWN_UNKNOWN;
   } else if (wsp_str_is(o->text, "rest")) {
      if (!rest_ok)
         return fail(p, "'rest' is only the owner of a peak's owner line");
      o->kind = WSP_OWN_REST;
   } else if (cur_lit(c, "stack ")) {
      o->kind = WSP_OWN_STACK;
      if ((r = cur_u64(c, &o->tid)) <= 0 || !cur_end(c))
         return num_fail(p, r < 0 ? r : 0, form);
   } else if (p->f->version >= 4 && cur_lit(c, "code ")) {
      size_t o0 = c->pos;
      o->kind = WSP_OWN_CODE;
      while (c->pos < c->len && c->s[c->pos] != ' ')
         c->pos++;
      o->object.s = c->s + o0;
      o->object.len = c->pos - o0;
      if (o->object.len == 0 || !cur_lit(c, " "))
         return fail(p, "%s", form);
      o->name = cur_rest(c);
      if ((why = text_problem(o->name, "function name", wb, sizeof wb)))
         return fail(p, "%s", why);
      return keep && (keep_raw(p, &o->text) || keep_raw(p, &o->object)
                      || keep_raw(p, &o->name)) ? -1 : 0;
   } else if (cur_lit(c, "global ") || cur_lit(c, "file ")) {
      int global = o->text.s[0] == 'g';
      o->kind = global ? WSP_OWN_GLOBAL : WSP_OWN_FILE;
      o->name = cur_rest(c);
      if ((why = text_problem(o->name, global ? "symbol" : "path", wb,
                              sizeof wb)))
         return fail(p, "%s", why);
      if (!keep)
         return check_text(p, o->name) || check_text(p, o->text) ? -1 : 0;
      return keep_text(p, &o->name) || keep_text(p, &o->text) ? -1 : 0;
   } else {
      return fail(p, "%s", form);
   }
   return keep ? keep_raw(p, &o->text) : 0;
}

/* The dump-owner or hot-owner line that must come now. */
int due_owner_line(struct reader *r)
{
   struct wsp_file *f = r->p.f;
   struct cur c = cur_line(&r->p);
   struct wsp_owner o;
   int hot = r->b.due == DUE_HOT_OWNER;
   if (!cur_lit(&c, hot ? "hot-owner " : "dump-owner "))
      return fail(&r->p, "a data page's %s line is followed by its '%s "
                  "OWNER' line", hot ? "hot" : "dump-page",
                  hot ? "hot-owner" : "dump-owner");
   if (cur_owner(&r->p, &c, &o, 0, 1, hot || f->dump_file || f->keep_pages))
      return -1;
   if (hot)
      f->hot[f->n_hot - 1].o = o;
   else if (f->dump_file || f->keep_pages)
      f->dump_pages[f->n_dump_pages - 1].o = o;
   r->b.due = DUE_NONE;
   return 0;
}

/*--------------------------------------------------------------------*/
/*--- end                                        wsp_read_stacks.c ---*/
/*--------------------------------------------------------------------*/

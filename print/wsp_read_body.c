/*--------------------------------------------------------------------*/
/*--- ws_print: reading samples, events, dumps.    wsp_read_body.c ---*/
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

/* Owns the reading of the body's records: sample lines (their columns
   as the header names them), events (each kind's arguments; kinds this
   reader does not know are kept as they are), and dump blocks.  A
   version 3 peak event is read by wsp_read_peaks.c. */

#include <stdio.h>
#include <string.h>

#include "wsp_reader.h"

/* The header's column names, as a sample's message gives them. */
static const char *column_names(const struct wsp_columns *cols, char *buf,
                                size_t n)
{
   size_t used = 0;
   buf[0] = '\0';
   for (size_t i = 0; i < cols->n && used < n; i++)
      used += (size_t)snprintf(buf + used, n - used, "%s%.*s", i ? " " : "",
                               (int)cols->name[i].len, cols->name[i].s);
   return buf;
}

int sample_values(struct lex *p, const struct wsp_columns *cols,
                  struct wsp_sample *s, struct wsp_thread_ws **thr,
                  size_t *cap)
{
   struct cur c = cur_line(p);
   uint64_t v[WSP_MAX_COLUMNS];
   char names[200];
   size_t n = 0;

   memset(s, 0, sizeof *s);
   for (;;) {
      uint64_t x;
      int k = cur_u64(&c, &x);
      if (k <= 0)
         return num_fail(p, k, "a sample is integers separated by single "
                         "spaces");
      if (n < cols->n) {
         v[n] = x;
      } else {
         size_t j = (n - cols->n) % 3;
         if (j == 0) {
            if (wsp_grow(thr, cap, s->thr_count, sizeof **thr))
               return fail(p, "out of memory");
            (*thr)[s->thr_count++].tid = x;
         } else if (j == 1) {
            (*thr)[s->thr_count - 1].insn = x;
         } else {
            (*thr)[s->thr_count - 1].data = x;
         }
      }
      n++;
      if (cur_end(&c))
         break;
      if (!cur_lit(&c, " "))
         return fail(p, "a sample is integers separated by single spaces");
   }
   if (!cols->per_thread) {
      if (n != cols->n)
         return fail(p, "a sample has %zu columns (%s), this one has %zu",
                     cols->n, column_names(cols, names, sizeof names), n);
   } else {
      if (n < cols->n + 3 || (n - cols->n) % 3)
         return fail(p, "a per-thread sample is %s followed by one or more "
                     "triples tid insn data",
                     column_names(cols, names, sizeof names));
      for (size_t i = 0; i < s->thr_count; i++) {
         uint64_t tid = (*thr)[i].tid;
         if (tid == 0 || (i && tid <= (*thr)[i - 1].tid))
            return fail(p, "thread ids in a sample must be positive and "
                        "increase");
      }
   }
   for (int k = 0; k < WSP_N_COLS; k++)
      s->v[k] = cols->at[k] >= 0 ? v[cols->at[k]] : WSP_NONE;
   return 0;
}

int sample_line(struct reader *r)
{
   struct lex *p = &r->p;
   struct body *b = &r->b;
   struct wsp_file *f = p->f;
   struct wsp_sample s;

   if (b->exec_seen)
      return fail(p, "after an exec event only the trailer may follow");
   if (sample_values(p, &f->columns, &s, &b->thr, &r->cap.thr))
      return -1;
   uint64_t t = s.v[WSP_COL_T];
   if (b->any_sample && t <= b->last_sample_t)
      return fail(p, "sample times must increase (the previous sample "
                  "was at %llu)", (unsigned long long)b->last_sample_t);
   if (b->any_t && t < b->last_t)
      return fail(p, "the sample is earlier than the line before it "
                  "(at %llu)", (unsigned long long)b->last_t);
   if (close_peak(r))
      return -1;
   if (wsp_series_add(f, &s, b->thr))
      return fail(p, "out of memory");
   b->last_t = b->last_sample_t = t;
   b->any_t = b->any_sample = 1;
   b->last_insn = s.v[WSP_COL_INSN];
   b->last_data = s.v[WSP_COL_DATA];
   b->at_sample = 1;
   b->after_sample = 1;
   return 0;
}

/* Split the arguments after "event T KIND": returns how many there are
   (words separated by single spaces), or -1 if the spacing is wrong. */
static long count_args(struct wsp_str a)
{
   long n = 0;
   size_t i = 0;
   if (a.len == 0)
      return 0;
   while (i < a.len) {
      if (a.s[i] != ' ' || i + 1 >= a.len || a.s[i + 1] == ' ')
         return -1;
      i++;
      while (i < a.len && a.s[i] != ' ')
         i++;
      n++;
   }
   return n;
}

int event_line(struct reader *r)
{
   struct lex *p = &r->p;
   struct body *b = &r->b;
   struct wsp_file *f = p->f;
   struct cur c = cur_line(p);
   struct wsp_event e;
   static const char form[] = "an event is 'event T KIND ARGUMENTS', "
                              "separated by single spaces";
   int k;

   if (b->exec_seen)
      return fail(p, "after an exec event only the trailer may follow");
   memset(&e, 0, sizeof e);
   e.line = p->lineno;
   cur_lit(&c, "event ");
   if ((k = cur_u64(&c, &e.t)) <= 0 || !cur_lit(&c, " "))
      return num_fail(p, k < 0 ? k : 0, form);
   size_t k0 = c.pos;
   if (c.pos >= c.len || !is_lower(c.s[c.pos]))
      return fail(p, "%s", form);
   while (c.pos < c.len && (is_lower(c.s[c.pos]) || is_digit(c.s[c.pos])
                            || c.s[c.pos] == '-'))
      c.pos++;
   struct wsp_str kind = { c.s + k0, c.pos - k0 };
   struct wsp_str args = cur_rest(&c);
   long nargs = count_args(args);
   if (nargs < 0)
      return fail(p, "%s", form);
   struct wsp_str a1 = { args.s + (args.len ? 1 : 0),
                         args.len ? args.len - 1 : 0 };   /* after ' ' */

   if (wsp_str_is(kind, "thread-start") || wsp_str_is(kind, "thread-exit")) {
      struct cur t = { a1.s, a1.len, 0 };
      e.kind = wsp_str_is(kind, "thread-start") ? WSP_EV_THREAD_START
                                            : WSP_EV_THREAD_EXIT;
      if (nargs != 1 || (k = cur_u64(&t, &e.num)) <= 0 || !cur_end(&t))
         return num_fail(p, k < 0 ? k : 0, "a thread-start or thread-exit "
                         "event takes one thread id");
   } else if (wsp_str_is(kind, "start") || wsp_str_is(kind, "stop")) {
      e.kind = wsp_str_is(kind, "start") ? WSP_EV_START : WSP_EV_STOP;
      if (nargs != 0)
         return fail(p, "a start or stop event takes no arguments");
   } else if (wsp_str_is(kind, "set")) {
      struct cur t = { a1.s, a1.len, 0 };
      e.kind = WSP_EV_SET;
      if (nargs != 2 || !is_lower(a1.s[0]))
         return fail(p, "a set event is 'set PARAMETER VALUE'");
      while (t.pos < t.len && t.s[t.pos] != ' ')
         t.pos++;
      e.text.s = a1.s;
      e.text.len = t.pos;
      t.pos++;
      if ((k = cur_u64(&t, &e.num)) <= 0 || !cur_end(&t))
         return num_fail(p, k < 0 ? k : 0, "a set event's value is an "
                         "integer");
      if ((wsp_str_is(e.text, "every") || wsp_str_is(e.text, "tau"))
          && e.num == 0)
         return fail(p, "set %.*s: the value must be positive",
                     (int)e.text.len, e.text.s);
      if (keep_raw(p, &e.text))
         return -1;
   } else if (wsp_str_is(kind, "mark")) {
      e.kind = WSP_EV_MARK;
      e.text = a1;
      if (nargs == 0)
         return fail(p, "a mark event needs a label");
      if (label_text(p, &e.text, "mark"))
         return -1;
   } else if (wsp_str_is(kind, "exec") && f->version >= 4) {
      e.kind = WSP_EV_EXEC;
      e.text = a1;
      if (nargs == 0)
         return fail(p, "an exec event names the program");
      if (keep_text(p, &e.text))
         return -1;
   } else if (wsp_str_is(kind, "dump")) {
      if (word_is(a1.s, a1.len, "label") && nargs >= 2) {
         e.kind = WSP_EV_DUMP_LABEL;
         e.text.s = a1.s + 6;
         e.text.len = a1.len - 6;
         if (label_text(p, &e.text, "dump label"))
            return -1;
      } else if (word_is(a1.s, a1.len, "file") && nargs >= 2) {
         e.kind = WSP_EV_DUMP_FILE;
         e.text.s = a1.s + 5;
         e.text.len = a1.len - 5;
         if (keep_text(p, &e.text))
            return -1;
      } else if (wsp_str_is(a1, "monitor")) {
         e.kind = WSP_EV_DUMP_MONITOR;
      } else {
         return fail(p, "a dump event is 'dump label LABEL', 'dump file "
                     "PATH' or 'dump monitor'");
      }
   } else if (wsp_str_is(kind, "region-start") && f->version >= 4) {
      e.kind = WSP_EV_REGION_START;
      if (nargs != 0)
         return fail(p, "a region-start event takes no arguments");
   } else if (wsp_str_is(kind, "final") && f->version >= 4) {
      struct cur w = { a1.s, a1.len, 0 };
      e.kind = WSP_EV_FINAL;
      if (!b->prev_sample || e.t != b->last_sample_t)
         return fail(p, "'event T final' follows the final sample, at its "
                     "time");
      /* `final W`, W its window's length (`final` alone before ws gave it) */
      if (nargs > 1 || (nargs == 1 && ((k = cur_u64(&w, &e.num)) <= 0
                                       || !cur_end(&w))))
         return num_fail(p, nargs == 1 && k < 0 ? k : 0, "a final event "
                         "gives its window's length, one number");
      wsp_series_final(f);
   } else if (wsp_str_is(kind, "peak") && f->version >= 4) {
      return fail(p, "version 4 lists the peaks in the trailer ('peak' "
                  "lines), not as events");
   } else if (wsp_str_is(kind, "peak") && f->version >= 3) {
      if (close_peak(r) || peak_event(r, &e, a1))
         return -1;
   } else {
      e.kind = WSP_EV_OTHER;        /* readers skip kinds they do not know */
      e.text.s = kind.s;
      e.text.len = p->len - (size_t)(kind.s - p->line);
      if (keep_raw(p, &e.text))
         return -1;
   }
   if (b->any_t && e.t < b->last_t)
      return fail(p, "the event is earlier than the line before it "
                  "(at %llu)", (unsigned long long)b->last_t);
   if (e.kind != WSP_EV_PEAK) {
      if (close_peak(r))
         return -1;
      b->at_sample = 0;
   }
   if (wsp_grow(&f->events, &r->cap.events, f->n_events, sizeof *f->events))
      return fail(p, "out of memory");
   f->events[f->n_events++] = e;
   b->last_t = e.t;
   b->any_t = 1;
   if (e.kind == WSP_EV_EXEC)
      b->exec_seen = 1;
   if (e.kind == WSP_EV_DUMP_LABEL) {
      b->dump_due = 1;
      memset(&b->dump, 0, sizeof b->dump);
      b->dump.t = e.t;
      b->dump.label = e.text;
   }
   return 0;
}

int dump_begin_line(struct reader *r)
{
   struct lex *p = &r->p;
   struct body *b = &r->b;
   struct cur c = cur_line(p);
   uint64_t t;
   int k;
   cur_lit(&c, "dump-begin ");
   if ((k = cur_u64(&c, &t)) <= 0 || !cur_end(&c))
      return num_fail(p, k < 0 ? k : 0, "expected 'dump-begin T'");
   if (close_peak(r))
      return -1;
   b->at_sample = 0;
   if (!b->dump_due) {
      /* the grammar allows a block without its event: no label */
      memset(&b->dump, 0, sizeof b->dump);
      b->dump.t = t;
      if (b->any_t && t < b->last_t)
         return fail(p, "the dump is earlier than the line before it "
                     "(at %llu)", (unsigned long long)b->last_t);
      b->last_t = t;
      b->any_t = 1;
   } else if (t != b->dump.t) {
      return fail(p, "the dump block's time differs from its event's "
                  "(%llu)", (unsigned long long)b->dump.t);
   }
   b->dump.line = p->lineno;
   b->dump.page_first = p->f->n_dump_pages;
   b->n_insn = b->n_data = 0;
   b->any_addr = b->in_data = 0;
   b->dump_due = 0;
   b->state = S_DUMP;
   return 0;
}

int dump_line(struct reader *r)
{
   struct lex *p = &r->p;
   struct body *b = &r->b;
   struct wsp_file *f = p->f;
   struct cur c = cur_line(p);
   uint64_t addr, since, ni, nd;
   int k;

   if (b->due)
      return due_owner_line(r);
   if (cur_lit(&c, "dump-page ")) {
      struct wsp_dump_page pg;
      const char *form = f->version >= 3
         ? "a dump page is 'dump-page insn|data 0xADDRESS SINCE ACCESSES "
           "0xIP LOCATION FUNCTION'"
         : "a dump page is 'dump-page insn|data 0xADDRESS SINCE'";
      int data = cur_kind(&c);
      if (data < 0 || !cur_lit(&c, " "))
         return fail(p, "%s", form);
      if ((k = cur_hex(&c, &addr)) <= 0 || !cur_lit(&c, " ")
          || (k = cur_u64(&c, &since)) <= 0)
         return num_fail(p, k < 0 ? k : 0, form);
      memset(&pg, 0, sizeof pg);
      if (f->version >= 3) {
         if (!cur_lit(&c, " ") || (k = cur_u64(&c, &pg.accesses)) <= 0
             || !cur_lit(&c, " "))
            return num_fail(p, k < 0 ? k : 0, form);
         if (cur_where(p, &c, &pg.w, form, f->dump_file || f->keep_pages))
            return -1;
      } else if (!cur_end(&c)) {
         return fail(p, "%s", form);
      }
      if (since > b->dump.t)
         return fail(p, "the page's since (%llu) is after the dump",
                     (unsigned long long)since);
      if (!data && b->in_data)
         return fail(p, "instruction pages come before data pages in a "
                     "dump");
      if (data != b->in_data)
         b->any_addr = 0;
      if (b->any_addr && addr <= b->last_addr)
         return fail(p, "the pages of a dump are in increasing address "
                     "order");
      b->in_data = data;
      b->any_addr = 1;
      b->last_addr = addr;
      if (data)
         b->n_data++;
      else
         b->n_insn++;
      if (data && f->version >= 3)
         b->due = DUE_DUMP_OWNER;
      if (f->dump_file || f->keep_pages) {
         pg.data = data;
         pg.addr = addr;
         pg.since = since;
         if (wsp_grow(&f->dump_pages, &r->cap.dump_pages, f->n_dump_pages,
                      sizeof *f->dump_pages))
            return fail(p, "out of memory");
         f->dump_pages[f->n_dump_pages++] = pg;
      }
      return 0;
   }
   if (cur_lit(&c, "dump-end ")) {
      uint64_t li = 0, ld = 0;
      if ((k = cur_u64(&c, &ni)) <= 0 || !cur_lit(&c, " ")
          || (k = cur_u64(&c, &nd)) <= 0
          || (f->linesize && (!cur_lit(&c, " lines ")
                              || (k = cur_u64(&c, &li)) <= 0
                              || !cur_lit(&c, " ")
                              || (k = cur_u64(&c, &ld)) <= 0))
          || !cur_end(&c))
         return num_fail(p, k < 0 ? k : 0, f->linesize
                         ? "expected 'dump-end N-INSN N-DATA lines "
                           "LINES-INSN LINES-DATA'"
                         : "expected 'dump-end N-INSN N-DATA'");
      b->dump.lines_insn = li;
      b->dump.lines_data = ld;
      if (ni != b->n_insn || nd != b->n_data)
         return fail(p, "dump-end says %llu insn and %llu data pages, the "
                     "block has %llu and %llu", (unsigned long long)ni,
                     (unsigned long long)nd, (unsigned long long)b->n_insn,
                     (unsigned long long)b->n_data);
      b->dump.n_insn = ni;
      b->dump.n_data = nd;
      if (wsp_grow(&f->dumps, &r->cap.dumps, f->n_dumps, sizeof *f->dumps))
         return fail(p, "out of memory");
      f->dumps[f->n_dumps++] = b->dump;
      b->state = S_BODY;
      return 0;
   }
   return fail(p, "inside a dump block only 'dump-page' lines%s and "
               "'dump-end' may appear", f->version >= 3
               ? " (with 'dump-owner' after a data page)" : "");
}

/*--------------------------------------------------------------------*/
/*--- end                                          wsp_read_body.c ---*/
/*--------------------------------------------------------------------*/

/*--------------------------------------------------------------------*/
/*--- ws_print: the reader of ws output files.        wsp_read.c ---*/
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

/* Owns the reading of a whole file: its lines in order, which line may
   come where (the body's samples, events and dump blocks, then the
   trailer), and wsp_parse(), wsp_check_start() and wsp_free().  The
   parser as a whole owns the grammar of docs/output-format.md, versions
   4, 3 and 2, and nothing else: wsp_lex.c has the words of a line,
   wsp_header.c the version line and the header, wsp_stacks.c stacks and
   owners, wsp_trailer.c peaks, hot pages and the trailer, wsp_heap.c the
   heap usage lines of version 4.  It checks every line and records what
   the printers need; it prints nothing and computes no statistics.

   The reader is strict, like tests/wslib.py: anything the grammar does
   not allow is an error naming the line, so that a broken writer is
   noticed rather than drawn.  It is also safe on any input: it reads
   the buffer by length (NUL bytes are ordinary bytes), every number is
   checked for overflow, and every array grows by doubling with checked
   sizes.  print/fuzz_ws_print.c fuzzes it.

   A file cut short by a killed run is not an error: a last line
   without its newline is left out (it may be half written) and the
   trailer may be missing or partial; every complete line must still
   follow the grammar.  wsp_file.complete tells the two apart.

   Version 2 files (from an older ws) are read as that version's
   grammar: the same lines but the dump-page form "dump-page KIND
   0xADDR SINCE" and none of the lines version 3 added.  Version 3
   files have their peaks as events in the body; version 4 files list
   them in the trailer, mark final samples and add the heap-site and
   heap-window lines. */

#include <stdlib.h>
#include <string.h>

#include "wsp_reader.h"

static int sample_line(struct parser *p, struct body *b, struct caps *cap)
{
   struct wsp_file *f = p->f;
   struct cur c = { p->line, p->len, 0 };
   uint64_t v[4];
   size_t n = 0;
   struct wsp_sample s;

   if (b->exec_seen)
      return fail(p, "after an exec event only the trailer may follow");
   memset(&s, 0, sizeof s);
   s.shared = WSP_NONE;
   s.thr_first = f->n_thr;
   for (;;) {
      uint64_t x;
      int r = cur_u64(&c, &x);
      if (r <= 0)
         return num_fail(p, r, "a sample is integers separated by single "
                         "spaces");
      if (n < 4) {
         v[n] = x;
      } else {
         size_t k = (n - 4) % 3;
         if (k == 0) {
            if (wsp_grow(&f->thr, &cap->thr, f->n_thr, sizeof *f->thr))
               return fail(p, "out of memory");
            f->thr[f->n_thr].tid = x;
            f->n_thr++;
            s.thr_count++;
         } else if (k == 1) {
            f->thr[f->n_thr - 1].insn = x;
         } else {
            f->thr[f->n_thr - 1].data = x;
         }
      }
      n++;
      if (cur_end(&c))
         break;
      if (!cur_lit(&c, " "))
         return fail(p, "a sample is integers separated by single spaces");
   }
   if (!f->per_thread) {
      if (n != 3)
         return fail(p, "a sample has 3 columns (t insn data), this one "
                     "has %zu", n);
   } else {
      if (n < 7 || (n - 4) % 3)
         return fail(p, "a per-thread sample is t insn data shared "
                     "followed by one or more triples tid insn data");
      s.shared = v[3];
      for (size_t i = 0; i < s.thr_count; i++) {
         uint64_t tid = f->thr[s.thr_first + i].tid;
         if (tid == 0 || (i && tid <= f->thr[s.thr_first + i - 1].tid))
            return fail(p, "thread ids in a sample must be positive and "
                        "increase");
      }
   }
   s.t = v[0];
   s.insn = v[1];
   s.data = v[2];
   if (b->any_sample && s.t <= b->last_sample_t)
      return fail(p, "sample times must increase (the previous sample "
                  "was at %llu)", (unsigned long long)b->last_sample_t);
   if (b->any_t && s.t < b->last_t)
      return fail(p, "the sample is earlier than the line before it "
                  "(at %llu)", (unsigned long long)b->last_t);
   if (close_peak(p, b))
      return -1;
   if (wsp_grow(&f->samples, &cap->samples, f->n_samples, sizeof *f->samples))
      return fail(p, "out of memory");
   f->samples[f->n_samples++] = s;
   b->last_t = b->last_sample_t = s.t;
   b->any_t = b->any_sample = 1;
   b->last_insn = s.insn;
   b->last_data = s.data;
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

static int event_line(struct parser *p, struct body *b, struct caps *cap)
{
   struct wsp_file *f = p->f;
   struct cur c = { p->line, p->len, 0 };
   struct wsp_event e;
   static const char form[] = "an event is 'event T KIND ARGUMENTS', "
                              "separated by single spaces";
   int r;

   if (b->exec_seen)
      return fail(p, "after an exec event only the trailer may follow");
   memset(&e, 0, sizeof e);
   e.line = p->lineno;
   cur_lit(&c, "event ");
   if ((r = cur_u64(&c, &e.t)) <= 0 || !cur_lit(&c, " "))
      return num_fail(p, r < 0 ? r : 0, form);
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

   if (str_is(kind, "thread-start") || str_is(kind, "thread-exit")) {
      struct cur t = { a1.s, a1.len, 0 };
      e.kind = str_is(kind, "thread-start") ? WSP_EV_THREAD_START
                                            : WSP_EV_THREAD_EXIT;
      if (nargs != 1 || (r = cur_u64(&t, &e.num)) <= 0 || !cur_end(&t))
         return num_fail(p, r < 0 ? r : 0, "a thread-start or thread-exit "
                         "event takes one thread id");
   } else if (str_is(kind, "start") || str_is(kind, "stop")) {
      e.kind = str_is(kind, "start") ? WSP_EV_START : WSP_EV_STOP;
      if (nargs != 0)
         return fail(p, "a start or stop event takes no arguments");
   } else if (str_is(kind, "set")) {
      struct cur t = { a1.s, a1.len, 0 };
      e.kind = WSP_EV_SET;
      if (nargs != 2 || !is_lower(a1.s[0]))
         return fail(p, "a set event is 'set PARAMETER VALUE'");
      while (t.pos < t.len && t.s[t.pos] != ' ')
         t.pos++;
      e.text.s = a1.s;
      e.text.len = t.pos;
      t.pos++;
      if ((r = cur_u64(&t, &e.num)) <= 0 || !cur_end(&t))
         return num_fail(p, r < 0 ? r : 0, "a set event's value is an "
                         "integer");
      if ((str_is(e.text, "every") || str_is(e.text, "tau")) && e.num == 0)
         return fail(p, "set %.*s: the value must be positive",
                     (int)e.text.len, e.text.s);
   } else if (str_is(kind, "mark")) {
      e.kind = WSP_EV_MARK;
      e.text = a1;
      if (nargs == 0)
         return fail(p, "a mark event needs a label");
      if (label_text(p, &e.text, "mark"))
         return -1;
   } else if (str_is(kind, "exec") && f->version >= 4) {
      e.kind = WSP_EV_EXEC;
      e.text = a1;
      if (nargs == 0)
         return fail(p, "an exec event names the program");
      if (decode(p, &e.text))
         return -1;
   } else if (str_is(kind, "dump")) {
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
         if (decode(p, &e.text))
            return -1;
      } else if (str_is(a1, "monitor")) {
         e.kind = WSP_EV_DUMP_MONITOR;
      } else {
         return fail(p, "a dump event is 'dump label LABEL', 'dump file "
                     "PATH' or 'dump monitor'");
      }
   } else if (str_is(kind, "region-start") && f->version >= 4) {
      e.kind = WSP_EV_REGION_START;
      if (nargs != 0)
         return fail(p, "a region-start event takes no arguments");
   } else if (str_is(kind, "final") && f->version >= 4) {
      e.kind = WSP_EV_FINAL;
      if (nargs != 0 || !b->prev_sample || e.t != b->last_sample_t)
         return fail(p, "'event T final' follows the final sample, at its "
                     "time");
      f->samples[f->n_samples - 1].final = 1;
   } else if (str_is(kind, "peak") && f->version >= 4) {
      return fail(p, "version 4 lists the peaks in the trailer ('peak' "
                  "lines), not as events");
   } else if (str_is(kind, "peak") && f->version >= 3) {
      if (close_peak(p, b) || peak_event(p, b, cap, &e, a1))
         return -1;
   } else {
      e.kind = WSP_EV_OTHER;        /* readers skip kinds they do not know */
      e.text.s = kind.s;
      e.text.len = p->len - (size_t)(kind.s - p->line);
   }
   if (b->any_t && e.t < b->last_t)
      return fail(p, "the event is earlier than the line before it "
                  "(at %llu)", (unsigned long long)b->last_t);
   if (e.kind != WSP_EV_PEAK) {
      if (close_peak(p, b))
         return -1;
      b->at_sample = 0;
   }
   if (wsp_grow(&f->events, &cap->events, f->n_events, sizeof *f->events))
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

int dump_begin_line(struct parser *p, struct body *b)
{
   struct cur c = { p->line, p->len, 0 };
   uint64_t t;
   int r;
   cur_lit(&c, "dump-begin ");
   if ((r = cur_u64(&c, &t)) <= 0 || !cur_end(&c))
      return num_fail(p, r < 0 ? r : 0, "expected 'dump-begin T'");
   if (close_peak(p, b))
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
   b->n_insn = b->n_data = 0;
   b->any_addr = b->in_data = 0;
   b->dump_due = 0;
   b->state = S_DUMP;
   return 0;
}

int dump_line(struct parser *p, struct body *b, struct caps *cap)
{
   struct wsp_file *f = p->f;
   struct cur c = { p->line, p->len, 0 };
   uint64_t addr, since, ni, nd;
   int r;

   if (b->due)
      return due_owner_line(p, b);
   if (cur_lit(&c, "dump-page ")) {
      struct wsp_dump_page pg;
      const char *form = f->version >= 3
         ? "a dump page is 'dump-page insn|data 0xADDRESS SINCE ACCESSES "
           "0xIP LOCATION FUNCTION'"
         : "a dump page is 'dump-page insn|data 0xADDRESS SINCE'";
      int data = cur_kind(&c);
      if (data < 0 || !cur_lit(&c, " "))
         return fail(p, "%s", form);
      if ((r = cur_hex(&c, &addr)) <= 0 || !cur_lit(&c, " ")
          || (r = cur_u64(&c, &since)) <= 0)
         return num_fail(p, r < 0 ? r : 0, form);
      memset(&pg, 0, sizeof pg);
      if (f->version >= 3) {
         if (!cur_lit(&c, " ") || (r = cur_u64(&c, &pg.accesses)) <= 0
             || !cur_lit(&c, " "))
            return num_fail(p, r < 0 ? r : 0, form);
         if (cur_where(p, &c, &pg.w, form))
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
      if (f->dump_file) {
         pg.data = data;
         pg.addr = addr;
         pg.since = since;
         if (wsp_grow(&f->dump_pages, &cap->dump_pages, f->n_dump_pages,
                      sizeof *f->dump_pages))
            return fail(p, "out of memory");
         f->dump_pages[f->n_dump_pages++] = pg;
      }
      return 0;
   }
   if (cur_lit(&c, "dump-end ")) {
      if ((r = cur_u64(&c, &ni)) <= 0 || !cur_lit(&c, " ")
          || (r = cur_u64(&c, &nd)) <= 0 || !cur_end(&c))
         return num_fail(p, r < 0 ? r : 0, "expected 'dump-end N-INSN "
                         "N-DATA'");
      if (ni != b->n_insn || nd != b->n_data)
         return fail(p, "dump-end says %llu insn and %llu data pages, the "
                     "block has %llu and %llu", (unsigned long long)ni,
                     (unsigned long long)nd, (unsigned long long)b->n_insn,
                     (unsigned long long)b->n_data);
      b->dump.n_insn = ni;
      b->dump.n_data = nd;
      if (wsp_grow(&f->dumps, &cap->dumps, f->n_dumps, sizeof *f->dumps))
         return fail(p, "out of memory");
      f->dumps[f->n_dumps++] = b->dump;
      b->state = S_BODY;
      return 0;
   }
   return fail(p, "inside a dump block only 'dump-page' lines%s and "
               "'dump-end' may appear", f->version >= 3
               ? " (with 'dump-owner' after a data page)" : "");
}

/* One line of the body or the trailer. */
static int body_line(struct parser *p, struct body *b, struct caps *cap)
{
   const char *s = p->line;
   size_t len = p->len;
   int v3 = p->f->version >= 3;
   int v4 = p->f->version >= 4;

   b->prev_sample = b->after_sample;
   b->after_sample = 0;
   if (b->in_stack)
      return frame_line(p, b, cap);
   /* a stack block stands in the body, or before the owner line due,
      or (version 4) in the trailer before the heap-site or peak line
      that names it */
   if (v3 && word_is(s, len, "stack")
       && ((b->state == S_BODY && !b->dump_due) || b->due
           || (v4 && (b->state == S_REGIONS || b->state == S_HOT
                      || b->state == S_PAGES || b->state == S_HEAP
                      || b->state == S_PEAK_LIST))))
      return (v4 && close_peak(p, b)) || stack_begin_line(p, b, cap);
   if (v4 && word_is(s, len, "peak") && !b->due && !b->dump_due
       && (b->state == S_BODY || b->state == S_REGIONS
           || b->state == S_HOT || b->state == S_PAGES
           || b->state == S_HEAP || b->state == S_PEAK_LIST)) {
      b->state = S_PEAK_LIST;
      return close_peak(p, b) || peak_line(p, b, cap);
   }
   if (b->state == S_PEAK_LIST && word_is(s, len, "peak-region"))
      return peak_region_line(p, cap, b);
   if (b->state == S_PEAK_LIST && word_is(s, len, "owner"))
      return owner_line(p, b, cap);
   if (b->state == S_PEAK_LIST && word_is(s, len, "heap-window"))
      return heap_window_line(p, b, cap);
   if (v4 && word_is(s, len, "peaks") && !b->due
       && (b->state == S_BODY || b->state == S_REGIONS
           || b->state == S_HOT || b->state == S_PAGES
           || b->state == S_HEAP || b->state == S_PEAK_LIST)) {
      b->state = S_PEAKS;
      return close_peak(p, b) || peaks_found_line(p);
   }
   if (b->state == S_PEAK_LIST)
      return fail(p, "only peak, peak-region, owner and heap-window lines "
                  "and stack blocks, then 'peaks N found M', may follow a "
                  "peak line");
   if (b->state == S_DUMP)
      return dump_line(p, b, cap);
   if (b->due)
      return due_owner_line(p, b);
   if (b->state == S_END)
      return fail(p, "nothing may follow 'end'");
   if (b->dump_due && !word_is(s, len, "dump-begin"))
      return fail(p, "a 'dump label' event must be followed by its dump "
                  "block ('dump-begin T')");
   if (b->state == S_SAMPLES) {
      if (len == 3 && memcmp(s, "end", 3) == 0) {
         b->state = S_END;
         return 0;
      }
      return fail(p, "'samples N' must be followed by 'end'");
   }
   int trailer_end = v3 ? b->state == S_PEAKS || b->state == S_SUMMARY
                        : b->state != S_HOT;
   if (word_is(s, len, "summary") && trailer_end) {
      b->state = S_SUMMARY;
      return close_peak(p, b) || summary_line(p);
   }
   if (word_is(s, len, "samples") && trailer_end) {
      b->state = S_SAMPLES;
      return close_peak(p, b)
             || trailer_count_line(p, "samples", &p->f->trailer_samples,
                                   p->f->n_samples);
   }
   if (b->state == S_SUMMARY)
      return fail(p, "only summary lines or 'samples N' may follow a "
                  "summary line");
   if (b->state == S_PEAKS)
      return fail(p, "only summary lines or 'samples N' may follow "
                  "'peaks N'");
   if (v3 && word_is(s, len, "hot") && b->state != S_PAGES
       && b->state != S_HEAP) {
      b->state = S_HOT;
      return close_peak(p, b) || hot_line(p, b, cap);
   }
   if (v3 && word_is(s, len, "page") && b->state != S_HEAP) {
      b->state = S_PAGES;
      return close_peak(p, b) || page_line(p, b);
   }
   if (v4 && word_is(s, len, "heap-site")) {
      char why[200];
      b->state = S_HEAP;
      if (close_peak(p, b))
         return -1;
      if (wsp_heap_site_line(p->f, s, len, &cap->heap_sites, why,
                             sizeof why))
         return fail(p, "%s", why);
      return 0;
   }
   if (v3 && word_is(s, len, "peaks")) {
      b->state = S_PEAKS;
      return close_peak(p, b)
             || trailer_count_line(p, "peaks", &p->f->trailer_peaks,
                                   p->f->n_peaks);
   }
   if (b->state == S_HEAP)
      return fail(p, "only heap-site lines (and their stack blocks) and "
                  "'peaks N' may follow a heap-site line");
   if (b->state == S_PAGES)
      return fail(p, v4 ? "only page lines, heap-site lines and 'peaks N' "
                  "may follow a page line"
                  : "only page lines and 'peaks N' may follow a page line");
   if (b->state == S_HOT)
      return fail(p, "only hot lines, page lines and 'peaks N' may follow a "
                  "hot line");
   if (word_is(s, len, "region") && b->state != S_HOT) {
      b->state = S_REGIONS;
      return close_peak(p, b) || region_line(p, cap);
   }
   if (b->state == S_REGIONS)
      return fail(p, v3 ? "only region, hot, page and 'peaks N' lines may "
                          "follow a region line"
                        : "only region, summary and 'samples N' lines may "
                          "follow a region line");
   if (v3 && (word_is(s, len, "summary") || word_is(s, len, "samples")))
      return fail(p, "the trailer's 'peaks N' must come before its "
                  "summary and 'samples N' lines");
   /* S_BODY */
   if (len && is_digit(s[0]))
      return sample_line(p, b, cap);
   if (len && s[0] == '#') {
      p->f->n_comments++;
      return 0;
   }
   if (word_is(s, len, "event"))
      return event_line(p, b, cap);
   if (v3 && !v4 && word_is(s, len, "owner"))
      return owner_line(p, b, cap);
   if (word_is(s, len, "dump-begin"))
      return dump_begin_line(p, b);
   if (word_is(s, len, "dump-page") || word_is(s, len, "dump-end"))
      return fail(p, "a dump line outside a dump block");
   if (len == 3 && memcmp(s, "end", 3) == 0)
      return fail(p, "'end' before the trailer's 'samples N'");
   if (len == 0)
      return fail(p, "an empty line");
   return fail(p, "not a sample, event, comment or trailer line");
}

int wsp_check_start(const char *buf, size_t len, struct wsp_error *err)
{
   const char *nl = memchr(buf, '\n', len);
   struct wsp_file f;
   struct parser p;
   if (!nl && len < WSP_FIRST_LINE_MAX)
      return 1;
   memset(&f, 0, sizeof f);
   memset(err, 0, sizeof *err);
   p.f = &f;
   p.err = err;
   p.lineno = 1;
   p.line = buf;
   p.len = nl ? (size_t)(nl - buf) : len;
   return check_version(&p);
}

int read_lines(const char *buf, size_t len, const struct grammar *g,
               struct parser *p, struct body *b, struct caps *cap,
               int *in_header)
{
   struct wsp_file *f = p->f;
   size_t pos = 0;

   memset(f, 0, sizeof *f);
   memset(p->err, 0, sizeof *p->err);
   memset(cap, 0, sizeof *cap);
   memset(b, 0, sizeof *b);
   f->trailer_samples = f->trailer_peaks = f->trailer_found = WSP_NONE;
   f->dump_file = g->dump_file;
   p->lineno = 0;
   *in_header = 1;

   if (len == 0) {
      p->lineno = 1;
      return fail(p, "the file is empty");
   }
   while (pos < len) {
      const char *nl = memchr(buf + pos, '\n', len - pos);
      size_t end = nl ? (size_t)(nl - buf) : len;
      p->lineno++;
      p->line = buf + pos;
      p->len = end - pos;
      pos = end + 1;
      if (!nl) {
         int r = g->unterminated(p, b);
         if (r < 0)
            return -1;
         if (r == 0) {
            p->lineno--;
            break;
         }
      }
      f->n_lines = p->lineno;
      if (p->lineno == 1) {
         if (g->version(p))
            return -1;
         continue;
      }
      if (*in_header) {
         int r = add_header_line(p, cap);
         if (r < 0)
            return -1;
         if (r)
            continue;
         *in_header = 0;
         if (g->header(p))
            return -1;
      }
      if (g->line(p, b, cap))
         return -1;
   }
   return 0;
}

/* A last line without its newline: `end` may lack it (the grammar puts
   none after it); anything else may be half written, so it is left
   out. */
static int output_unterminated(struct parser *p, const struct body *b)
{
   if (b->state == S_SAMPLES && p->len == 3
       && memcmp(p->line, "end", 3) == 0)
      return 1;
   p->f->cut_line = 1;
   return 0;
}

static const struct grammar output_file = {
   check_version, check_header, body_line, output_unterminated, 0
};

int wsp_parse(const char *buf, size_t len, struct wsp_file *f,
              struct wsp_error *err)
{
   struct parser p = { .f = f, .err = err };
   struct caps cap;
   struct body b;
   int in_header;

   if (read_lines(buf, len, &output_file, &p, &b, &cap, &in_header))
      return -1;
   if (p.lineno == 0) {
      p.lineno = 1;
      return fail(&p, "the file has no complete line");
   }
   if (in_header) {
      /* The file ends in the header: a run killed at once, unless the
         header is all there. */
      int have_columns = 0;
      for (size_t i = 0; i < f->n_hdr; i++)
         have_columns |= str_is(f->hdr[i].key, "columns");
      p.lineno++;
      if (have_columns && check_header(&p))
         return -1;
   }
   f->complete = b.state == S_END;
   return 0;
}

void wsp_free(struct wsp_file *f)
{
   while (f->arena) {
      struct wsp_chunk *next = f->arena->next;
      free(f->arena);
      f->arena = next;
   }
   free(f->hdr);
   free(f->samples);
   free(f->thr);
   free(f->events);
   free(f->dumps);
   free(f->regions);
   free(f->stacks);
   free(f->frames);
   free(f->peaks);
   free(f->owners);
   free(f->region_labels);
   free(f->hot);
   free(f->heap_sites);
   free(f->heap_windows);
   free(f->stack_slot);
   free(f->dump_pages);
   memset(f, 0, sizeof *f);
}

/*--------------------------------------------------------------------*/
/*--- end                                               wsp_read.c ---*/
/*--------------------------------------------------------------------*/

/*--------------------------------------------------------------------*/
/*--- ws_print: the reader.                             wsp_read.c ---*/
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

/* Owns the reading of a whole file into the model: its lines in order,
   and which line may come where (the header, then the body's samples,
   events and dump blocks, then the trailer; a dump file's one block),
   for the grammar of docs/output-format.md, versions 4, 3 and 2, and
   of dump files.  Each record family has its reader (wsp_reader.h);
   the lexer has the words of a line.  The reader checks every line
   and fills in the model; it prints nothing and computes no figure
   (the model does, wsp_series.c).

   The reader is strict, like tests/wslib.py: anything the grammar does
   not allow is an error naming the line, so that a broken writer is
   noticed rather than drawn.  It is also safe on any input: it reads
   the buffer by length (NUL bytes are ordinary bytes), every number is
   checked for overflow, and every array grows by doubling with checked
   sizes.  print/fuzz_ws_print.c fuzzes it.

   An output file cut short by a killed run is not an error: a last
   line without its newline is left out (it may be half written) and
   the trailer may be missing or partial; every complete line must
   still follow the grammar.  wsp_file.complete tells the two apart.
   A dump file is written whole: a cut one is an error.

   Version 2 files (from an older ws) are read as that version's
   grammar: the same lines but the dump-page form "dump-page KIND
   0xADDR SINCE" and none of the lines version 3 added.  Version 3
   files have their peaks as events in the body; version 4 files list
   them in the trailer, mark final samples and add the heap-site and
   heap-window lines. */

#include <stdlib.h>
#include <string.h>

#include "wsp_reader.h"

/* One line of the body or the trailer. */
static int body_line(struct reader *r)
{
   struct lex *p = &r->p;
   struct body *b = &r->b;
   const char *s = p->line;
   size_t len = p->len;
   int v3 = p->f->version >= 3;
   int v4 = p->f->version >= 4;

   b->prev_sample = b->after_sample;
   b->after_sample = 0;
   if (b->in_stack)
      return frame_line(r);
   /* a stack block stands in the body, or before the owner line due,
      or (version 4) in the trailer before the heap-site or peak line
      that names it */
   if (v3 && word_is(s, len, "stack")
       && ((b->state == S_BODY && !b->dump_due) || b->due
           || (v4 && (b->state == S_REGIONS || b->state == S_HOT
                      || b->state == S_PAGES || b->state == S_HEAP
                      || b->state == S_PEAK_LIST))))
      return (v4 && close_peak(r)) || stack_begin_line(r);
   if (v4 && word_is(s, len, "peak") && !b->due && !b->dump_due
       && (b->state == S_BODY || b->state == S_REGIONS
           || b->state == S_HOT || b->state == S_PAGES
           || b->state == S_HEAP || b->state == S_PEAK_LIST)) {
      b->state = S_PEAK_LIST;
      return close_peak(r) || peak_line(r);
   }
   if (b->state == S_PEAK_LIST && word_is(s, len, "peak-region"))
      return peak_region_line(r);
   if (b->state == S_PEAK_LIST && word_is(s, len, "owner"))
      return owner_line(r);
   if (b->state == S_PEAK_LIST && word_is(s, len, "heap-window"))
      return heap_window_line(r);
   if (v4 && word_is(s, len, "peaks") && !b->due
       && (b->state == S_BODY || b->state == S_REGIONS
           || b->state == S_HOT || b->state == S_PAGES
           || b->state == S_HEAP || b->state == S_PEAK_LIST)) {
      b->state = S_PEAKS;
      return close_peak(r) || peaks_found_line(p);
   }
   if (b->state == S_PEAK_LIST)
      return fail(p, "only peak, peak-region, owner and heap-window lines "
                  "and stack blocks, then 'peaks N found M', may follow a "
                  "peak line");
   if (b->state == S_DUMP)
      return dump_line(r);
   if (b->due)
      return due_owner_line(r);
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
      return close_peak(r) || summary_line(p);
   }
   if (word_is(s, len, "samples") && trailer_end) {
      b->state = S_SAMPLES;
      return close_peak(r)
             || trailer_count_line(p, "samples", &p->f->trailer_samples,
                                   p->f->samples.n);
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
      return close_peak(r) || hot_line(r);
   }
   if (v3 && word_is(s, len, "page") && b->state != S_HEAP) {
      b->state = S_PAGES;
      return close_peak(r) || page_line(r);
   }
   if (v4 && word_is(s, len, "heap-site")) {
      b->state = S_HEAP;
      return close_peak(r) || heap_site_line(r);
   }
   if (v3 && word_is(s, len, "peaks")) {
      b->state = S_PEAKS;
      return close_peak(r)
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
      return close_peak(r) || region_line(r);
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
      return sample_line(r);
   if (len && s[0] == '#') {
      p->f->n_comments++;
      return 0;
   }
   if (word_is(s, len, "event"))
      return event_line(r);
   if (v3 && !v4 && word_is(s, len, "owner"))
      return owner_line(r);
   if (word_is(s, len, "dump-begin"))
      return dump_begin_line(r);
   if (word_is(s, len, "dump-page") || word_is(s, len, "dump-end"))
      return fail(p, "a dump line outside a dump block");
   if (len == 3 && memcmp(s, "end", 3) == 0)
      return fail(p, "'end' before the trailer's 'samples N'");
   if (len == 0)
      return fail(p, "an empty line");
   return fail(p, "not a sample, event, comment or trailer line");
}


/* A file's grammar, as read_lines() reads it: its first line, its
   header (checked once it has ended), its other lines, and what a last
   line without its newline is (1: read it; 0: left out, the file was
   cut; -1: an error).  dump_file: the file keeps its dump's pages. */
struct grammar {
   int (*version)(struct lex *p);
   int (*header)(struct lex *p);
   int (*line)(struct reader *r);
   int (*unterminated)(struct reader *r);
   int dump_file;
};

/* Read buf's lines into r->p.f (emptied first) by g; r->p.err and
   r->p.f set, the rest set up here.  0 (*in_header: the file ended in
   its header), or -1 with the error in r->p.err. */
static int read_lines(const char *buf, size_t len, const struct grammar *g,
                      struct reader *r, int *in_header)
{
   struct lex *p = &r->p;
   struct wsp_file *f = p->f;
   size_t pos = 0;

   memset(f, 0, sizeof *f);
   memset(p->err, 0, sizeof *p->err);
   memset(&r->cap, 0, sizeof r->cap);
   memset(&r->b, 0, sizeof r->b);
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
         int k = g->unterminated(r);
         if (k < 0)
            return -1;
         if (k == 0) {
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
         int k = add_header_line(p, &r->cap);
         if (k < 0)
            return -1;
         if (k)
            continue;
         *in_header = 0;
         if (g->header(p))
            return -1;
      }
      if (g->line(r))
         return -1;
   }
   return 0;
}

/*------------------------------------------------------------*/
/*--- Output files                                         ---*/
/*------------------------------------------------------------*/

/* A last line without its newline: `end` may lack it (the grammar puts
   none after it); anything else may be half written, so it is left
   out. */
static int output_unterminated(struct reader *r)
{
   if (r->b.state == S_SAMPLES && r->p.len == 3
       && memcmp(r->p.line, "end", 3) == 0)
      return 1;
   r->p.f->cut_line = 1;
   return 0;
}

static const struct grammar output_file = {
   check_version, check_header, body_line, output_unterminated, 0
};

int wsp_read_output(const char *buf, size_t len, struct wsp_file *f,
                    struct wsp_error *err)
{
   struct reader r = { .p = { .f = f, .err = err } };
   int in_header, k;

   k = read_lines(buf, len, &output_file, &r, &in_header);
   free(r.b.thr);
   if (k)
      return -1;
   if (r.p.lineno == 0) {
      r.p.lineno = 1;
      return fail(&r.p, "the file has no complete line");
   }
   if (in_header) {
      /* The file ends in the header: a run killed at once, unless the
         header is all there. */
      int have_columns = 0;
      for (size_t i = 0; i < f->n_hdr; i++)
         have_columns |= wsp_str_is(f->hdr[i].key, "columns");
      r.p.lineno++;
      if (have_columns && check_header(&r.p))
         return -1;
   }
   f->complete = r.b.state == S_END;
   return 0;
}

int wsp_check_start(const char *buf, size_t len, struct wsp_error *err)
{
   const char *nl = memchr(buf, '\n', len);
   struct wsp_file f;
   struct lex p;
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

/*------------------------------------------------------------*/
/*--- Dump files                                           ---*/
/*------------------------------------------------------------*/

int wsp_dump_check_start(const char *buf, size_t len)
{
   static const char key[] = "ws-dump-format:";
   size_t n = len < sizeof key - 1 ? len : sizeof key - 1;
   if (memcmp(buf, key, n) != 0)
      return -1;
   return n < sizeof key - 1 ? 1 : 0;
}

/* One line after the header: the dump block, its pages' stack blocks
   and owner lines, and nothing after its dump-end. */
static int block_line(struct reader *r)
{
   struct lex *p = &r->p;
   if (p->f->n_dumps)
      return fail(p, "nothing may follow the dump block's 'dump-end'");
   if (r->b.in_stack)
      return frame_line(r);
   if (r->b.state != S_DUMP) {
      if (!word_is(p->line, p->len, "dump-begin"))
         return fail(p, "after the header, a dump file has its dump block "
                     "('dump-begin T')");
      return dump_begin_line(r);
   }
   if (r->b.due && word_is(p->line, p->len, "stack"))
      return stack_begin_line(r);
   return dump_line(r);
}

/* ws writes a dump file whole: a last line without its newline is a
   file cut short. */
static int dump_unterminated(struct reader *r)
{
   return fail(&r->p, "the last line has no newline: the dump file was "
               "cut short");
}

static const struct grammar dump_file = {
   check_dump_version, check_dump_header, block_line, dump_unterminated, 1
};

int wsp_read_dump(const char *buf, size_t len, struct wsp_file *f,
                  struct wsp_error *err)
{
   struct reader r = { .p = { .f = f, .err = err } };
   int in_header;

   if (read_lines(buf, len, &dump_file, &r, &in_header))
      return -1;
   r.p.lineno++;
   if (!f->n_dumps)
      return fail(&r.p, in_header || r.b.state != S_DUMP
                  ? "the dump file has no dump block ('dump-begin T')"
                  : "the dump file ends inside its dump block (no "
                    "'dump-end')");
   f->complete = 1;
   return 0;
}

/*--------------------------------------------------------------------*/
/*--- end                                               wsp_read.c ---*/
/*--------------------------------------------------------------------*/

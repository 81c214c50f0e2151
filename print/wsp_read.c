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

#include <stdio.h>
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
   /* most lines are samples: what the rest of this function would find */
   if (b->state == S_BODY && !b->due && !b->dump_due && len
       && is_digit(s[0]))
      return sample_line(r);
   /* a stack block stands in the body, or before the owner line due,
      or (version 4) in the trailer before the heap-site or peak line
      that names it */
   if (v3 && word_is(s, len, "stack")
       && ((b->state == S_BODY && !b->dump_due) || b->due
           || (v4 && (b->state == S_REGIONS || b->state == S_HOT
                      || b->state == S_PAGES || b->state == S_HEAP
                      || b->state == S_ROUTINES || b->state == S_MISSES
                      || b->state == S_CURVES
                      || b->state == S_PEAK_LIST))))
      return (v4 && close_peak(r)) || stack_begin_line(r);
   if (v4 && word_is(s, len, "peak") && !b->due && !b->dump_due
       && (b->state == S_BODY || b->state == S_REGIONS
           || b->state == S_HOT || b->state == S_PAGES
           || b->state == S_HEAP || b->state == S_ROUTINES
           || b->state == S_MISSES || b->state == S_CURVES
           || b->state == S_PEAK_LIST)) {
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
           || b->state == S_HEAP || b->state == S_ROUTINES
           || b->state == S_MISSES || b->state == S_CURVES
           || b->state == S_PEAK_LIST)) {
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
   if (v4 && word_is(s, len, "miss-stack") && b->state != S_PEAKS
       && b->state != S_CURVES) {
      b->state = S_MISSES;
      return close_peak(r) || miss_stack_line(r);
   }
   if (v4 && (word_is(s, len, "curve") || word_is(s, len, "mrc"))
       && (b->state == S_BODY || b->state == S_REGIONS || b->state == S_HOT
           || b->state == S_PAGES || b->state == S_HEAP
           || b->state == S_ROUTINES || b->state == S_MISSES
           || b->state == S_CURVES)) {
      b->state = S_CURVES;
      return close_peak(r) || curve_line(r);
   }
   if (b->state == S_MISSES)
      return fail(p, "only miss-stack lines (and their stack blocks), then "
                  "curve lines, peak lines or 'peaks N', may follow a "
                  "miss-stack line");
   if (b->state == S_CURVES)
      return fail(p, "only curve and mrc lines, then peak lines or "
                  "'peaks N', may follow a curve line");
   if (v4 && word_is(s, len, "routine") && b->state != S_PEAKS) {
      b->state = S_ROUTINES;
      return close_peak(r) || routine_line(r);
   }
   if (b->state == S_ROUTINES && word_is(s, len, "routine-size"))
      return routine_size_line(r);
   if (b->state == S_ROUTINES)
      return fail(p, "only routine and routine-size lines (and their stack "
                  "blocks), then miss-stack lines, curve lines, peak lines "
                  "or 'peaks N', may follow a routine line");
   if (b->state == S_HEAP && word_is(s, len, "heap-scores"))
      return heap_scores_line(r);
   if (b->state == S_HEAP && word_is(s, len, "heap-chunk")
       && p->f->version >= 6)
      return heap_chunk_line(r);
   if (b->state == S_HEAP)
      return fail(p, "only heap-site lines (and their stack blocks), "
                  "%sa heap-scores line and 'peaks N' may follow a "
                  "heap-site line", p->f->version >= 6 ? "their heap-chunk "
                  "lines, " : "");
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

/* Read the lines of r->ag's input into r->p.f (emptied first) by g.
   0 (*in_header: the file ended in its header), -1 with the error of
   a line in r->p.err, -2 with the input's error. */
static int read_lines(struct reader *r, const struct grammar *g,
                      int *in_header)
{
   struct lex *p = &r->p;
   struct wsp_file *f = p->f;

   f->trailer_samples = f->trailer_peaks = f->trailer_found = WSP_NONE;
   f->dump_file = g->dump_file;
   p->lineno = 0;
   *in_header = 1;

   for (;;) {
      struct wsp_str line;
      int newline, k = wsp_input_line(&r->ag->in, &line, &newline, p->err);
      if (k < 0)
         return -2;
      if (k == 0)
         break;
      p->lineno++;
      p->line = line.s;
      p->len = line.len;
      if (!newline) {
         k = g->unterminated(r);
         if (k < 0)
            return -1;
         if (k == 0) {
            p->lineno--;
            break;
         }
      }
      if (p->lineno == 1) {
         if (g->version(p))
            return -1;
      } else if (*in_header && (k = add_header_line(p, &r->cap)) != 0) {
         if (k < 0)
            return -1;
      } else {
         if (*in_header) {
            *in_header = 0;
            if (g->header(p))
               return -1;
         }
         if (g->line(r))
            return -1;
      }
      r->ag->lines = p->lineno;
   }
   if (p->lineno == 0 && !f->cut_line) {
      p->lineno = 1;
      return fail(p, "the file is empty");
   }
   return 0;
}

/*------------------------------------------------------------*/
/*--- Reading the samples again                            ---*/
/*------------------------------------------------------------*/

static int changed(struct wsp_again *a)
{
   memset(&a->err, 0, sizeof a->err);
   snprintf(a->err.msg, sizeof a->err.msg, "the file changed while "
            "ws_print read it");
   return -1;
}

/* `event T final [W]`: the sample before is final. */
static int final_event(struct wsp_str line)
{
   struct cur c = { line.s, line.len, 0 };
   uint64_t t, window;
   return cur_lit(&c, "event ") && cur_u64(&c, &t) > 0
          && cur_lit(&c, " final")
          && (cur_end(&c) || (cur_lit(&c, " ") && cur_u64(&c, &window) > 0
                              && cur_end(&c)));
}

/* The samples of the lines the first reading accepted, each given to
   fn once the line after it has said whether it is final. */
static int samples_again(struct wsp_again *a, wsp_sample_fn *fn, void *arg)
{
   struct again *ag = (struct again *)a;
   struct wsp_file *f = ag->f;
   struct lex p = { .f = f, .err = &a->err };
   struct wsp_sample held;
   size_t n = 0;
   int have = 0, k;

   memset(&held, 0, sizeof held);
   if (wsp_input_again(&ag->in, &a->err))
      return -1;
   for (p.lineno = 1; p.lineno <= ag->lines; p.lineno++) {
      struct wsp_str line;
      int newline;
      if ((k = wsp_input_line(&ag->in, &line, &newline, &a->err)) <= 0)
         return k < 0 ? -1 : changed(a);
      if (p.lineno == 1 || !line.len)
         continue;
      if (!is_digit(line.s[0])) {
         held.final |= have && final_event(line);
         continue;
      }
      if (have && (k = fn(arg, n++, &held, held.thr_count ? ag->thr : NULL)))
         return k;
      p.line = line.s;
      p.len = line.len;
      if (sample_values(&p, &f->columns, &held, &ag->thr, &ag->cap_thr))
         return changed(a);
      have = 1;
   }
   if (have && (k = fn(arg, n++, &held, held.thr_count ? ag->thr : NULL)))
      return k;
   return n == f->samples.n ? 0 : changed(a);
}

static void release(struct wsp_again *a)
{
   struct again *ag = (struct again *)a;
   wsp_input_close(&ag->in);
   free(ag->thr);
   free(ag);
}

/* Read ag's input into f (emptied; it owns ag from here) by g, then
   what comes before any line's error, as a reader that read the whole
   file before its lines would have it: what the rest of the input's
   bytes are refused for, then the peak lines whose samples were let
   go.  0, or -1; r is left as the reading left it. */
static int read_file(struct reader *r, const struct grammar *g,
                     struct again *ag, struct wsp_file *f,
                     struct wsp_error *err, int *in_header)
{
   memset(f, 0, sizeof *f);
   memset(err, 0, sizeof *err);
   memset(r, 0, sizeof *r);
   r->p.f = f;
   r->p.err = err;
   r->ag = ag;
   ag->a.samples = samples_again;
   ag->a.release = release;
   ag->f = f;
   f->samples.again = &ag->a;
   f->keep_pages = ag->keep_pages;

   int k = read_lines(r, g, in_header);
   if (k == -2 || wsp_input_rest(&ag->in, err)
       || (r->n_checks && check_peaks(r)))
      k = -1;
   free(r->b.thr);
   free(r->checks);
   return k;
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

static int read_output(struct again *ag, struct wsp_file *f,
                       struct wsp_error *err)
{
   struct reader r;
   int in_header;

   if (read_file(&r, &output_file, ag, f, err, &in_header))
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

/* Whether the first len bytes can begin an output file: 0, -1 (err
   says why, as reading the file would), 1 more are needed to tell. */
static int output_start(const char *buf, size_t len, struct wsp_error *err)
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

/* Whether the first len bytes begin a dump file (of any version: its
   reading names the one it reads): 0, -1 not, 1 more are needed. */
static int dump_start(const char *buf, size_t len)
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

static int read_dump(struct again *ag, struct wsp_file *f,
                     struct wsp_error *err)
{
   struct reader r;
   int in_header;

   if (read_file(&r, &dump_file, ag, f, err, &in_header))
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

/*------------------------------------------------------------*/
/*--- The reader's doors                                   ---*/
/*------------------------------------------------------------*/

/* The first bytes of a file: a dump file, an output file, or neither
   (wsp_first_fn). */
static int first_bytes(void *ctx, const char *buf, size_t n,
                       struct wsp_error *err)
{
   struct again *ag = ctx;
   int start = dump_start(buf, n);
   ag->dump = start == 0;
   return start < 0 ? output_start(buf, n, err) : start;
}

int wsp_is_ws_start(const char *buf, size_t len)
{
   struct wsp_error err;
   return output_start(buf, len, &err) == 0 || dump_start(buf, len) == 0;
}

static struct again *new_again(struct wsp_file *f, struct wsp_error *err)
{
   struct again *ag = calloc(1, sizeof *ag);
   memset(f, 0, sizeof *f);
   memset(err, 0, sizeof *err);
   if (!ag)
      snprintf(err->msg, sizeof err->msg, "out of memory");
   return ag;
}

int wsp_read_fd(int fd, uint64_t max, unsigned flags, struct wsp_file *f,
                struct wsp_error *err)
{
   struct again *ag = new_again(f, err);
   if (!ag)
      return -1;
   ag->keep_pages = (flags & WSP_READ_PAGES) != 0;
   wsp_input_fd(&ag->in, fd, max, first_bytes, ag);
   if (wsp_input_start(&ag->in, err)) {
      release(&ag->a);
      return -1;
   }
   return ag->dump ? read_dump(ag, f, err) : read_output(ag, f, err);
}

/* Bytes in memory, read by read (read_output or read_dump). */
static int read_mem(const char *buf, size_t len, struct wsp_file *f,
                    struct wsp_error *err,
                    int (*read)(struct again *ag, struct wsp_file *f,
                                struct wsp_error *err))
{
   struct again *ag = new_again(f, err);
   if (!ag)
      return -1;
   wsp_input_mem(&ag->in, buf, len);
   return read(ag, f, err);
}

int wsp_read_output(const char *buf, size_t len, struct wsp_file *f,
                    struct wsp_error *err)
{
   return read_mem(buf, len, f, err, read_output);
}

int wsp_read_dump(const char *buf, size_t len, struct wsp_file *f,
                  struct wsp_error *err)
{
   return read_mem(buf, len, f, err, read_dump);
}

/*--------------------------------------------------------------------*/
/*--- end                                               wsp_read.c ---*/
/*--------------------------------------------------------------------*/

/*--------------------------------------------------------------------*/
/*--- ws_print: the renderers.                        wsp_render.h ---*/
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

/* The third stage of ws_print: writing the model (wsp_model.h) out.
   Each renderer reads only the model and writes to a stream; none
   fails on a model the reader filled but for the stream itself (the
   caller checks ferror).  The text report is wsp_text.c (header,
   summaries, events), wsp_text_chart.c (the charts), wsp_text_peaks.c (largest samples, peaks,
   owners, hot pages) and wsp_text_heap.c (heap efficiency); then
   wsp_csv.c, wsp_html.c, wsp_folded.c, and wsp_dump_view.c for dump
   files; wsp_fmt.c has what they share. */

#ifndef WSP_RENDER_H
#define WSP_RENDER_H

#include <stdio.h>

#include "wsp_model.h"

struct wsp_text_opts {
   int width;                 /* characters per line, chart included */
   int height;                /* rows of each chart's plot area */
   const char *name;          /* the file's name, for the header */
};

/* An output file: the text report with its charts, the samples as CSV,
   the self-contained HTML report, the allocation sites' folded stacks
   sized by key. */
void wsp_text(FILE *out, const struct wsp_file *f,
              const struct wsp_text_opts *o);
void wsp_csv(FILE *out, const struct wsp_file *f);
void wsp_html(FILE *out, const struct wsp_file *f, const char *name);
/* The heap sites as a gzip-compressed pprof profile (wsp_pprof.c): 0,
   or -1 when memory ran out or writing failed. */
int wsp_pprof(FILE *out, const struct wsp_file *f);
/* The run as Chrome trace-event JSON (wsp_trace.c). */
void wsp_trace(FILE *out, const struct wsp_file *f);
/* The whole file as JSON (docs/json-schema.md); f read with
   WSP_READ_PAGES. */
void wsp_json(FILE *out, const struct wsp_file *f);
/* wsp_folded returns the number of lines written (0: nothing to show);
   by_line names frames "fn (file:line)", else by function. */
size_t wsp_folded(FILE *out, const struct wsp_file *f, enum wsp_heap_key key,
                  int by_line);

/* Two runs (wsp_diff.c): why they cannot be compared (a reason in why,
   1) or 0; run B against run A, worst changes first; with fail_above
   >= 0, whether a peak or a heap site's bytes grew by more than that
   percentage (1) or not (0). */
int wsp_diff_refusal(const struct wsp_file *a, const struct wsp_file *b,
                     char *why, size_t n);
int wsp_diff(FILE *out, const struct wsp_file *a, const char *name_a,
             const struct wsp_file *b, const char *name_b,
             double fail_above);

/* A dump file: its text view, its pages as CSV. */
void wsp_dump_text(FILE *out, const struct wsp_file *f,
                   const struct wsp_text_opts *o);
void wsp_dump_csv(FILE *out, const struct wsp_file *f);

/* Parts of the text report: the charts and their legend
   (wsp_text_chart.c); the largest samples, to jump to (after the
   header); the peaks with their stacks and owners, and the hot pages
   (after the summaries) (wsp_text_peaks.c); heap efficiency
   (wsp_text_heap.c). */
void wsp_text_charts(FILE *out, const struct wsp_file *f,
                     const struct wsp_text_opts *o);
void wsp_text_largest(FILE *out, const struct wsp_file *f, int width);
void wsp_text_peaks(FILE *out, const struct wsp_file *f, int width);
void wsp_text_hot(FILE *out, const struct wsp_file *f, int width);
void wsp_text_heap(FILE *out, const struct wsp_file *f, int width);
/* The routines ranked by how their cost grows with their input, and
   the first ones' cost against input (wsp_text_routines.c). */
void wsp_text_routines(FILE *out, const struct wsp_file *f, int width);
/* How every view judges a routine (wsp_routines.c): the costliest
   routine's cost; whether a routine is called out (and over how many
   input sizes), flagged as growing faster than its input; its name. */
uint64_t wsp_routine_most_cost(const struct wsp_file *f);
int wsp_routine_called_out(const struct wsp_file *f,
                           const struct wsp_routine *r, size_t *sizes);
int wsp_routine_flagged(const struct wsp_file *f,
                        const struct wsp_routine *r);
struct wsp_str wsp_routine_name(const struct wsp_file *f,
                                const struct wsp_routine *r);

/* The locality curves (wsp_curves.c): the curve whose first curve
   line is point |i| (its tau points, then its mrc points; returns the
   index after them), its knees (at most WSP_MAX_KNEES, in order of
   tau: point indices within the curve, from -> to) and a knee in
   words; and their section of the text report (wsp_text_curves.c). */
struct wsp_curve { size_t first, n, mrc_first, n_mrc; };
struct wsp_knee { size_t from, to; };
#define WSP_MAX_KNEES 3
size_t wsp_curve_at(const struct wsp_file *f, size_t i, struct wsp_curve *c);
size_t wsp_curve_knees(const struct wsp_file *f, const struct wsp_curve *c,
                       struct wsp_knee *out);
void wsp_knee_text(char *buf, size_t n, const struct wsp_file *f,
                   const struct wsp_curve *c, const struct wsp_knee *k);
void wsp_text_curves(FILE *out, const struct wsp_file *f, int width);

/*------------------------------------------------------------*/
/*--- Shared by the renderers (wsp_fmt.c)                  ---*/
/*------------------------------------------------------------*/

void wsp_put_escaped(FILE *out, struct wsp_str s);  /* control bytes as \xNN */
void wsp_rule(FILE *out, int width);
void wsp_fmt_time(char *buf, size_t n, uint64_t t, int ms);
void wsp_fmt_avg(char *buf, size_t n, uint64_t avg10);
/* 1234567 as "1,234,567" in |buf|, which it returns. */
const char *wsp_commas(char *buf, size_t n, uint64_t v);
void wsp_fmt_kb(char *buf, size_t n, double pages, uint64_t pagesize);
const char *wsp_event_name(enum wsp_event_kind k);

/* A line of the text report being built, cut to the report's width
   when printed: function names, symbols and paths have no length
   limit. */
struct wsp_line {
   char   b[1200];                   /* more than the widest report */
   size_t n;
};
void wsp_lput(struct wsp_line *l, const char *s, size_t n);
__attribute__((format(printf, 2, 3)))
void wsp_lprintf(struct wsp_line *l, const char *fmt, ...);
void wsp_lstr(struct wsp_line *l, struct wsp_str s);
void wsp_lflush(FILE *out, struct wsp_line *l, int width);
/* Prose that fits the width: each line of the formatted text (it ends
   with a newline) broken at spaces, the lines after the first of each
   indented by indent; a word wider than a line is cut. */
__attribute__((format(printf, 4, 5)))
void wsp_wrap(FILE *out, int width, int indent, const char *fmt, ...);
/* Whether a frame's object goes without saying: "(obj)" for code that
   ws named "obj+0x<offset>" for want of a symbol. */
int wsp_fn_is_object_offset(const struct wsp_where *w);
/* "fn (file:line)": a C++ name shortened to fit (see wsp_fmt.c). */
void wsp_lwhere(struct wsp_line *l, const struct wsp_where *w, int width,
                size_t after);

/* What lives in a page, in words (a heap block by where it was
   allocated) (wsp_text_peaks.c). */
void wsp_lowner(struct wsp_line *l, const struct wsp_file *f,
                const struct wsp_owner *o, int width);
/* Every line of stack |stack|, "at"/"by" as Valgrind shows them, each
   after |indent|; the line |own| (-1: none) marked "->". */
void wsp_put_stack(FILE *out, const struct wsp_file *f, size_t stack,
                   long own, const char *indent, int width);

/* JSON values (wsp_json_fmt.c), shared by --html and --json: strings
   as UTF-8 JSON safe in a <script> element; apt as [avg,peak,total];
   addresses as "0x..."; a where as "ip","loc","fn" members; an owner
   as an object whose heap and freed stacks are indexes in f->stacks,
   or with ids the file's stack ids. */
void wsp_json_str(FILE *out, struct wsp_str s);
void wsp_json_cstr(FILE *out, const char *s);
void wsp_json_u64(FILE *out, uint64_t v);
void wsp_json_apt(FILE *out, const struct wsp_apt *a);
void wsp_json_hex(FILE *out, uint64_t v);
void wsp_json_event(FILE *out, const struct wsp_event *e);
/* The regions' table as an array of {label, regions, samples, insn,
   data}, and insn_lines, data_lines when the file has lines. */
void wsp_json_regions(FILE *out, const struct wsp_file *f);
/* The summary's line members, after its page members: ,"insn_lines",
   "data_lines" and "density" when the file has them, else nothing. */
void wsp_json_summary_lines(FILE *out, const struct wsp_file *f);
/* The curves: [{scope, kind, unit, points, lru, knees}] (wsp_curves.c's
   knees). */
void wsp_json_curves(FILE *out, const struct wsp_file *f);
void wsp_json_where(FILE *out, const struct wsp_where *w);
void wsp_json_owner(FILE *out, const struct wsp_owner *o,
                    const struct wsp_file *ids);

/* The HTML template (print/report.html, made into C by the build). */
extern const char wsp_report_html[];

#endif

/*--------------------------------------------------------------------*/
/*--- end                                             wsp_render.h ---*/
/*--------------------------------------------------------------------*/

/*--------------------------------------------------------------------*/
/*--- ws_print: what the parser gives the printers.          wsp.h ---*/
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

/* ws_print reads one ws output file (docs/output-format.md, version 2)
   with wsp_parse() into a struct wsp_file, then one printer writes it:
   wsp_text() the report with text charts, wsp_csv() the samples as CSV,
   wsp_html() the self-contained HTML report.  The parser checks the
   grammar and computes nothing; the printers compute only what they
   show (column maxima, scales) and never fail on a parsed file.

   Strings in a struct wsp_file (header values, labels) point into the
   caller's buffer and are not NUL-terminated: each has a length. */

#ifndef WSP_H
#define WSP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define WSP_FORMAT_VERSION 2
#define WSP_NONE UINT64_MAX          /* "no value" for optional numbers */

struct wsp_str {
   const char *s;
   size_t      len;
};

/* One sample line.  With per-thread columns, shared is set and the
   sample's threads are thr[first .. first+count-1] of the file. */
struct wsp_sample {
   uint64_t t, insn, data;
   uint64_t shared;                  /* WSP_NONE without per-thread columns */
   size_t   thr_first;
   uint32_t thr_count;
};

struct wsp_thread_ws {
   uint64_t tid, insn, data;
};

enum wsp_event_kind {
   WSP_EV_THREAD_START,              /* num = tid */
   WSP_EV_THREAD_EXIT,               /* num = tid */
   WSP_EV_START,
   WSP_EV_STOP,
   WSP_EV_SET,                       /* text = parameter, num = value */
   WSP_EV_MARK,                      /* text = label */
   WSP_EV_DUMP_LABEL,                /* text = label, a dump block follows */
   WSP_EV_DUMP_FILE,                 /* text = path of the dump file */
   WSP_EV_DUMP_MONITOR,
   WSP_EV_OTHER                      /* a kind this reader does not know:
                                        text = kind and arguments */
};

struct wsp_event {
   uint64_t            t;
   enum wsp_event_kind kind;
   struct wsp_str      text;
   uint64_t            num;
   size_t              line;
};

/* One dump block (its pages are checked but not kept). */
struct wsp_dump {
   uint64_t       t;
   struct wsp_str label;
   uint64_t       n_insn, n_data;
   size_t         line;
};

/* avg/peak/total of one kind; avg in tenths of a page, as written. */
struct wsp_apt {
   uint64_t avg10, peak, total;
};

struct wsp_region {
   struct wsp_str label;
   uint64_t       regions, samples;
   struct wsp_apt insn, data;
};

struct wsp_header_kv {
   struct wsp_str key, value;
};

struct wsp_file {
   /* header: every key in file order, and the ones the printers use */
   struct wsp_header_kv *hdr;
   size_t                n_hdr;
   int                   have_header;    /* all required keys were read */
   struct wsp_str        tool, command;
   uint64_t              pid, ppid, every, tau, pagesize;
   int                   ms;             /* time-unit: ms (else i) */
   int                   syscalls, per_thread, instr_atstart;

   struct wsp_sample    *samples;
   size_t                n_samples;
   struct wsp_thread_ws *thr;
   size_t                n_thr;
   struct wsp_event     *events;
   size_t                n_events;
   struct wsp_dump      *dumps;
   size_t                n_dumps;
   size_t                n_comments;

   /* trailer */
   struct wsp_region    *regions;
   size_t                n_regions;
   int                   have_insn_summary, have_data_summary;
   struct wsp_apt        insn_summary, data_summary;
   uint64_t              trailer_samples; /* WSP_NONE if not read */
   int                   complete;        /* ended with `end` */
   int                   cut_line;        /* last line had no newline and
                                             was left out */
   size_t                n_lines;         /* lines read */
};

/* What is wrong and where (line 0: the file as a whole). */
struct wsp_error {
   size_t line;
   char   msg[256];
};

/* Parse len bytes of buf (which must outlive f).  Returns 0, or -1 with
   err filled in.  A file cut short (no trailer, a last line without its
   newline) parses, with f->complete == 0.  wsp_free() releases what a
   parse allocated, whatever it returned. */
int  wsp_parse(const char *buf, size_t len, struct wsp_file *f,
               struct wsp_error *err);
void wsp_free(struct wsp_file *f);

/* Printers: each writes to out and returns nothing that can fail but
   the stream itself (the caller checks ferror). */
struct wsp_text_opts {
   int width;                 /* characters per line, chart included */
   int height;                /* rows of each chart's plot area */
   const char *name;          /* the file's name, for the header */
};
void wsp_text(FILE *out, const struct wsp_file *f,
              const struct wsp_text_opts *o);
void wsp_csv(FILE *out, const struct wsp_file *f);
void wsp_html(FILE *out, const struct wsp_file *f, const char *name);

/* Shared by the printers (wsp_util.c). */
void wsp_put_escaped(FILE *out, struct wsp_str s);  /* control bytes as \xNN */
void wsp_fmt_time(char *buf, size_t n, uint64_t t, int ms);
void wsp_fmt_avg(char *buf, size_t n, uint64_t avg10);
void wsp_fmt_kb(char *buf, size_t n, double pages, uint64_t pagesize);
const char *wsp_event_name(enum wsp_event_kind k);

/* The HTML template (print/report.html, made into C by the build). */
extern const char wsp_report_html[];

#endif

/*--------------------------------------------------------------------*/
/*--- end                                                    wsp.h ---*/
/*--------------------------------------------------------------------*/

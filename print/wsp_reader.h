/*--------------------------------------------------------------------*/
/*--- ws_print: the parser's shared state.          wsp_reader.h ---*/
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

/* Private to the parser's files (wsp_parse.c, wsp_lex.c, wsp_header.c,
   wsp_stacks.c, wsp_trailer.c): the state of one read, where the body
   is, and each file's functions that the others call.  The printers
   see only wsp.h. */

#ifndef WSP_READER_H
#define WSP_READER_H

#include "wsp_model.h"

/* The parser's state while it reads one file. */
struct parser {
   struct wsp_file  *f;
   struct wsp_error *err;
   size_t            lineno;     /* of the line being read */
   const char       *line;       /* its bytes, without the newline */
   size_t            len;
};

/* A cursor over the current line, for the fixed forms. */
struct cur {
   const char *s;
   size_t      len, pos;
};

/* Version 4 escapes every string (docs/output-format.md, "Escaping"):
   a backslash starts "\\" (a backslash) or "\xHH" (the byte HH).
   decode() replaces *s, whose raw text was checked against its line's
   grammar, by what it stands for, in memory the file keeps. */
struct wsp_chunk {
   struct wsp_chunk *next;
   char              bytes[];
};

/* Capacities of the growing arrays. */
struct caps {
   size_t hdr, samples, thr, events, dumps, regions;
   size_t stacks, frames, peaks, owners, hot, region_labels;
   size_t heap_sites, heap_windows, dump_pages;
};

/* Where the body is: samples and events, a dump block, the trailer
   (region lines, hot lines, page lines and `peaks N` in version 3,
   heap-site lines in version 4, summary lines, `samples N`, `end`). */
enum state { S_BODY, S_DUMP, S_REGIONS, S_HOT, S_PAGES, S_HEAP, S_PEAK_LIST,
             S_PEAKS, S_SUMMARY, S_SAMPLES, S_END };

/* The line that must come next in version 3 (besides stack blocks). */
enum due { DUE_NONE, DUE_DUMP_OWNER, DUE_HOT_OWNER };

struct body {
   enum state state;
   uint64_t   last_t;           /* of the latest sample, event or dump */
   int        any_t;            /* last_t is set */
   uint64_t   last_sample_t;
   int        any_sample;
   int        dump_due;         /* the line before was `event T dump label` */
   /* the dump block being read */
   struct wsp_dump dump;
   int        after_sample;     /* this line is a sample */
   int        prev_sample;      /* the line before was a sample */
   uint64_t   max_col[2];       /* the largest insn and data sample */
   int        have_max;
   uint64_t   n_insn, n_data;
   uint64_t   last_addr;
   int        any_addr, in_data;
   /* version 3 */
   enum due   due;
   size_t     lines_due;        /* lines still due in a stack block */
   int        in_stack;
   int        peak_open;        /* owner lines of open_peak may follow */
   size_t     open_peak;        /* the peak of the latest peak event */
   size_t     latest[2];        /* of each kind (insn, data): index + 1 */
   int        at_sample;        /* only peaks (and theirs) since a sample */
   uint64_t   last_insn, last_data;        /* of the latest sample */
   uint64_t   hot_rank[2];      /* of the latest hot line of each kind */
   uint64_t   hot_acc[2], hot_addr[2];
   uint64_t   page_addr[2];     /* of the latest page line of each kind */
   int        exec_seen;        /* version 4: the program exec'd */
   size_t     windows_first;    /* version 4: the open peak's heap-window
                                   lines */
};

static inline int is_digit(char c) { return c >= '0' && c <= '9'; }
static inline int is_lower(char c) { return c >= 'a' && c <= 'z'; }

static inline int cur_end(const struct cur *c) { return c->pos == c->len; }

/* wsp_lex.c */
__attribute__((format(printf, 2, 3)))
int fail(struct parser *p, const char *fmt, ...);
int word_is(const char *s, size_t len, const char *w);
int str_is(struct wsp_str s, const char *w);
int cur_u64(struct cur *c, uint64_t *v);
int cur_hex(struct cur *c, uint64_t *v);
int cur_avg(struct cur *c, uint64_t *tenths);
int cur_lit(struct cur *c, const char *lit);
int cur_kind(struct cur *c);
struct wsp_str cur_rest(const struct cur *c);
const char *text_problem(struct wsp_str l, const char *what,
                         char *buf, size_t n);
int decode(struct parser *p, struct wsp_str *s);
int label_text(struct parser *p, struct wsp_str *l, const char *what);
int num_fail(struct parser *p, int r, const char *what);

/* wsp_header.c */
int check_version(struct parser *p);
int add_header_line(struct parser *p, struct caps *cap);
int check_header(struct parser *p);
int check_dump_version(struct parser *p);
int check_dump_header(struct parser *p);

/* wsp_stacks.c */
int stack_ref(struct parser *p, uint64_t id, size_t *idx);
int cur_where(struct parser *p, struct cur *c, struct wsp_where *w,
              const char *form);
int stack_begin_line(struct parser *p, struct body *b,
                     struct caps *cap);
int frame_line(struct parser *p, struct body *b, struct caps *cap);
int cur_owner(struct parser *p, struct cur *c,
              struct wsp_owner *o, int rest_ok, int block_ok);
int due_owner_line(struct parser *p, struct body *b);

/* wsp_trailer.c */
int close_peak(struct parser *p, struct body *b);
int peak_event(struct parser *p, struct body *b, struct caps *cap,
               struct wsp_event *e, struct wsp_str a1);
int heap_window_line(struct parser *p, struct body *b,
                     struct caps *cap);
int peak_line(struct parser *p, struct body *b, struct caps *cap);
int peak_region_line(struct parser *p, struct caps *cap,
                     struct body *b);
int owner_line(struct parser *p, struct body *b, struct caps *cap);
int hot_line(struct parser *p, struct body *b, struct caps *cap);
int page_line(struct parser *p, struct body *b);
int region_line(struct parser *p, struct caps *cap);
int summary_line(struct parser *p);
int trailer_count_line(struct parser *p, const char *word,
                       uint64_t *count, size_t n_records);
int peaks_found_line(struct parser *p);

/* A file's grammar, as read_lines() reads it: its first line, its
   header (checked once it has ended), its other lines, and what a last
   line without its newline is (1: read it; 0: left out, the file was
   cut; -1: an error).  dump_file: the file keeps its dump's pages. */
struct grammar {
   int (*version)(struct parser *p);
   int (*header)(struct parser *p);
   int (*line)(struct parser *p, struct body *b, struct caps *cap);
   int (*unterminated)(struct parser *p, const struct body *b);
   int dump_file;
};

/* wsp_parse.c: read buf's lines into p->f (emptied first) by g; p->err
   and p->f set, the rest set up here.  0 (*in_header: the file ended
   in its header), or -1 with the error in p->err. */
int read_lines(const char *buf, size_t len, const struct grammar *g,
               struct parser *p, struct body *b, struct caps *cap,
               int *in_header);
/* wsp_parse.c: a dump block's lines (wsp_dump.c reads dump files) */
int dump_begin_line(struct parser *p, struct body *b);
int dump_line(struct parser *p, struct body *b, struct caps *cap);

#endif

/*--------------------------------------------------------------------*/
/*--- end                                             wsp_reader.h ---*/
/*--------------------------------------------------------------------*/

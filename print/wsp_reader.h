/*--------------------------------------------------------------------*/
/*--- ws_print: the reader's shared state.            wsp_reader.h ---*/
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

/* Private to the reader's files: the state of one read (where the
   body is, what must come next), and each record family's readers.
   wsp_read.c owns the order of the lines and calls the others; they
   call only the lexer, the model and, below them, each other in this
   order: body -> peaks -> stacks; trailer -> stacks.  Renderers never
   see this header. */

#ifndef WSP_READER_H
#define WSP_READER_H

#include "wsp_lex.h"
#include "wsp_read.h"

/* Capacities of the model's growing arrays. */
struct caps {
   size_t hdr, events, dumps, regions;
   size_t stacks, frames, peaks, owners, hot, region_labels;
   size_t heap_sites, heap_windows, heap_chunks, kvs, dump_pages, pages;
   size_t thr;
   size_t routines, routine_rows, miss_stacks, curve_points;
};

/* Where the body is: samples and events, a dump block, the trailer
   (region lines, hot lines, page lines and `peaks N` in version 3,
   heap-site lines in version 4, summary lines, `samples N`, `end`). */
enum state { S_BODY, S_DUMP, S_REGIONS, S_HOT, S_PAGES, S_HEAP, S_ROUTINES,
             S_MISSES, S_CURVES, S_PEAK_LIST,
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
   uint64_t   n_insn, n_data;
   uint64_t   last_addr;
   int        any_addr, in_data;
   struct wsp_thread_ws *thr;   /* the threads of the sample being read */
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

/* What a file is read from, kept with the model so that its samples
   can be read again (wsp_read.c). */
struct again {
   struct wsp_again      a;         /* the model's door to it: first */
   struct wsp_input      in;
   struct wsp_file      *f;
   size_t                lines;     /* lines the first reading accepted */
   int                   dump;      /* its first bytes: a dump file */
   int                   keep_pages; /* WSP_READ_PAGES */
   struct wsp_thread_ws *thr;       /* of the sample being read again */
   size_t                cap_thr;
};

/* A version 4 peak line whose samples were let go (streamed): checked
   once the file is read, by reading the samples again. */
struct peak_check {
   size_t            line, peak;
   int               found;         /* a sample has the peak's time */
   struct wsp_sample s;             /* that sample */
};

/* One read: the line being read, the body's state, the capacities. */
struct reader {
   struct lex         p;
   struct body        b;
   struct caps        cap;
   struct again      *ag;
   struct peak_check *checks;
   size_t             n_checks, cap_checks;
};

/* wsp_read_header.c: the first line, the header's lines, the header
   checked once it has ended (before line p->lineno); the same for a
   dump file. */
int check_version(struct lex *p);
int add_header_line(struct lex *p, struct caps *cap);
int check_header(struct lex *p);
int check_dump_version(struct lex *p);
int check_dump_header(struct lex *p);

/* wsp_read_body.c: samples, events, dump blocks; sample_values() the
   columns of a sample line into s and its threads into *thr. */
int sample_values(struct lex *p, const struct wsp_columns *cols,
                  struct wsp_sample *s, struct wsp_thread_ws **thr,
                  size_t *cap);
int sample_line(struct reader *r);
int event_line(struct reader *r);
int dump_begin_line(struct reader *r);
int dump_line(struct reader *r);

/* wsp_read_peaks.c: peaks (version 3 events, version 4 lines), their
   region and owner lines; close_peak() checks the open peak's owner
   lines once they are over; check_peaks() the peak lines whose samples
   were let go, once the file is read. */
int check_peaks(struct reader *r);
int close_peak(struct reader *r);
int peak_event(struct reader *r, struct wsp_event *e, struct wsp_str a1);
int peak_line(struct reader *r);
int peak_region_line(struct reader *r);
int owner_line(struct reader *r);

/* wsp_read_heap.c: heap-site and heap-window lines (version 4). */
int heap_site_line(struct reader *r);
int heap_scores_line(struct reader *r);
int heap_chunk_line(struct reader *r);
int routine_line(struct reader *r);
int routine_size_line(struct reader *r);
int miss_stack_line(struct reader *r);
int curve_line(struct reader *r);
int heap_window_line(struct reader *r);

/* wsp_read_trailer.c: region, hot, page, summary and count lines. */
int hot_line(struct reader *r);
int page_line(struct reader *r);
int region_line(struct reader *r);
int summary_line(struct lex *p);
int trailer_count_line(struct lex *p, const char *word, uint64_t *count,
                       size_t n_records);
int peaks_found_line(struct lex *p);

/* wsp_read_stacks.c: stack blocks, `ip location function`, owners, and
   the owner line a dump page or hot line has due. */
int stack_ref(struct lex *p, uint64_t id, size_t *idx);
int cur_where(struct lex *p, struct cur *c, struct wsp_where *w,
              const char *form, int keep);
int stack_begin_line(struct reader *r);
int frame_line(struct reader *r);
int cur_owner(struct lex *p, struct cur *c, struct wsp_owner *o,
              int rest_ok, int block_ok, int keep);
int due_owner_line(struct reader *r);

#endif

/*--------------------------------------------------------------------*/
/*--- end                                             wsp_reader.h ---*/
/*--------------------------------------------------------------------*/

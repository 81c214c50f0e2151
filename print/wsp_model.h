/*--------------------------------------------------------------------*/
/*--- ws_print: what the parser gives the printers.    wsp_model.h ---*/
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

/* ws_print reads one ws output file (docs/output-format.md, version 4,
   or versions 3 and 2 as older ws wrote them) with wsp_parse() into a struct
   wsp_file, then one printer writes it: wsp_text() the report with text
   charts, wsp_csv() the samples as CSV,
   wsp_html() the self-contained HTML report.  The parser checks the
   grammar and computes nothing; the printers compute only what they
   show (column maxima, scales) and never fail on a parsed file.

   Strings in a struct wsp_file (header values, labels, function names)
   point into the caller's buffer, or, when version 4 escaped them, to
   their decoded form in memory the file keeps (f->arena): they are not
   NUL-terminated (each has a length) and may hold any byte. */

#ifndef WSP_MODEL_H
#define WSP_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define WSP_FORMAT_VERSION 4          /* the newest version read */
#define WSP_FORMAT_OLDEST  2          /* the oldest */
#define WSP_NONE UINT64_MAX          /* "no value" for optional numbers */

struct wsp_chunk;

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
   int      final;                   /* a final sample (version 4) */
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
   WSP_EV_PEAK,                      /* num = index in wsp_file.peaks
                                        (version 3) */
   WSP_EV_EXEC,                      /* text = the program exec'd; only
                                        the trailer follows */
   WSP_EV_FINAL,                     /* the sample before is final */
   WSP_EV_REGION_START,              /* a region opens while measurement
                                        was already on */
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

/* ip location function: one code address (version 3). */
struct wsp_where {
   uint64_t       ip;
   struct wsp_str loc, fn;
};

/* One line of a stack block: a frame, or a call inlined into the
   function of the next line. */
struct wsp_frame {
   struct wsp_where w;
   int              inl;
};

/* A stack block: frames[first .. first+n-1] of the file, innermost
   first. */
struct wsp_stack {
   uint64_t id;
   size_t   first, n;
};

enum wsp_owner_kind {                /* in the order of the format's table */
   WSP_OWN_HEAP, WSP_OWN_FREED, WSP_OWN_HEAP_OTHER, WSP_OWN_GLOBAL,
   WSP_OWN_STACK, WSP_OWN_FILE, WSP_OWN_ANON, WSP_OWN_UNKNOWN,
   WSP_OWN_CODE,                     /* an instruction peak's (version 4) */
   WSP_OWN_REST                      /* only in a peak's owner lines */
};

/* What lives in a page, as written (text) and parsed. */
struct wsp_owner {
   enum wsp_owner_kind kind;
   struct wsp_str      text;         /* the whole owner, for printing */
   size_t              stack;        /* heap, freed: index in
                                        wsp_file.stacks */
   uint64_t            block, size;  /* heap, freed: block (WSP_NONE:
                                        none) */
   uint64_t            tid;          /* stack */
   struct wsp_str      name;         /* global: symbol; file: path;
                                        code: function */
   struct wsp_str      object;       /* code: the object file */
};

struct wsp_owner_line {
   uint64_t         pages;
   struct wsp_owner o;
};

/* Why a version 4 peak is listed (bits). */
#define WSP_WHY_LARGEST  1           /* the largest sample of its kind */
#define WSP_WHY_REGION   2           /* ... of a named region */
#define WSP_WHY_DETECTED 4           /* the detector flagged it */

/* A peak: in version 3 as its last event (its largest sample) and the
   owner lines after that event have it; in version 4 its trailer lines.
   Its owner lines are owners[own_first .. own_first+own_n-1] of the
   file, the labels of the regions whose largest sample it is
   region_labels[reg_first .. reg_first+reg_n-1]. */
struct wsp_peak {
   uint64_t t, size;
   int      data;                    /* kind: data (else insn) */
   size_t   stack;                   /* index in wsp_file.stacks */
   size_t   own_first, own_n;
   size_t   line;
   /* version 4 (version 3: why 0, baseline WSP_NONE, own_line -1) */
   uint64_t baseline;                /* pages */
   unsigned why;                     /* WSP_WHY_* */
   int      rise;                    /* the stack is where it rose */
   long     own_line;                /* the stack's first line in the
                                        program's own code, or -1 */
   size_t   reg_first, reg_n;
};

/* A hot line of the trailer (with its hot-owner line for data). */
struct wsp_hot {
   int              data;
   uint64_t         rank, accesses, addr;
   struct wsp_where w;
   struct wsp_owner o;               /* data pages */
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

/* A heap-site line (version 4): how one allocation site used its
   chunks.  Fractions in thousandths.  Keys the line lacks that a
   printer could use are WSP_NONE. */
struct wsp_heap_site {
   uint64_t id;
   size_t   stack;                   /* index in wsp_file.stacks */
   uint64_t chunks, bytes, peak_live, never, read_only, write_only;
   uint64_t lifetime, first_delay, idle_tail, threads;
   uint64_t usage_milli, useful_milli;
   uint64_t touched, never_bytes, exit_live;   /* optional keys */
};

/* A heap-window line: at peak `peak`, the live bytes of the heap owner
   `stack` and how many of them lie in the window. */
struct wsp_heap_window {
   size_t   peak, stack;
   uint64_t live, window;
};

/* One page of a dump file (kept only when a dump file is read): a data
   page with its owner. */
struct wsp_dump_page {
   int              data;
   uint64_t         addr, since, accesses;
   struct wsp_where w;
   struct wsp_owner o;
};

struct wsp_header_kv {
   struct wsp_str key, value;
};

struct wsp_file {
   /* header: every key in file order, and the ones the printers use */
   int                   version;        /* of the format */
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
   struct wsp_stack     *stacks;         /* version 3 from here on */
   size_t                n_stacks;
   struct wsp_frame     *frames;
   size_t                n_frames;
   struct wsp_peak      *peaks;
   size_t                n_peaks;
   struct wsp_owner_line *owners;
   size_t                n_owners;
   struct wsp_str       *region_labels;  /* of version 4 peaks */
   size_t                n_region_labels;
   int                   count_rep_each; /* version 4 header count-rep */
   struct wsp_heap_window *heap_windows;  /* version 4 */
   size_t                n_heap_windows;

   /* trailer */
   struct wsp_region    *regions;
   size_t                n_regions;
   struct wsp_hot       *hot;            /* in file order */
   size_t                n_hot;
   size_t                n_pages[2];     /* page lines, insn and data */
   struct wsp_heap_site *heap_sites;     /* version 4, in file order */
   size_t                n_heap_sites;
   int                   heap_usage;     /* header heap-usage: 1 yes, 0 no,
                                            -1 absent */
   uint64_t              trailer_peaks;  /* WSP_NONE if not read */
   uint64_t              trailer_found;  /* version 4: the detector's
                                            peaks; WSP_NONE if not read */
   size_t               *stack_slot;     /* the parser's index of stack ids */
   size_t                n_stack_slot;
   int                   have_insn_summary, have_data_summary;
   struct wsp_apt        insn_summary, data_summary;
   uint64_t              trailer_samples; /* WSP_NONE if not read */
   int                   complete;        /* ended with `end` */
   int                   cut_line;        /* last line had no newline and
                                             was left out */
   size_t                n_lines;         /* lines read */
   struct wsp_chunk     *arena;           /* decoded strings (version 4) */

   /* a dump file (wsp_parse_dump): dumps[0] is its block, these its
      pages in file order */
   int                   dump_file;
   struct wsp_dump_page *dump_pages;
   size_t                n_dump_pages;
   struct wsp_str        output_file;     /* its header's output-file */
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

/* Whether the len bytes read so far of a file can begin a ws output
   file: 0 if its first line is a version line this reader knows, -1
   (err filled in, as wsp_parse would) if they cannot, 1 if more bytes
   are needed to tell.  A reader calls it as the bytes come, so that
   anything else (/dev/zero, a binary, an endless pipe) is refused from
   its first bytes. */
#define WSP_FIRST_LINE_MAX 64
int  wsp_check_start(const char *buf, size_t len, struct wsp_error *err);

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

/* A file `ws dump FILE` wrote (docs/output-format.md, "Dump files"),
   read and shown by wsp_dump.c.  wsp_dump_check_start(): 0 if the len
   bytes read so far begin as a dump file (any version: the parse names
   the one it reads), -1 if not, 1 if more bytes are needed to tell.
   wsp_parse_dump() as wsp_parse(); wsp_free() releases it. */
#define WSP_DUMP_FORMAT_VERSION 4
int  wsp_dump_check_start(const char *buf, size_t len);
int  wsp_parse_dump(const char *buf, size_t len, struct wsp_file *f,
                    struct wsp_error *err);
void wsp_dump_text(FILE *out, const struct wsp_file *f,
                   const struct wsp_text_opts *o);
void wsp_dump_csv(FILE *out, const struct wsp_file *f);

/* Heap usage (wsp_heap.c).  What sites are ranked by, worst first: the
   bytes they waste by usage, by useful lifetime, in chunks never
   touched, or the bytes they allocate. */
enum wsp_heap_key { WSP_KEY_USAGE, WSP_KEY_USEFUL, WSP_KEY_BYTES,
                    WSP_KEY_NEVER };
int      wsp_heap_key(const char *name, enum wsp_heap_key *key);
uint64_t wsp_heap_value(const struct wsp_heap_site *s, enum wsp_heap_key k);
/* The indexes of f's sites, worst first by key (malloc'd, or NULL). */
size_t  *wsp_heap_order(const struct wsp_file *f, enum wsp_heap_key key);
/* The heap-window line of peak n for a heap owner's stack, or NULL. */
const struct wsp_heap_window *wsp_heap_window_of(const struct wsp_file *f,
                                                 size_t peak, size_t stack);
/* The text report's section; the folded stacks of --folded; the
   "heap" members of the HTML report's data. */
void wsp_heap_text(FILE *out, const struct wsp_file *f, int width);
void wsp_heap_folded(FILE *out, const struct wsp_file *f,
                     enum wsp_heap_key key);
void wsp_heap_json(FILE *out, const struct wsp_file *f);
/* The lines' parsers, for wsp_parse.c: 0, or -1 with why[n] filled. */
int wsp_heap_site_line(struct wsp_file *f, const char *line, size_t len,
                       size_t *cap, char *why, size_t n);
int wsp_heap_window_line(struct wsp_file *f, const char *line, size_t len,
                         size_t peak, size_t *cap, char *why, size_t n);
/* The index of the stack with this id in f->stacks, or SIZE_MAX. */
size_t wsp_stack_find(const struct wsp_file *f, uint64_t id);
/* Room for one more element in *arr (n of size sz, capacity *cap):
   0, or -1 when memory runs out. */
int    wsp_grow(void *arr, size_t *cap, size_t n, size_t sz);

/* Shared by the printers (wsp_util.c). */
void wsp_put_escaped(FILE *out, struct wsp_str s);  /* control bytes as \xNN */
void wsp_rule(FILE *out, int width);
void wsp_fmt_time(char *buf, size_t n, uint64_t t, int ms);
void wsp_fmt_avg(char *buf, size_t n, uint64_t avg10);
void wsp_fmt_kb(char *buf, size_t n, double pages, uint64_t pagesize);
const char *wsp_event_name(enum wsp_event_kind k);
/* The thread ids of the per-thread columns in increasing order, each
   once: from *tid = 0, each call sets *tid to the next and returns 1,
   then 0 when there is none. */
int wsp_next_tid(const struct wsp_file *f, uint64_t *tid);

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
/* "fn (file:line)": a C++ name shortened to fit (see wsp_util.c). */
void wsp_lwhere(struct wsp_line *l, const struct wsp_where *w, int width,
                size_t after);

/* The text report's sections about peaks (wsp_peaks.c): the largest
   samples, to jump to (after the header); the peaks with their stacks
   and owners, and the hot pages (after the summaries). */
void wsp_text_largest(FILE *out, const struct wsp_file *f, int width);
void wsp_text_peaks(FILE *out, const struct wsp_file *f, int width);
void wsp_text_hot(FILE *out, const struct wsp_file *f, int width);
/* What lives in a page, in words (a heap block by where it was
   allocated). */
void wsp_lowner(struct wsp_line *l, const struct wsp_file *f,
                const struct wsp_owner *o, int width);
/* Every line of stack |stack|, "at"/"by" as Valgrind shows them, each
   after |indent|; the line |own| (-1: none) marked "->". */
void wsp_put_stack(FILE *out, const struct wsp_file *f, size_t stack,
                   long own, const char *indent, int width);

/* The HTML template (print/report.html, made into C by the build). */
extern const char wsp_report_html[];

#endif

/*--------------------------------------------------------------------*/
/*--- end                                              wsp_model.h ---*/
/*--------------------------------------------------------------------*/

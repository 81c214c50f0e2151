/*--------------------------------------------------------------------*/
/*--- ws_print: the run's model.                       wsp_model.h ---*/
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

/* ws_print works in three stages (print/README.md, "The code"): the
   lexer (wsp_lex.h) cuts the file into lines and a line into its
   words; the reader (wsp_read.h) checks each line against the grammar
   of docs/output-format.md and fills in the model this header defines,
   struct wsp_file; the renderers (wsp_render.h) write it out as text,
   CSV, HTML or folded stacks.  The model is all the renderers see: the
   records of the file in file order, with what ws_print computes from
   them (wsp_model.c: stack ids, heap sites ranked; wsp_series.c: the
   samples and their figures).  A renderer never reads the file and
   never fails on a model the reader filled.

   Strings in the model (header values, labels, function names) are
   kept in memory the model owns (f->arena), decoded where version 4
   escaped them: they are not NUL-terminated (each has a length) and
   may hold any byte.

   Records with KEY VALUE pairs (heap-site, heap-window) keep every
   pair, known or not, in f->kvs, so that a renderer can show keys this
   reader has no field for. */

#ifndef WSP_MODEL_H
#define WSP_MODEL_H

#include <stddef.h>
#include <stdint.h>

#define WSP_FORMAT_VERSION 6          /* the newest version read */
#define WSP_FORMAT_OLDEST  2          /* the oldest */
#define WSP_DUMP_FORMAT_VERSION 5     /* of dump files */
#define WSP_DUMP_FORMAT_OLDEST  4
#define WSP_NONE UINT64_MAX           /* "no value" for optional numbers */

struct wsp_str {
   const char *s;
   size_t      len;
};

/* What is wrong and where (line 0: the file as a whole); errnum: a
   system call failed (msg says which, or is empty: reading the
   input). */
struct wsp_error {
   size_t line;
   int    errnum;
   char   msg[256];
};

/*------------------------------------------------------------*/
/*--- Samples                                              ---*/
/*------------------------------------------------------------*/

/* The sample columns ws_print knows, found by name in the header's
   `columns:` line; a sample keeps each at its index here. */
enum wsp_col { WSP_COL_T, WSP_COL_INSN, WSP_COL_DATA, WSP_COL_SHARED,
               WSP_COL_INSN_LINES, WSP_COL_DATA_LINES, WSP_COL_HEAP,
               WSP_N_COLS };
extern const char *const wsp_col_name[WSP_N_COLS];

/* The column of a working set: data (else instructions). */
static inline enum wsp_col wsp_kind_col(int data)
{
   return data ? WSP_COL_DATA : WSP_COL_INSN;
}

/* The header's columns: their names in order, where each known one
   stands (-1: not in this file), and whether the per-thread group
   `{tid insn data}...` follows them. */
#define WSP_MAX_COLUMNS 16
struct wsp_columns {
   struct wsp_str name[WSP_MAX_COLUMNS];
   size_t         n;
   int            at[WSP_N_COLS];
   int            per_thread;
};

/* One sample line: its columns (WSP_NONE for one the file has not),
   and with per-thread columns its threads, thr_count of them from
   thr_first of the series' thread values. */
struct wsp_sample {
   uint64_t v[WSP_N_COLS];
   size_t   thr_first;
   uint32_t thr_count;
   int      final;                   /* a final sample (version 4) */
};

struct wsp_thread_ws {
   uint64_t tid, insn, data;
};

/* One column's figures over every sample of the file, in file order
   (the sum in a long double, as the averages are shown). */
struct wsp_col_stats {
   long double sum;
   uint64_t    max;                  /* the largest value */
   uint64_t    max_t;                /* the time of the first sample that
                                        has it */
};

/* One thread id's figures over the samples that list it. */
struct wsp_tid_stats {
   uint64_t    tid;
   size_t      n;
   long double sum_insn, sum_data;
   uint64_t    max_insn, max_data;
};

/* Reading the samples again, from the file (the reader's): fn as
   wsp_samples_each() calls it; on failure -1 with err filled in
   (failed is then set).  release() frees it with the model. */
struct wsp_again;
typedef int wsp_sample_fn(void *arg, size_t i, const struct wsp_sample *s,
                          const struct wsp_thread_ws *thr);
struct wsp_again {
   int  (*samples)(struct wsp_again *a, wsp_sample_fn *fn, void *arg);
   void (*release)(struct wsp_again *a);
   struct wsp_error err;
   int              failed;
};

/* The samples (wsp_series.c): their figures, and the samples
   themselves for wsp_samples_each(): kept in memory up to
   WSP_KEPT_BYTES, else read again from the file each time (streamed),
   so that memory does not grow with the file. */
#define WSP_KEPT_BYTES ((size_t)8 << 20)
struct wsp_series {
   size_t                n;          /* samples in the file */
   uint64_t              last_t;     /* the time of the last */
   struct wsp_col_stats  col[WSP_N_COLS];
   struct wsp_tid_stats *tids;       /* every thread id of the per-thread
                                        columns, increasing */
   size_t                n_tids;
   int                   streamed;   /* the samples are not kept */
   struct wsp_sample    *kept;       /* else the samples, in file order */
   struct wsp_thread_ws *thr;
   size_t                n_thr;
   size_t                cap, cap_thr, cap_tids;
   struct wsp_again     *again;
};

/* A subset of the samples small enough for a page to draw, with their
   threads (wsp_samples_view()): every sample when the model keeps
   them; else, of each of WSP_VIEW_BUCKETS equal spans of the run, the
   first and the last sample and those with the smallest and largest
   value of each column (thinned). */
#define WSP_VIEW_BUCKETS 4096
struct wsp_view {
   const struct wsp_sample    *s;
   size_t                      n;
   const struct wsp_thread_ws *thr;
   int                         thinned;
   struct wsp_sample          *own_s;     /* what a thinned view holds */
   struct wsp_thread_ws       *own_thr;
};

/*------------------------------------------------------------*/
/*--- Events, stacks, owners, peaks, the trailer           ---*/
/*------------------------------------------------------------*/

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

/* One dump block; its pages, when kept (a dump file, or an output file
   read with WSP_READ_PAGES), are dump_pages[page_first ..
   page_first+n_insn+n_data-1] of the file. */
struct wsp_dump {
   uint64_t       t;
   struct wsp_str label;
   uint64_t       n_insn, n_data;
   uint64_t       lines_insn, lines_data;   /* version 5, lines on */
   size_t         line;
   size_t         page_first;
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

/* What lives in a page, as written (text) and read. */
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
   int            have_lines;               /* version 5, lines on */
   struct wsp_apt insn_lines, data_lines;
};

/* One KEY VALUE pair of a record, as written. */
struct wsp_kv {
   struct wsp_str key, value;
};

/* A heap-site line (version 4): how one allocation site used its
   chunks.  Fractions in thousandths.  Keys the line lacks that a
   renderer could use are WSP_NONE; all its pairs are
   kvs[kv_first .. kv_first+kv_n-1] of the file. */
struct wsp_heap_site {
   uint64_t id;
   size_t   stack;                   /* index in wsp_file.stacks */
   uint64_t chunks, bytes, peak_live, never, read_only, write_only;
   uint64_t lifetime, first_delay, idle_tail, threads;
   uint64_t usage_milli, useful_milli; /* usage: its upper bound when */
   uint64_t below;                     /* chunks are below the resolution */
   uint64_t touched, never_bytes, exit_live;   /* optional keys */
   uint64_t score_milli;                       /* optional (format 5) */
   uint64_t lifetime_score_milli, growth;      /* optional (format 5) */
   size_t   kv_first, kv_n;
   size_t   chunk_first, n_chunks;  /* its heap-chunk records (format 6),
                                       chunks[chunk_first ..] of the file */
};

/* A heap-chunk line (version 6): one chunk of a site's, as its record
   says; WSP_NONE for '-' (free: live at exit; first, last, lo, hi:
   never accessed) and for reads and writes the line lacks (they come
   with --ws-heap-usage=exact). */
struct wsp_heap_chunk {
   size_t   site;                    /* index in wsp_file.heap_sites */
   uint64_t alloc, free, size, first, last, lo, hi, reads, writes;
};

/* A curve or mrc line (--ws-curves=exact): one point of a locality
   curve of |scope| ("run" or "region:LABEL", as written), of code or
   data (|data|), in pages or lines (|line|): at tau = x, s and m in
   thousandths (s in units, m in misses per 1,000 instructions); or, an
   mrc line, at cache size x units, the miss ratio in ten-thousandths. */
/* A curve or mrc line; an estimate (--ws-curves=sampled) says what
   made it (|from|: WSP_FROM_WINDOWS, WSP_FROM_FOOTPRINT, WSP_FROM_EPOCHS
   or WSP_FROM_BOUNDS, or WSP_FROM_OTHER for a word this reader does not
   know) and, when |has_err|, its errors in the same units (one standard
   error of a window's estimate; the farthest the value can be off, of
   the epochs' and the bounds'). */
enum { WSP_FROM_EXACT, WSP_FROM_WINDOWS, WSP_FROM_FOOTPRINT, WSP_FROM_EPOCHS,
       WSP_FROM_BOUNDS, WSP_FROM_OTHER };
struct wsp_curve_point {
   struct wsp_str scope;
   int            data, line, mrc;
   uint64_t       x;
   uint64_t       s, m, miss;
   int            from, has_err;
   uint64_t       s_err, m_err, miss_err;
};

/* A routine line (--ws-routines=yes): one routine's activations, its
   exponent and r2 in thousandths (signed), fitted 0 when the line says
   '-'; its routine-size lines are rows[first_row .. first_row+n_rows-1]
   of the file, by size. */
struct wsp_routine {
   uint64_t id;
   size_t   stack;                   /* index in wsp_file.stacks */
   uint64_t calls, cost, rms_max, trms_max, thread_induced, syscall_induced;
   int      fitted;
   int64_t  exponent_milli, r2_milli;
   size_t   first_row, n_rows;
   size_t   kv_first, kv_n;
};

/* A miss-stack line (--ws-miss-file): the working-set misses whose
   access had the stack `stack`. */
struct wsp_miss_stack {
   size_t   stack;                   /* index in wsp_file.stacks */
   uint64_t insn, data;
};

/* A routine-size line: the activations of input size `size` (the
   smallest of its row) and their costs. */
struct wsp_routine_row {
   uint64_t size, count, min, mean, max;
};

/* A heap-window line: at peak `peak`, the live bytes of the heap owner
   `stack` and how many of them lie in the window. */
struct wsp_heap_window {
   size_t   peak, stack;
   uint64_t live, window;
   size_t   kv_first, kv_n;
};

/* One page of a dump block (kept only when a dump file is read, or an
   output file with WSP_READ_PAGES): a data page with its owner.  A
   trailer's page line (--ws-list-pages) has the same fields but since
   and the owner. */
struct wsp_dump_page {
   int              data;
   uint64_t         addr, since, accesses;
   struct wsp_where w;
   struct wsp_owner o;
};

/*------------------------------------------------------------*/
/*--- The model                                            ---*/
/*------------------------------------------------------------*/

/* Memory the model's strings live in (wsp_model.c). */
struct wsp_arena {
   struct wsp_block *blocks;
   size_t            used, cap;      /* in the newest block */
};

struct wsp_file {
   /* header: every key in file order, and the ones the renderers use */
   int                   version;        /* of the format */
   struct wsp_kv        *hdr;
   size_t                n_hdr;
   int                   have_header;    /* all required keys were read */
   struct wsp_str        tool, command;
   uint64_t              pid, ppid, every, tau, pagesize;
   uint64_t              linesize;        /* version 5; 0: no lines */
   int                   ms;             /* time-unit: ms (else i) */
   int                   syscalls, per_thread, instr_atstart;
   struct wsp_columns    columns;

   struct wsp_series     samples;
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
   int                   keep_pages;     /* dump pages and page lines kept */
   struct wsp_dump_page *pages;          /* the page lines, in file order,
                                            when kept */
   struct wsp_heap_site *heap_sites;     /* version 4, in file order */
   size_t                n_heap_sites;
   struct wsp_heap_chunk *heap_chunks;   /* version 6, in file order */
   size_t                n_heap_chunks;
   int                   have_heap_scores; /* a heap-scores line: */
   uint64_t              heap_scores_milli[3]; /* lifetime, usage,
                                            useful, in thousandths */
   struct wsp_routine   *routines;       /* in file order: ranked */
   size_t                n_routines;
   struct wsp_routine_row *routine_rows;
   size_t                n_routine_rows;
   struct wsp_miss_stack *miss_stacks;   /* --ws-miss-file, file order */
   size_t                n_miss_stacks;
   struct wsp_curve_point *curve_points;   /* in file order */
   size_t                n_curve_points;
   struct wsp_kv        *kvs;            /* the pairs of heap-site,
                                            heap-window and routine
                                            lines */
   size_t                n_kvs;
   int                   heap_usage;     /* header heap-usage: 2 exact,
                                            1 yes, 0 no, -1 absent */
   uint64_t              num_callers;    /* header num-callers: the most
                                            frame lines of a stack, or
                                            WSP_NONE (older files) */
   uint64_t              trailer_peaks;  /* WSP_NONE if not read */
   uint64_t              trailer_found;  /* version 4: the detector's
                                            peaks; WSP_NONE if not read */
   size_t               *stack_slot;     /* the index of stack ids */
   size_t                n_stack_slot;
   int                   have_insn_summary, have_data_summary;
   struct wsp_apt        insn_summary, data_summary;
   int                   have_lines_summary;  /* version 5, lines on */
   struct wsp_apt        insn_lines_summary, data_lines_summary;
   uint64_t              density1000;     /* data density, thousandths */
   uint64_t              trailer_samples; /* WSP_NONE if not read */
   int                   complete;        /* ended with `end` */
   int                   cut_line;        /* last line had no newline and
                                             was left out */
   struct wsp_arena      arena;           /* the strings */

   /* a dump file: dumps[0] is its block, these its pages in file
      order */
   int                   dump_file;
   struct wsp_dump_page *dump_pages;
   size_t                n_dump_pages;
   struct wsp_str        output_file;     /* its header's output-file */
};

/*------------------------------------------------------------*/
/*--- What the model computes (wsp_model.c)                ---*/
/*------------------------------------------------------------*/

/* Release what the model holds; f may be half filled. */
void wsp_free(struct wsp_file *f);

/* A copy of s in f's arena, or NULL when memory runs out. */
const char *wsp_keep(struct wsp_file *f, const char *s, size_t len);

/* Room for one more element in *arr (n of size sz, capacity *cap):
   0, or -1 when memory runs out. */
int wsp_grow(void *arr, size_t *cap, size_t n, size_t sz);

int wsp_str_is(struct wsp_str s, const char *w);
int wsp_str_eq(struct wsp_str a, struct wsp_str b);

/* Stack ids: f->stacks[idx], the newest, takes its id (0, or -1 when
   memory runs out); the index of the stack with this id, or
   SIZE_MAX. */
int    wsp_stack_add(struct wsp_file *f, size_t idx);
size_t wsp_stack_find(const struct wsp_file *f, uint64_t id);

/* Heap usage: what sites are ranked by, worst first: the bytes they
   waste by usage, by useful lifetime, in chunks never touched, or the
   bytes they allocate. */
enum wsp_heap_key { WSP_KEY_USAGE, WSP_KEY_USEFUL, WSP_KEY_BYTES,
                    WSP_KEY_NEVER, WSP_KEY_SCORE };
int      wsp_heap_key(const char *name, enum wsp_heap_key *key);
/* Its name on the command line ("usage"), what it counts in words. */
const char *wsp_heap_key_name(enum wsp_heap_key key);
const char *wsp_heap_key_words(enum wsp_heap_key key);
uint64_t wsp_heap_value(const struct wsp_heap_site *s, enum wsp_heap_key k);
/* The indexes of f's sites, worst first by key (malloc'd, or NULL). */
size_t  *wsp_heap_order(const struct wsp_file *f, enum wsp_heap_key key);
/* The Memoro paper's marks on sites (ws-interface.md section 9): a
   site's peak-live bytes (WSP_TOP_PEAK_LIVE) or chunks (WSP_TOP_CHUNKS)
   are in the top 90th percentile of the sites' when they are at least
   the value at position floor(0.9 n) of the n sites' values in
   ascending order, and more than 0 (equal values, equal marks).
   |marks| gets one entry per site; -1 when out of memory. */
enum { WSP_TOP_PEAK_LIVE = 1, WSP_TOP_CHUNKS = 2 };
int      wsp_heap_marks(const struct wsp_file *f, unsigned char *marks);
/* The heap-window line of peak n for a heap owner's stack, or NULL. */
const struct wsp_heap_window *wsp_heap_window_of(const struct wsp_file *f,
                                                 size_t peak, size_t stack);

/*------------------------------------------------------------*/
/*--- The samples (wsp_series.c)                           ---*/
/*------------------------------------------------------------*/

/* Add a sample (its threads: thr, s->thr_count of them) to f's
   series: 0, or -1 when memory runs out. */
int wsp_series_add(struct wsp_file *f, const struct wsp_sample *s,
                   const struct wsp_thread_ws *thr);
/* The latest sample is final. */
void wsp_series_final(struct wsp_file *f);

/* Call fn with each sample in file order (i counts from 0; thr are its
   threads), until fn returns non-zero, which it returns; -1 when the
   file could not be read again (wsp_samples_error() says why). */
int wsp_samples_each(const struct wsp_file *f, wsp_sample_fn *fn, void *arg);
const struct wsp_error *wsp_samples_error(const struct wsp_file *f);

/* The samples for a page (struct wsp_view): 0, or -1 (out of memory,
   or the file could not be read again).  wsp_view_free() after. */
int  wsp_samples_view(const struct wsp_file *f, struct wsp_view *v);
void wsp_view_free(struct wsp_view *v);

/* Whether the unwinder cut stack |idx| at --num-callers: it has that
   many frame lines and its outermost is no root (main, _start, clone,
   clone3) (wsp_model.c). */
int wsp_stack_cut(const struct wsp_file *f, size_t idx);

/* The time of the last sample, or of the last event if later. */
uint64_t wsp_last_time(const struct wsp_file *f);

#endif

/*--------------------------------------------------------------------*/
/*--- end                                              wsp_model.h ---*/
/*--------------------------------------------------------------------*/

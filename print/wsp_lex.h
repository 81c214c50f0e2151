/*--------------------------------------------------------------------*/
/*--- ws_print: the lexer.                               wsp_lex.h ---*/
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

/* The first stage of ws_print: the lines of the input, read as they
   come (wsp_input.c), and the words of a line (wsp_lex.c).  A cursor
   walks the line being read: decimal and hexadecimal numbers
   (checked for overflow), averages and fractions, literals, kinds,
   text to the end of the line (checked, decoded where version 4
   escaped it, and kept in the model's memory), labels, and the KEY
   VALUE pairs of records such as heap-site.  The lexer knows no line
   of the grammar (the reader does) and is the reader's one way to fail:
   the first error, with its line. */

#ifndef WSP_LEX_H
#define WSP_LEX_H

#include "wsp_model.h"

/*------------------------------------------------------------*/
/*--- The lines of the input (wsp_input.c)                 ---*/
/*------------------------------------------------------------*/

/* Whether the first n bytes of a file can begin one this reader reads:
   0 yes, 1 more bytes are needed to tell, -1 no (err says why). */
typedef int wsp_first_fn(void *ctx, const char *buf, size_t n,
                         struct wsp_error *err);

struct wsp_input {
   int           fd, rfd;       /* the file; what is read (a copy, the
                                   second time) */
   const char   *mem;           /* or the bytes in memory */
   size_t        mem_len;
   int           owns_mem;
   uint64_t      max;           /* bytes read at most */
   wsp_first_fn *first;
   void         *ctx;
   int           checks;        /* the bytes are checked (first reading) */
   int           started;       /* the first bytes passed */
   int           eof;
   char         *buf;           /* bytes read, from the line being read */
   size_t        cap, start, scan, end;
   uint64_t      total;         /* bytes read */
   size_t        lines_before;  /* newlines before buf + start */
   int64_t       origin;        /* a regular file's offset at the start,
                                   or -1 */
   char         *held;          /* a pipe's bytes so far, then ... */
   size_t        held_n, held_cap;
   int           spool;         /* ... a temporary file, or -1 */
};

/* A file read as it comes (at most max bytes; first checks its first
   bytes), or bytes in memory (never checked). */
void wsp_input_fd(struct wsp_input *in, int fd, uint64_t max,
                  wsp_first_fn *first, void *ctx);
void wsp_input_mem(struct wsp_input *in, const char *buf, size_t len);
/* Read until the first bytes have passed their check (or the file
   has ended): 0, or -1. */
int  wsp_input_start(struct wsp_input *in, struct wsp_error *err);
/* The next line (1; *newline 0 for a last line without one), the end
   (0) or an error (-1).  The line lasts until the next call. */
int  wsp_input_line(struct wsp_input *in, struct wsp_str *line,
                    int *newline, struct wsp_error *err);
/* Read the rest of the file for its checks alone: 0, or -1. */
int  wsp_input_rest(struct wsp_input *in, struct wsp_error *err);
/* Read the file again from its first line: 0, or -1. */
int  wsp_input_again(struct wsp_input *in, struct wsp_error *err);
void wsp_input_close(struct wsp_input *in);

/*------------------------------------------------------------*/
/*--- The words of a line (wsp_lex.c)                      ---*/
/*------------------------------------------------------------*/

/* The line being read, and where its text and errors go. */
struct lex {
   struct wsp_file  *f;          /* the model: its version, its arena */
   struct wsp_error *err;
   size_t            lineno;     /* of the line being read */
   const char       *line;       /* its bytes, without the newline */
   size_t            len;
};

/* A cursor over part of a line. */
struct cur {
   const char *s;
   size_t      len, pos;
};

static inline int is_digit(char c) { return c >= '0' && c <= '9'; }
static inline int is_lower(char c) { return c >= 'a' && c <= 'z'; }

static inline int cur_end(const struct cur *c) { return c->pos == c->len; }

/* The line being read, from its start. */
static inline struct cur cur_line(const struct lex *p)
{
   struct cur c = { p->line, p->len, 0 };
   return c;
}

/* Record the first error (printf-style) with its line: returns -1, for
   the caller to pass up. */
__attribute__((format(printf, 2, 3)))
int fail(struct lex *p, const char *fmt, ...);
/* A number where the grammar wants one: r from cur_u64/cur_hex/cur_avg
   (-1 too large, 0 none), failing with what the line should be. */
int num_fail(struct lex *p, int r, const char *what);

/* Does s start with the word w (followed by a space or its end)? */
int word_is(const char *s, size_t len, const char *w);

/* Numbers at the cursor: 1 and the cursor advanced, 0 when there is
   none, -1 when it exceeds 64 bits.  cur_u64: [0-9]+; cur_hex:
   0x[0-9a-f]+; cur_avg: [0-9]+\.[0-9] in tenths. */
int cur_u64(struct cur *c, uint64_t *v);
int cur_hex(struct cur *c, uint64_t *v);
int cur_avg(struct cur *c, uint64_t *tenths);
/* A word that is a fraction 0.ddd or 1.000: 1 and it in thousandths
   in *v, else 0. */
int word_milli(struct wsp_str w, uint64_t *v);
/* The literal lit at the cursor (1, advanced) or not (0). */
int cur_lit(struct cur *c, const char *lit);
/* "insn" (0) or "data" (1) at the cursor, or -1 for neither. */
int cur_kind(struct cur *c);
/* The next word, after one space: up to the next space or the end. */
int cur_word(struct cur *c, struct wsp_str *w);
/* The rest of the line from the cursor. */
struct wsp_str cur_rest(const struct cur *c);

/* Why text that runs to the end of its line (a label, a function
   name, a symbol, a path) breaks the rules of docs/output-format.md,
   in buf (what names it), or NULL. */
const char *text_problem(struct wsp_str l, const char *what,
                         char *buf, size_t n);
/* Text the model keeps: keep_text() decodes version 4's escapes ("\\"
   and "\xHH"; a backslash that starts neither fails), keep_raw() keeps
   it as written; either replaces *s by the model's copy.  check_text()
   only checks the escapes of text the model does not keep. */
int keep_text(struct lex *p, struct wsp_str *s);
int keep_raw(struct lex *p, struct wsp_str *s);
int check_text(struct lex *p, struct wsp_str s);
/* A label (what names it in the message): text to the end of its line,
   at most 255 bytes once decoded, kept. */
int label_text(struct lex *p, struct wsp_str *l, const char *what);

/* A record `WORD ID STACK KEY VALUE ...`, its cursor after WORD: *id,
   *stack, and in vals the value of each of the keys (WSP_NONE where
   absent); the first n_required are required, those whose bit is set
   in milli are fractions 0.000 to 1.000 (in thousandths), the others
   whole numbers, each given once.  Keys the spec does not name are
   skipped; every pair is kept in the model's kvs (*first, *n). */
struct kv_spec {
   const char        *word;
   const char *const *keys;
   size_t             n_keys, n_required;
   unsigned           milli;
};
int cur_kv_record(struct lex *p, struct cur *c, const struct kv_spec *spec,
                  uint64_t *id, uint64_t *stack, uint64_t *vals,
                  size_t *cap_kvs, size_t *first, size_t *n);

#endif

/*--------------------------------------------------------------------*/
/*--- end                                                wsp_lex.h ---*/
/*--------------------------------------------------------------------*/

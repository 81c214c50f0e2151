/*--------------------------------------------------------------------*/
/*--- ws_print: the reader of ws output files.       wsp_parse.c ---*/
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

/* Owns the grammar of docs/output-format.md, version 2, and nothing
   else: it checks every line and records what the printers need; it
   prints nothing and computes no statistics.

   The reader is strict, like tests/wslib.py: anything the grammar does
   not allow is an error naming the line, so that a broken writer is
   noticed rather than drawn.  It is also safe on any input: it reads
   the buffer by length (NUL bytes are ordinary bytes), every number is
   checked for overflow, and every array grows by doubling with checked
   sizes.  print/fuzz_ws_print.c fuzzes it.

   A file cut short by a killed run is not an error: a last line
   without its newline is left out (it may be half written) and the
   trailer may be missing or partial; every complete line must still
   follow the grammar.  wsp_file.complete tells the two apart. */

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "wsp.h"

/*------------------------------------------------------------*/
/*--- Small helpers                                        ---*/
/*------------------------------------------------------------*/

/* The parser's state while it reads one file. */
struct parser {
   struct wsp_file  *f;
   struct wsp_error *err;
   size_t            lineno;     /* of the line being read */
   const char       *line;       /* its bytes, without the newline */
   size_t            len;
};

/* Longjmp-free error reporting: fail() records the first error and
   returns -1 for the caller to pass up. */
__attribute__((format(printf, 2, 3)))
static int fail(struct parser *p, const char *fmt, ...)
{
   va_list ap;
   p->err->line = p->lineno;
   va_start(ap, fmt);
   vsnprintf(p->err->msg, sizeof p->err->msg, fmt, ap);
   va_end(ap);
   return -1;
}

/* Grow *arr (of *n elements of size sz, capacity *cap) to hold one
   more.  Returns 0, or -1 when memory runs out. */
static int grow(void *arr, size_t *cap, size_t n, size_t sz)
{
   void **a = arr;
   if (n < *cap)
      return 0;
   size_t ncap = *cap ? *cap * 2 : 16;
   if (ncap < *cap || ncap > SIZE_MAX / sz)
      return -1;
   void *na = realloc(*a, ncap * sz);
   if (!na)
      return -1;
   *a = na;
   *cap = ncap;
   return 0;
}

static int is_digit(char c) { return c >= '0' && c <= '9'; }
static int is_lower(char c) { return c >= 'a' && c <= 'z'; }

/* Does the line start with the word w (followed by a space or its end)? */
static int word_is(const char *s, size_t len, const char *w)
{
   size_t n = strlen(w);
   return len >= n && memcmp(s, w, n) == 0 && (len == n || s[n] == ' ');
}

static int str_is(struct wsp_str s, const char *w)
{
   return s.len == strlen(w) && memcmp(s.s, w, s.len) == 0;
}

/* A cursor over the current line, for the fixed forms. */
struct cur {
   const char *s;
   size_t      len, pos;
};

/* An unsigned decimal [0-9]+ at the cursor.  Returns 1 and advances,
   0 when there is no digit, -1 when the number exceeds 64 bits. */
static int cur_u64(struct cur *c, uint64_t *v)
{
   size_t i = c->pos;
   uint64_t x = 0;
   if (i >= c->len || !is_digit(c->s[i]))
      return 0;
   for (; i < c->len && is_digit(c->s[i]); i++) {
      unsigned d = (unsigned)(c->s[i] - '0');
      if (x > (UINT64_MAX - d) / 10)
         return -1;
      x = x * 10 + d;
   }
   c->pos = i;
   *v = x;
   return 1;
}

/* 0x[0-9a-f]+ at the cursor; same results as cur_u64. */
static int cur_hex(struct cur *c, uint64_t *v)
{
   size_t i = c->pos;
   uint64_t x = 0;
   if (i + 2 >= c->len || c->s[i] != '0' || c->s[i + 1] != 'x')
      return 0;
   i += 2;
   if (!is_digit(c->s[i]) && !(c->s[i] >= 'a' && c->s[i] <= 'f'))
      return 0;
   for (; i < c->len; i++) {
      char ch = c->s[i];
      unsigned d;
      if (is_digit(ch))
         d = (unsigned)(ch - '0');
      else if (ch >= 'a' && ch <= 'f')
         d = (unsigned)(ch - 'a' + 10);
      else
         break;
      if (x >> 60)
         return -1;
      x = x << 4 | d;
   }
   c->pos = i;
   *v = x;
   return 1;
}

/* An average with exactly one decimal, [0-9]+\.[0-9], in tenths. */
static int cur_avg(struct cur *c, uint64_t *tenths)
{
   uint64_t whole;
   int r = cur_u64(c, &whole);
   if (r <= 0)
      return r;
   if (c->pos + 1 >= c->len || c->s[c->pos] != '.'
       || !is_digit(c->s[c->pos + 1])
       || (c->pos + 2 < c->len && is_digit(c->s[c->pos + 2])))
      return 0;
   unsigned d = (unsigned)(c->s[c->pos + 1] - '0');
   if (whole > (UINT64_MAX - d) / 10)
      return -1;
   *tenths = whole * 10 + d;
   c->pos += 2;
   return 1;
}

/* The literal text lit at the cursor. */
static int cur_lit(struct cur *c, const char *lit)
{
   size_t n = strlen(lit);
   if (c->len - c->pos < n || memcmp(c->s + c->pos, lit, n) != 0)
      return 0;
   c->pos += n;
   return 1;
}

static int cur_end(const struct cur *c) { return c->pos == c->len; }

/* The rest of the line from the cursor. */
static struct wsp_str cur_rest(const struct cur *c)
{
   struct wsp_str r = { c->s + c->pos, c->len - c->pos };
   return r;
}

/* Why a label breaks the rules of docs/output-format.md (1 to 255
   bytes, no control characters, no leading, trailing or double
   spaces), or NULL. */
static const char *label_problem(struct wsp_str l)
{
   if (l.len == 0)
      return "the label is empty";
   if (l.len > 255)
      return "the label is longer than 255 bytes";
   if (l.s[0] == ' ' || l.s[l.len - 1] == ' ')
      return "the label starts or ends with a space";
   for (size_t i = 0; i < l.len; i++) {
      unsigned char ch = (unsigned char)l.s[i];
      if (ch < 0x20 || ch == 0x7f)
         return "the label contains a control character";
      if (ch == ' ' && i + 1 < l.len && l.s[i + 1] == ' ')
         return "the label contains two spaces in a row";
   }
   return NULL;
}

/* A number where the grammar wants one: r from cur_u64/cur_hex/cur_avg. */
static int num_fail(struct parser *p, int r, const char *what)
{
   if (r < 0)
      return fail(p, "a number is too large (more than 64 bits)");
   return fail(p, "%s", what);
}

/*------------------------------------------------------------*/
/*--- The version line and the header                      ---*/
/*------------------------------------------------------------*/

/* The header keys of format 2, in the order the format gives them. */
static const char *const header_keys[] = {
   "tool", "command", "pid", "ppid", "time-unit", "every", "tau",
   "pagesize", "syscalls", "per-thread", "instr-atstart", "columns"
};
#define N_HEADER_KEYS (sizeof header_keys / sizeof header_keys[0])

#define COLUMNS            "t insn data"
#define COLUMNS_PER_THREAD "t insn data shared {tid insn data}..."

static int check_version(struct parser *p)
{
   static const char want[] = "ws-output-format: 2";
   static const char key[] = "ws-output-format: ";
   struct wsp_str l = { p->line, p->len };
   if (str_is(l, want))
      return 0;
   if (l.len == sizeof want && memcmp(l.s, want, sizeof want - 1) == 0
       && l.s[l.len - 1] == '\r')
      return fail(p, "the lines end in CR LF; ws writes LF only");
   if (l.len > sizeof key - 1 && memcmp(l.s, key, sizeof key - 1) == 0) {
      size_t n = l.len - (sizeof key - 1);
      const char *v = l.s + sizeof key - 1;
      int printable = n <= 20;
      for (size_t i = 0; i < n && printable; i++)
         printable = v[i] > 0x20 && v[i] < 0x7f;
      if (printable)
         return fail(p, "format version %.*s; this ws_print reads "
                     "version %d only", (int)n, v, WSP_FORMAT_VERSION);
      return fail(p, "the format version is not a number");
   }
   if (word_is(l.s, l.len, "ws-dump-format:"))
      return fail(p, "this is a dump file (from 'ws dump FILE'), not an "
                  "output file");
   return fail(p, "not a ws output file: the first line is not "
               "'ws-output-format: %d'", WSP_FORMAT_VERSION);
}

/* Is the line a header line, key ": " value with key [a-z][a-z0-9-]*? */
static int header_line(const char *s, size_t len, struct wsp_header_kv *kv)
{
   size_t i = 0;
   if (len == 0 || !is_lower(s[0]))
      return 0;
   while (i < len && (is_lower(s[i]) || is_digit(s[i]) || s[i] == '-'))
      i++;
   if (i + 1 >= len || s[i] != ':' || s[i + 1] != ' ')
      return 0;
   kv->key.s = s;
   kv->key.len = i;
   kv->value.s = s + i + 2;
   kv->value.len = len - i - 2;
   return 1;
}

static int key_index(struct wsp_str k)
{
   for (size_t i = 0; i < N_HEADER_KEYS; i++)
      if (str_is(k, header_keys[i]))
         return (int)i;
   return -1;
}

static int yes_no(struct parser *p, struct wsp_str v, const char *key,
                  int *out)
{
   if (str_is(v, "yes"))
      *out = 1;
   else if (str_is(v, "no"))
      *out = 0;
   else
      return fail(p, "header %s: the value is not yes or no", key);
   return 0;
}

static int header_u64(struct parser *p, struct wsp_str v, const char *key,
                      int positive, uint64_t *out)
{
   struct cur c = { v.s, v.len, 0 };
   int r = cur_u64(&c, out);
   if (r < 0)
      return fail(p, "header %s: the number is too large (more than 64 "
                  "bits)", key);
   if (r == 0 || !cur_end(&c))
      return fail(p, "header %s: the value is not an integer", key);
   if (positive && *out == 0)
      return fail(p, "header %s: the value must be positive", key);
   return 0;
}

/* "ws" and a version x.y.z. */
static int tool_ok(struct wsp_str v)
{
   struct cur c = { v.s, v.len, 0 };
   uint64_t x;
   if (!cur_lit(&c, "ws "))
      return 0;
   for (int part = 0; part < 3; part++) {
      if (part && !cur_lit(&c, "."))
         return 0;
      if (cur_u64(&c, &x) == 0)
         return 0;
   }
   return cur_end(&c);
}

/* Check the header once it has ended, before line p->lineno; header
   lines are lines 2 .. 1 + n_hdr. */
static int check_header(struct parser *p)
{
   struct wsp_file *f = p->f;
   size_t body_line = p->lineno;
   const struct wsp_header_kv *have[N_HEADER_KEYS] = { 0 };
   size_t where[N_HEADER_KEYS] = { 0 };
   int last = -1;

   for (size_t i = 0; i < f->n_hdr; i++) {
      int k = key_index(f->hdr[i].key);
      if (k < 0)
         continue;                         /* keys we do not know: ignored */
      have[k] = &f->hdr[i];
      where[k] = i + 2;
      if (k < last) {
         p->lineno = i + 2;
         return fail(p, "header key '%s' comes after '%s'; the format "
                     "puts the keys in the order tool, command, pid, ppid, "
                     "time-unit, every, tau, pagesize, syscalls, "
                     "per-thread, instr-atstart, columns",
                     header_keys[k], header_keys[last]);
      }
      last = k;
   }
   char missing[200] = "";
   size_t n_missing = 0;
   for (size_t k = 0; k < N_HEADER_KEYS; k++)
      if (!have[k]) {
         size_t used = strlen(missing);
         snprintf(missing + used, sizeof missing - used, "%s%s",
                  n_missing++ ? ", " : "", header_keys[k]);
      }
   if (n_missing)
      return fail(p, "the header (which ends before this line) lacks "
                  "the key%s %s", n_missing > 1 ? "s" : "", missing);

#define V(k) (have[k]->value)
#define AT(k) (p->lineno = where[k])
   AT(0);
   if (!tool_ok(V(0)))
      return fail(p, "header tool: the value is not 'ws VERSION'");
   f->tool = V(0);
   f->command = V(1);
   if (AT(2), header_u64(p, V(2), "pid", 0, &f->pid)
       || (AT(3), header_u64(p, V(3), "ppid", 0, &f->ppid)))
      return -1;
   AT(4);
   if (str_is(V(4), "ms"))
      f->ms = 1;
   else if (!str_is(V(4), "i"))
      return fail(p, "header time-unit: the value is not i or ms");
   if ((AT(5), header_u64(p, V(5), "every", 1, &f->every))
       || (AT(6), header_u64(p, V(6), "tau", 1, &f->tau))
       || (AT(7), header_u64(p, V(7), "pagesize", 1, &f->pagesize)))
      return -1;
   if (f->pagesize & (f->pagesize - 1))
      return fail(p, "header pagesize: %llu is not a power of two",
                  (unsigned long long)f->pagesize);
   if ((AT(8), yes_no(p, V(8), "syscalls", &f->syscalls))
       || (AT(9), yes_no(p, V(9), "per-thread", &f->per_thread))
       || (AT(10), yes_no(p, V(10), "instr-atstart", &f->instr_atstart)))
      return -1;
   AT(11);
   if (!str_is(V(11), f->per_thread ? COLUMNS_PER_THREAD : COLUMNS))
      return fail(p, "header columns: the value is not '%s' (as "
                  "per-thread: %s requires)",
                  f->per_thread ? COLUMNS_PER_THREAD : COLUMNS,
                  f->per_thread ? "yes" : "no");
#undef V
#undef AT
   p->lineno = body_line;
   f->have_header = 1;
   return 0;
}

/*------------------------------------------------------------*/
/*--- Body lines                                           ---*/
/*------------------------------------------------------------*/

/* Capacities of the growing arrays. */
struct caps {
   size_t hdr, samples, thr, events, dumps, regions;
};

/* Where the body is: samples and events, a dump block, the trailer. */
enum state { S_BODY, S_DUMP, S_REGIONS, S_SUMMARY, S_SAMPLES, S_END };

struct body {
   enum state state;
   uint64_t   last_t;           /* of the latest sample, event or dump */
   int        any_t;            /* last_t is set */
   uint64_t   last_sample_t;
   int        any_sample;
   int        dump_due;         /* the line before was `event T dump label` */
   /* the dump block being read */
   struct wsp_dump dump;
   uint64_t   n_insn, n_data;
   uint64_t   last_addr;
   int        any_addr, in_data;
};

static int sample_line(struct parser *p, struct body *b, struct caps *cap)
{
   struct wsp_file *f = p->f;
   struct cur c = { p->line, p->len, 0 };
   uint64_t v[4];
   size_t n = 0;
   struct wsp_sample s;

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
            if (grow(&f->thr, &cap->thr, f->n_thr, sizeof *f->thr))
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
   if (grow(&f->samples, &cap->samples, f->n_samples, sizeof *f->samples))
      return fail(p, "out of memory");
   f->samples[f->n_samples++] = s;
   b->last_t = b->last_sample_t = s.t;
   b->any_t = b->any_sample = 1;
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
      const char *why;
      e.kind = WSP_EV_MARK;
      e.text = a1;
      if (nargs == 0)
         return fail(p, "a mark event needs a label");
      if ((why = label_problem(a1)))
         return fail(p, "mark: %s", why);
   } else if (str_is(kind, "dump")) {
      const char *why;
      if (word_is(a1.s, a1.len, "label") && nargs >= 2) {
         e.kind = WSP_EV_DUMP_LABEL;
         e.text.s = a1.s + 6;
         e.text.len = a1.len - 6;
         if ((why = label_problem(e.text)))
            return fail(p, "dump label: %s", why);
      } else if (word_is(a1.s, a1.len, "file") && nargs >= 2) {
         e.kind = WSP_EV_DUMP_FILE;
         e.text.s = a1.s + 5;
         e.text.len = a1.len - 5;
      } else if (str_is(a1, "monitor")) {
         e.kind = WSP_EV_DUMP_MONITOR;
      } else {
         return fail(p, "a dump event is 'dump label LABEL', 'dump file "
                     "PATH' or 'dump monitor'");
      }
   } else {
      e.kind = WSP_EV_OTHER;        /* readers skip kinds they do not know */
      e.text.s = kind.s;
      e.text.len = p->len - (size_t)(kind.s - p->line);
   }
   if (b->any_t && e.t < b->last_t)
      return fail(p, "the event is earlier than the line before it "
                  "(at %llu)", (unsigned long long)b->last_t);
   if (grow(&f->events, &cap->events, f->n_events, sizeof *f->events))
      return fail(p, "out of memory");
   f->events[f->n_events++] = e;
   b->last_t = e.t;
   b->any_t = 1;
   if (e.kind == WSP_EV_DUMP_LABEL) {
      b->dump_due = 1;
      memset(&b->dump, 0, sizeof b->dump);
      b->dump.t = e.t;
      b->dump.label = e.text;
   }
   return 0;
}

static int dump_begin_line(struct parser *p, struct body *b)
{
   struct cur c = { p->line, p->len, 0 };
   uint64_t t;
   int r;
   cur_lit(&c, "dump-begin ");
   if ((r = cur_u64(&c, &t)) <= 0 || !cur_end(&c))
      return num_fail(p, r < 0 ? r : 0, "expected 'dump-begin T'");
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

static int dump_line(struct parser *p, struct body *b, struct caps *cap)
{
   struct wsp_file *f = p->f;
   struct cur c = { p->line, p->len, 0 };
   uint64_t addr, since, ni, nd;
   int r;

   if (cur_lit(&c, "dump-page ")) {
      static const char form[] = "a dump page is 'dump-page insn|data "
                                 "0xADDRESS SINCE'";
      int data;
      if (cur_lit(&c, "insn "))
         data = 0;
      else if (cur_lit(&c, "data "))
         data = 1;
      else
         return fail(p, "%s", form);
      if ((r = cur_hex(&c, &addr)) <= 0 || !cur_lit(&c, " ")
          || (r = cur_u64(&c, &since)) <= 0 || !cur_end(&c))
         return num_fail(p, r < 0 ? r : 0, form);
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
      if (grow(&f->dumps, &cap->dumps, f->n_dumps, sizeof *f->dumps))
         return fail(p, "out of memory");
      f->dumps[f->n_dumps++] = b->dump;
      b->state = S_BODY;
      return 0;
   }
   return fail(p, "inside a dump block only 'dump-page' lines and "
               "'dump-end' may appear");
}

/* " AVG PEAK TOTAL" */
static int apt(struct cur *c, struct wsp_apt *a)
{
   int r = 0;
   if (cur_lit(c, " ") && (r = cur_avg(c, &a->avg10)) > 0
       && cur_lit(c, " ") && (r = cur_u64(c, &a->peak)) > 0
       && cur_lit(c, " ") && (r = cur_u64(c, &a->total)) > 0)
      return 1;
   return r < 0 ? -1 : 0;
}

static int region_line(struct parser *p, struct caps *cap)
{
   struct wsp_file *f = p->f;
   struct cur c = { p->line, p->len, 0 };
   struct wsp_region g;
   static const char form[] = "a region line is 'region N SAMPLES insn "
                              "AVG PEAK TOTAL data AVG PEAK TOTAL label "
                              "LABEL', AVG with one decimal";
   int r = 0;
   const char *why;

   memset(&g, 0, sizeof g);
   cur_lit(&c, "region ");
   if ((r = cur_u64(&c, &g.regions)) <= 0 || !cur_lit(&c, " ")
       || (r = cur_u64(&c, &g.samples)) <= 0 || !cur_lit(&c, " insn")
       || (r = apt(&c, &g.insn)) <= 0 || !cur_lit(&c, " data")
       || (r = apt(&c, &g.data)) <= 0 || !cur_lit(&c, " label "))
      return num_fail(p, r < 0 ? r : 0, form);
   g.label = cur_rest(&c);
   if ((why = label_problem(g.label)))
      return fail(p, "region: %s", why);
   for (size_t i = 0; i < f->n_regions; i++)
      if (f->regions[i].label.len == g.label.len
          && memcmp(f->regions[i].label.s, g.label.s, g.label.len) == 0)
         return fail(p, "a second region line for the same label");
   if (grow(&f->regions, &cap->regions, f->n_regions, sizeof *f->regions))
      return fail(p, "out of memory");
   f->regions[f->n_regions++] = g;
   return 0;
}

static int summary_line(struct parser *p)
{
   struct wsp_file *f = p->f;
   struct cur c = { p->line, p->len, 0 };
   struct wsp_apt a;
   int data, r = 0;
   static const char form[] = "a summary line is 'summary insn|data AVG "
                              "PEAK TOTAL', AVG with one decimal";
   cur_lit(&c, "summary ");
   if (cur_lit(&c, "insn"))
      data = 0;
   else if (cur_lit(&c, "data"))
      data = 1;
   else
      return fail(p, "%s", form);
   if ((r = apt(&c, &a)) <= 0 || !cur_end(&c))
      return num_fail(p, r < 0 ? r : 0, form);
   if (data ? f->have_data_summary : f->have_insn_summary)
      return fail(p, "a second 'summary %s' line", data ? "data" : "insn");
   if (data) {
      f->data_summary = a;
      f->have_data_summary = 1;
   } else {
      f->insn_summary = a;
      f->have_insn_summary = 1;
   }
   return 0;
}

static int samples_line(struct parser *p)
{
   struct wsp_file *f = p->f;
   struct cur c = { p->line, p->len, 0 };
   int r;
   cur_lit(&c, "samples ");
   if ((r = cur_u64(&c, &f->trailer_samples)) <= 0 || !cur_end(&c))
      return num_fail(p, r < 0 ? r : 0, "expected 'samples N'");
   if (f->trailer_samples != f->n_samples)
      return fail(p, "the trailer says %llu samples, the file has %zu",
                  (unsigned long long)f->trailer_samples, f->n_samples);
   return 0;
}

/* One line of the body or the trailer. */
static int body_line(struct parser *p, struct body *b, struct caps *cap)
{
   const char *s = p->line;
   size_t len = p->len;

   if (b->state == S_DUMP)
      return dump_line(p, b, cap);
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
   if (word_is(s, len, "summary")) {
      b->state = S_SUMMARY;
      return summary_line(p);
   }
   if (word_is(s, len, "samples")) {
      b->state = S_SAMPLES;
      return samples_line(p);
   }
   if (b->state == S_SUMMARY)
      return fail(p, "only summary lines or 'samples N' may follow a "
                  "summary line");
   if (word_is(s, len, "region")) {
      b->state = S_REGIONS;
      return region_line(p, cap);
   }
   if (b->state == S_REGIONS)
      return fail(p, "only region, summary and 'samples N' lines may "
                  "follow a region line");
   /* S_BODY */
   if (len && is_digit(s[0]))
      return sample_line(p, b, cap);
   if (len && s[0] == '#') {
      p->f->n_comments++;
      return 0;
   }
   if (word_is(s, len, "event"))
      return event_line(p, b, cap);
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

/*------------------------------------------------------------*/
/*--- The whole file                                       ---*/
/*------------------------------------------------------------*/

int wsp_parse(const char *buf, size_t len, struct wsp_file *f,
              struct wsp_error *err)
{
   struct parser p;
   struct caps cap;
   struct body b;
   size_t pos = 0;
   int in_header = 1;

   memset(f, 0, sizeof *f);
   memset(err, 0, sizeof *err);
   memset(&cap, 0, sizeof cap);
   memset(&b, 0, sizeof b);
   f->trailer_samples = WSP_NONE;
   p.f = f;
   p.err = err;
   p.lineno = 0;

   if (len == 0) {
      p.lineno = 1;
      return fail(&p, "the file is empty");
   }
   while (pos < len) {
      const char *nl = memchr(buf + pos, '\n', len - pos);
      size_t end = nl ? (size_t)(nl - buf) : len;
      p.lineno++;
      p.line = buf + pos;
      p.len = end - pos;
      pos = end + 1;
      if (!nl) {
         /* A last line without its newline: `end` may lack it (the
            grammar puts none after it); anything else may be half
            written, so it is left out. */
         if (!(b.state == S_SAMPLES && p.len == 3
               && memcmp(p.line, "end", 3) == 0)) {
            f->cut_line = 1;
            p.lineno--;
            break;
         }
      }
      f->n_lines = p.lineno;
      if (p.lineno == 1) {
         if (check_version(&p))
            return -1;
         continue;
      }
      if (in_header) {
         struct wsp_header_kv kv;
         if (header_line(p.line, p.len, &kv)) {
            for (size_t i = 0; i < f->n_hdr; i++)
               if (f->hdr[i].key.len == kv.key.len
                   && memcmp(f->hdr[i].key.s, kv.key.s, kv.key.len) == 0)
                  return fail(&p, "header key '%.*s' given twice",
                              (int)kv.key.len, kv.key.s);
            if (grow(&f->hdr, &cap.hdr, f->n_hdr, sizeof *f->hdr))
               return fail(&p, "out of memory");
            f->hdr[f->n_hdr++] = kv;
            continue;
         }
         in_header = 0;
         if (check_header(&p))
            return -1;
      }
      if (body_line(&p, &b, &cap))
         return -1;
   }

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
   free(f->hdr);
   free(f->samples);
   free(f->thr);
   free(f->events);
   free(f->dumps);
   free(f->regions);
   memset(f, 0, sizeof *f);
}

/*--------------------------------------------------------------------*/
/*--- end                                              wsp_parse.c ---*/
/*--------------------------------------------------------------------*/

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

/* Owns the grammar of docs/output-format.md, versions 4, 3 and 2, and
   nothing else (the heap usage lines of version 4 are read by
   wsp_heap.c): it checks every line and records what the printers need; it
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
   follow the grammar.  wsp_file.complete tells the two apart.

   Version 2 files (from an older ws) are read as that version's
   grammar: the same lines but the dump-page form "dump-page KIND
   0xADDR SINCE" and none of the lines version 3 added.  Version 3
   files have their peaks as events in the body; version 4 files list
   them in the trailer, mark final samples and add the heap-site and
   heap-window lines. */

#include <limits.h>
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

int wsp_grow(void *arr, size_t *cap, size_t n, size_t sz)
{
   return grow(arr, cap, n, sz);
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

/* "insn" (0) or "data" (1) at the cursor, or -1 for neither. */
static int cur_kind(struct cur *c)
{
   if (cur_lit(c, "insn"))
      return 0;
   if (cur_lit(c, "data"))
      return 1;
   return -1;
}

static int cur_end(const struct cur *c) { return c->pos == c->len; }

/* The rest of the line from the cursor. */
static struct wsp_str cur_rest(const struct cur *c)
{
   struct wsp_str r = { c->s + c->pos, c->len - c->pos };
   return r;
}

/* Why text that runs to the end of its line (a label, a function
   name, a symbol, a path) breaks the rules of docs/output-format.md
   (not empty, no control characters, no leading, trailing or double
   spaces), or NULL.  what names it in the message. */
static const char *text_problem(struct wsp_str l, const char *what,
                                char *buf, size_t n)
{
   const char *why = NULL;
   if (l.len == 0)
      why = "is empty";
   else if (l.s[0] == ' ' || l.s[l.len - 1] == ' ')
      why = "starts or ends with a space";
   for (size_t i = 0; i < l.len && !why; i++) {
      unsigned char ch = (unsigned char)l.s[i];
      if (ch < 0x20 || ch == 0x7f)
         why = "contains a control character";
      else if (ch == ' ' && i + 1 < l.len && l.s[i + 1] == ' ')
         why = "contains two spaces in a row";
   }
   if (!why)
      return NULL;
   snprintf(buf, n, "the %s %s", what, why);
   return buf;
}

/* Version 4 escapes every string (docs/output-format.md, "Escaping"):
   a backslash starts "\\" (a backslash) or "\xHH" (the byte HH).
   decode() replaces *s, whose raw text was checked against its line's
   grammar, by what it stands for, in memory the file keeps. */
struct wsp_chunk {
   struct wsp_chunk *next;
   char              bytes[];
};

static int hex_value(char c)
{
   return is_digit(c) ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static int decode(struct parser *p, struct wsp_str *s)
{
   if (p->f->version < 4 || s->len == 0 || !memchr(s->s, '\\', s->len))
      return 0;
   struct wsp_chunk *ch = malloc(sizeof *ch + s->len);
   size_t n = 0;
   if (!ch)
      return fail(p, "out of memory");
   for (size_t i = 0; i < s->len; i++) {
      if (s->s[i] != '\\') {
         ch->bytes[n++] = s->s[i];
      } else if (i + 1 < s->len && s->s[i + 1] == '\\') {
         ch->bytes[n++] = '\\';
         i++;
      } else if (i + 3 < s->len && s->s[i + 1] == 'x'
                 && hex_value(s->s[i + 2]) >= 0
                 && hex_value(s->s[i + 3]) >= 0) {
         ch->bytes[n++] = (char)(hex_value(s->s[i + 2]) * 16
                                 + hex_value(s->s[i + 3]));
         i += 3;
      } else {
         free(ch);
         return fail(p, "a backslash starts neither \\\\ nor \\xHH (two "
                     "lower-case hex digits)");
      }
   }
   ch->next = p->f->arena;
   p->f->arena = ch;
   s->s = ch->bytes;
   s->len = n;
   return 0;
}

/* A label (what names it in the message): text to the end of its line,
   at most 255 bytes once decoded. */
static int label_text(struct parser *p, struct wsp_str *l, const char *what)
{
   char wb[80];
   const char *why = text_problem(*l, "label", wb, sizeof wb);
   if (why)
      return fail(p, "%s: %s", what, why);
   if (decode(p, l))
      return -1;
   if (l->len > 255)
      return fail(p, "%s: the label is longer than 255 bytes", what);
   return 0;
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

/* The header keys, in the order the format gives them; count-rep is
   version 4's (an older file's is an unknown key, ignored). */
static const char *const header_keys[] = {
   "tool", "command", "pid", "ppid", "time-unit", "every", "tau",
   "pagesize", "syscalls", "per-thread", "instr-atstart", "count-rep",
   "columns"
};
#define N_HEADER_KEYS (sizeof header_keys / sizeof header_keys[0])
#define KEY_COUNT_REP 11

#define COLUMNS            "t insn data"
#define COLUMNS_PER_THREAD "t insn data shared {tid insn data}..."

static int check_version(struct parser *p)
{
   static const char key[] = "ws-output-format: ";
   struct wsp_str l = { p->line, p->len };
   if (l.len > sizeof key - 1 && memcmp(l.s, key, sizeof key - 1) == 0) {
      size_t n = l.len - (sizeof key - 1);
      const char *v = l.s + sizeof key - 1;
      int printable = n <= 20;
      if (n == 1 && v[0] >= '0' + WSP_FORMAT_OLDEST
          && v[0] <= '0' + WSP_FORMAT_VERSION) {
         p->f->version = v[0] - '0';
         return 0;
      }
      if (n == 2 && v[0] >= '0' + WSP_FORMAT_OLDEST
          && v[0] <= '0' + WSP_FORMAT_VERSION && v[1] == '\r')
         return fail(p, "the lines end in CR LF; ws writes LF only");
      for (size_t i = 0; i < n && printable; i++)
         printable = v[i] > 0x20 && v[i] < 0x7f;
      if (printable)
         return fail(p, "format version %.*s; this ws_print reads "
                     "versions %d to %d", (int)n, v, WSP_FORMAT_OLDEST,
                     WSP_FORMAT_VERSION);
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
      if (k < 0 || (k == KEY_COUNT_REP && f->version < 4))
         continue;                         /* keys we do not know: ignored */
      have[k] = &f->hdr[i];
      where[k] = i + 2;
      if (k < last) {
         p->lineno = i + 2;
         return fail(p, "header key '%s' comes after '%s'; the format "
                     "puts the keys in the order tool, command, pid, ppid, "
                     "time-unit, every, tau, pagesize, syscalls, "
                     "per-thread, instr-atstart, count-rep, columns",
                     header_keys[k], header_keys[last]);
      }
      last = k;
   }
   char missing[200] = "";
   size_t n_missing = 0;
   for (size_t k = 0; k < N_HEADER_KEYS; k++)
      if (!have[k] && (k != KEY_COUNT_REP || f->version >= 4)) {
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
   if ((AT(1), decode(p, &f->command)))
      return -1;
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
   if (f->version >= 4) {
      AT(KEY_COUNT_REP);
      if (str_is(V(KEY_COUNT_REP), "each"))
         f->count_rep_each = 1;
      else if (!str_is(V(KEY_COUNT_REP), "once"))
         return fail(p, "header count-rep: the value is not once or each");
   }
   AT(12);
   if (!str_is(V(12), f->per_thread ? COLUMNS_PER_THREAD : COLUMNS))
      return fail(p, "header columns: the value is not '%s' (as "
                  "per-thread: %s requires)",
                  f->per_thread ? COLUMNS_PER_THREAD : COLUMNS,
                  f->per_thread ? "yes" : "no");
#undef V
#undef AT
   f->heap_usage = -1;
   for (size_t i = 0; i < f->n_hdr; i++)
      if (str_is(f->hdr[i].key, "heap-usage")) {
         p->lineno = i + 2;
         if (yes_no(p, f->hdr[i].value, "heap-usage", &f->heap_usage))
            return -1;
      }
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
   size_t stacks, frames, peaks, owners, hot, region_labels;
   size_t heap_sites, heap_windows;
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


/*------------------------------------------------------------*/
/*--- Version 3: stacks, owners, peaks, hot pages          ---*/
/*------------------------------------------------------------*/

static size_t hash_id(uint64_t id)
{
   id ^= id >> 33;
   id *= 0xff51afd7ed558ccdULL;
   id ^= id >> 33;
   return (size_t)id;
}

size_t wsp_stack_find(const struct wsp_file *f, uint64_t id)
{
   if (f->n_stack_slot == 0)
      return SIZE_MAX;
   for (size_t i = hash_id(id) & (f->n_stack_slot - 1);;
        i = (i + 1) & (f->n_stack_slot - 1)) {
      size_t v = f->stack_slot[i];
      if (v == 0)
         return SIZE_MAX;
      if (f->stacks[v - 1].id == id)
         return v - 1;
   }
}

static void slot_put(struct wsp_file *f, size_t idx)
{
   size_t i = hash_id(f->stacks[idx].id) & (f->n_stack_slot - 1);
   while (f->stack_slot[i])
      i = (i + 1) & (f->n_stack_slot - 1);
   f->stack_slot[i] = idx + 1;
}

/* Index f->stacks[idx], the newest stack; at most half the slots are
   used, so that stack_find always meets an empty one. */
static int stack_index(struct wsp_file *f, size_t idx)
{
   if ((idx + 1) * 2 > f->n_stack_slot) {
      size_t n = f->n_stack_slot ? f->n_stack_slot * 2 : 64;
      if (n < f->n_stack_slot || n > SIZE_MAX / sizeof *f->stack_slot)
         return -1;
      size_t *slot = calloc(n, sizeof *slot);
      if (!slot)
         return -1;
      free(f->stack_slot);
      f->stack_slot = slot;
      f->n_stack_slot = n;
      for (size_t i = 0; i < idx; i++)
         slot_put(f, i);
   }
   slot_put(f, idx);
   return 0;
}

/* A stack id that a line refers to: defined before, in this file. */
static int stack_ref(struct parser *p, uint64_t id, size_t *idx)
{
   *idx = wsp_stack_find(p->f, id);
   if (*idx == SIZE_MAX)
      return fail(p, "stack %llu is not defined before this line",
                  (unsigned long long)id);
   return 0;
}

/* Is this a location: FILE:LINE (no blank), (OBJECT) or ???  */
static int location_ok(struct wsp_str l)
{
   size_t colon = SIZE_MAX;
   for (size_t i = 0; i < l.len; i++) {
      if (l.s[i] == ' ')
         return 0;
      if (l.s[i] == ':')
         colon = i;
   }
   if (str_is(l, "???"))
      return 1;
   if (l.len >= 3 && l.s[0] == '(' && l.s[l.len - 1] == ')')
      return 1;
   if (colon == SIZE_MAX || colon == 0 || colon + 1 == l.len)
      return 0;
   for (size_t i = colon + 1; i < l.len; i++)
      if (!is_digit(l.s[i]))
         return 0;
   return 1;
}

/* "IP LOCATION FUNCTION" from the cursor to the end of the line. */
static int cur_where(struct parser *p, struct cur *c, struct wsp_where *w,
                     const char *form)
{
   char wb[80];
   const char *why;
   int r = cur_hex(c, &w->ip);
   if (r <= 0 || !cur_lit(c, " "))
      return num_fail(p, r < 0 ? r : 0, form);
   size_t l0 = c->pos;
   while (c->pos < c->len && c->s[c->pos] != ' ')
      c->pos++;
   w->loc.s = c->s + l0;
   w->loc.len = c->pos - l0;
   if (!location_ok(w->loc))
      return fail(p, "the location is not FILE:LINE, (OBJECT) or ???");
   if (!cur_lit(c, " "))
      return fail(p, "%s", form);
   w->fn = cur_rest(c);
   if ((why = text_problem(w->fn, "function name", wb, sizeof wb)))
      return fail(p, "%s", why);
   return decode(p, &w->loc) || decode(p, &w->fn) ? -1 : 0;
}

static int stack_begin_line(struct parser *p, struct body *b,
                            struct caps *cap)
{
   struct wsp_file *f = p->f;
   struct cur c = { p->line, p->len, 0 };
   struct wsp_stack st;
   uint64_t n;
   int r;
   cur_lit(&c, "stack ");
   if ((r = cur_u64(&c, &st.id)) <= 0 || !cur_lit(&c, " ")
       || (r = cur_u64(&c, &n)) <= 0 || !cur_end(&c))
      return num_fail(p, r < 0 ? r : 0, "a stack block begins 'stack ID "
                      "N'");
   if (st.id == 0 || n == 0)
      return fail(p, "stack ids and line counts start at 1");
   if (wsp_stack_find(f, st.id) != SIZE_MAX)
      return fail(p, "stack %llu is defined twice",
                  (unsigned long long)st.id);
   if (grow(&f->stacks, &cap->stacks, f->n_stacks, sizeof *f->stacks))
      return fail(p, "out of memory");
   st.first = f->n_frames;
   st.n = 0;
   f->stacks[f->n_stacks] = st;
   b->lines_due = n;
   b->in_stack = 1;
   return 0;
}

static int frame_line(struct parser *p, struct body *b, struct caps *cap)
{
   struct wsp_file *f = p->f;
   struct cur c = { p->line, p->len, 0 };
   struct wsp_frame fr;
   struct wsp_stack *st = &f->stacks[f->n_stacks];

   if (cur_lit(&c, "frame "))
      fr.inl = 0;
   else if (cur_lit(&c, "inline "))
      fr.inl = 1;
   else
      return fail(p, "stack %llu needs %zu more 'frame' or 'inline' "
                  "line(s)", (unsigned long long)st->id, b->lines_due);
   if (cur_where(p, &c, &fr.w, "a stack line is 'frame|inline 0xIP "
                 "LOCATION FUNCTION'"))
      return -1;
   if (st->n && f->frames[f->n_frames - 1].inl
       && f->frames[f->n_frames - 1].w.ip != fr.w.ip)
      return fail(p, "an inline line has the ip of the line after it");
   if (grow(&f->frames, &cap->frames, f->n_frames, sizeof *f->frames))
      return fail(p, "out of memory");
   f->frames[f->n_frames++] = fr;
   st->n++;
   if (--b->lines_due == 0) {
      if (fr.inl)
         return fail(p, "a stack ends with a frame line (an inline line is "
                     "followed by its caller's line)");
      b->in_stack = 0;
      if (stack_index(f, f->n_stacks))
         return fail(p, "out of memory");
      f->n_stacks++;
   }
   return 0;
}

/* An owner from the cursor to the end of the line.  rest_ok: `rest`
   is allowed (a peak's owner lines); block_ok: a heap owner may name
   its block. */
static int cur_owner(struct parser *p, struct cur *c,
                     struct wsp_owner *o, int rest_ok, int block_ok)
{
   static const char form[] = "an owner is 'heap ID [0xBLOCK SIZE]', "
                              "'freed ID [0xBLOCK SIZE]', 'heap-other', "
                              "'global SYMBOL', 'stack TID', 'file PATH', "
                              "'anon', 'unknown' or 'code OBJECT FUNCTION'";
   char wb[80];
   const char *why;
   uint64_t id;
   int r = 0;

   memset(o, 0, sizeof *o);
   o->text = cur_rest(c);
   o->block = o->size = WSP_NONE;
   if (cur_lit(c, "heap-other") && cur_end(c)) {
      o->kind = WSP_OWN_HEAP_OTHER;
   } else if (c->pos = o->text.s - c->s, cur_lit(c, "heap ")
              || (p->f->version >= 4 && cur_lit(c, "freed "))) {
      o->kind = o->text.s[0] == 'h' ? WSP_OWN_HEAP : WSP_OWN_FREED;
      if ((r = cur_u64(c, &id)) <= 0)
         return num_fail(p, r, form);
      if (!cur_end(c)) {
         if (!cur_lit(c, " ") || (r = cur_hex(c, &o->block)) <= 0
             || !cur_lit(c, " ") || (r = cur_u64(c, &o->size)) <= 0
             || !cur_end(c))
            return num_fail(p, r < 0 ? r : 0, form);
         if (!block_ok)
            return fail(p, "a peak's heap owners are summed by allocation "
                        "stack: '%s ID' without a block",
                        o->kind == WSP_OWN_HEAP ? "heap" : "freed");
      }
      if (stack_ref(p, id, &o->stack))
         return -1;
   } else if (str_is(o->text, "anon")) {
      o->kind = WSP_OWN_ANON;
   } else if (str_is(o->text, "unknown")) {
      o->kind = WSP_OWN_UNKNOWN;
   } else if (str_is(o->text, "rest")) {
      if (!rest_ok)
         return fail(p, "'rest' is only the owner of a peak's owner line");
      o->kind = WSP_OWN_REST;
   } else if (cur_lit(c, "stack ")) {
      o->kind = WSP_OWN_STACK;
      if ((r = cur_u64(c, &o->tid)) <= 0 || !cur_end(c))
         return num_fail(p, r < 0 ? r : 0, form);
   } else if (p->f->version >= 4 && cur_lit(c, "code ")) {
      size_t o0 = c->pos;
      o->kind = WSP_OWN_CODE;
      while (c->pos < c->len && c->s[c->pos] != ' ')
         c->pos++;
      o->object.s = c->s + o0;
      o->object.len = c->pos - o0;
      if (o->object.len == 0 || !cur_lit(c, " "))
         return fail(p, "%s", form);
      o->name = cur_rest(c);
      if ((why = text_problem(o->name, "function name", wb, sizeof wb)))
         return fail(p, "%s", why);
   } else if (cur_lit(c, "global ") || cur_lit(c, "file ")) {
      int global = o->text.s[0] == 'g';
      o->kind = global ? WSP_OWN_GLOBAL : WSP_OWN_FILE;
      o->name = cur_rest(c);
      if ((why = text_problem(o->name, global ? "symbol" : "path", wb,
                              sizeof wb)))
         return fail(p, "%s", why);
      if (decode(p, &o->name) || decode(p, &o->text))
         return -1;
   } else {
      return fail(p, "%s", form);
   }
   return 0;
}

/* The owner lines of the open peak are over: check their sum. */
static int close_peak(struct parser *p, struct body *b)
{
   const struct wsp_file *f = p->f;
   if (!b->peak_open)
      return 0;
   b->peak_open = 0;
   const struct wsp_peak *pk = &f->peaks[b->open_peak];
   /* version 4: the peak's own working set, of its kind */
   uint64_t total = f->version >= 4 ? pk->size : b->last_data;
   uint64_t sum = 0;
   if (f->version >= 4 && (pk->why & WSP_WHY_REGION) && pk->reg_n == 0)
      return fail(p, "peak %zu is a region's largest sample: "
                  "'peak-region' lines name the regions", b->open_peak);
   for (size_t i = 0; i < pk->own_n; i++) {
      uint64_t pages = f->owners[pk->own_first + i].pages;
      if (pages > total - sum)              /* would pass the total */
         return fail(p, "the owner lines of peak %zu add up to more than "
                     "its %llu pages", b->open_peak,
                     (unsigned long long)total);
      sum += pages;
   }
   if (sum != total)
      return fail(p, "the owner lines of peak %zu add up to %llu pages, the "
                  "peak has %llu", b->open_peak, (unsigned long long)sum,
                  (unsigned long long)total);
   return 0;
}

/* The arguments of `event T peak N KIND SIZE STACK` (a1: after "peak "). */
static int peak_event(struct parser *p, struct body *b, struct caps *cap,
                      struct wsp_event *e, struct wsp_str a1)
{
   struct wsp_file *f = p->f;
   struct cur c = { a1.s, a1.len, 0 };
   static const char form[] = "a peak event is 'event T peak N insn|data "
                              "SIZE STACK'";
   struct wsp_peak pk;
   uint64_t n, sid;
   int r;

   memset(&pk, 0, sizeof pk);
   if ((r = cur_u64(&c, &n)) <= 0)
      return num_fail(p, r, form);
   if (!cur_lit(&c, " ") || (pk.data = cur_kind(&c)) < 0
       || !cur_lit(&c, " "))
      return fail(p, "%s", form);
   if ((r = cur_u64(&c, &pk.size)) <= 0 || !cur_lit(&c, " ")
       || (r = cur_u64(&c, &sid)) <= 0 || !cur_end(&c))
      return num_fail(p, r < 0 ? r : 0, form);
   if (n > f->n_peaks)
      return fail(p, "peaks are numbered from 0 in file order: this one "
                  "should be at most %zu", f->n_peaks);
   if (n < f->n_peaks) {
      /* the peak goes on, larger; only the latest of its kind can */
      if (b->latest[pk.data] != n + 1)
         return fail(p, "peak %llu is not the latest %s peak",
                     (unsigned long long)n, pk.data ? "data" : "insn");
      if (pk.size <= f->peaks[n].size)
         return fail(p, "a peak's event comes again only when the peak is "
                     "larger (it was %llu)",
                     (unsigned long long)f->peaks[n].size);
   }
   if (!b->at_sample || e->t != b->last_sample_t)
      return fail(p, "a peak event follows the sample it flags, at the "
                  "same time");
   if (pk.size != (pk.data ? b->last_data : b->last_insn))
      return fail(p, "the peak's size is not its sample's %s column (%llu)",
                  pk.data ? "data" : "insn",
                  (unsigned long long)(pk.data ? b->last_data
                                               : b->last_insn));
   if (stack_ref(p, sid, &pk.stack))
      return -1;
   pk.t = e->t;
   pk.own_first = f->n_owners;
   pk.line = p->lineno;
   if (n == f->n_peaks) {
      if (grow(&f->peaks, &cap->peaks, f->n_peaks, sizeof *f->peaks))
         return fail(p, "out of memory");
      f->n_peaks++;
   }
   f->peaks[n] = pk;
   e->kind = WSP_EV_PEAK;
   e->num = n;
   b->open_peak = (size_t)n;
   b->latest[pk.data] = (size_t)n + 1;
   b->peak_open = 1;
   b->windows_first = f->n_heap_windows;
   return 0;
}

/* `heap-window PEAK STACK live N window N` after the owner lines of
   the open peak (version 4). */
static int heap_window_line(struct parser *p, struct body *b,
                            struct caps *cap)
{
   struct wsp_file *f = p->f;
   char why[200];
   if (!b->peak_open)
      return fail(p, "heap-window lines follow the owner lines of their "
                  "peak");
   if (wsp_heap_window_line(f, p->line, p->len, b->open_peak,
                            &cap->heap_windows, why, sizeof why))
      return fail(p, "%s", why);
   for (size_t i = b->windows_first; i + 1 < f->n_heap_windows; i++)
      if (f->heap_windows[i].stack
          == f->heap_windows[f->n_heap_windows - 1].stack)
         return fail(p, "a second heap-window line for the same owner");
   return 0;
}

/* The sample at time t (times increase), or NULL. */
static const struct wsp_sample *sample_at(const struct wsp_file *f,
                                          uint64_t t)
{
   size_t lo = 0, hi = f->n_samples;
   while (lo < hi) {
      size_t mid = lo + (hi - lo) / 2;
      if (f->samples[mid].t < t)
         lo = mid + 1;
      else
         hi = mid;
   }
   return lo < f->n_samples && f->samples[lo].t == t ? &f->samples[lo]
                                                    : NULL;
}

/* `peak N KIND T SIZE BASELINE WHY rise|sample STACK OWN`: a version 4
   peak, in the trailer. */
static int peak_line(struct parser *p, struct body *b, struct caps *cap)
{
   struct wsp_file *f = p->f;
   struct cur c = { p->line, p->len, 0 };
   static const char form[] = "a peak line is 'peak N insn|data T SIZE "
                              "BASELINE WHY rise|sample STACK OWN'";
   static const char *const reasons[] = { "largest", "region", "detected" };
   struct wsp_peak pk;
   uint64_t n, sid, own;
   int r;

   memset(&pk, 0, sizeof pk);
   cur_lit(&c, "peak ");
   if ((r = cur_u64(&c, &n)) <= 0 || !cur_lit(&c, " "))
      return num_fail(p, r < 0 ? r : 0, form);
   if ((pk.data = cur_kind(&c)) < 0 || !cur_lit(&c, " "))
      return fail(p, "%s", form);
   if ((r = cur_u64(&c, &pk.t)) <= 0 || !cur_lit(&c, " ")
       || (r = cur_u64(&c, &pk.size)) <= 0 || !cur_lit(&c, " ")
       || (r = cur_u64(&c, &pk.baseline)) <= 0 || !cur_lit(&c, " "))
      return num_fail(p, r < 0 ? r : 0, form);
   do {
      unsigned bit = 0;
      for (unsigned i = 0; i < 3 && !bit; i++)
         if (cur_lit(&c, reasons[i]))
            bit = 1u << i;
      if (!bit)
         return fail(p, "a peak's reasons are largest, region and "
                     "detected, separated by commas");
      if (pk.why & bit)
         return fail(p, "a peak's reason is given twice");
      pk.why |= bit;
   } while (cur_lit(&c, ","));
   if (!cur_lit(&c, " "))
      return fail(p, "%s", form);
   if (cur_lit(&c, "rise"))
      pk.rise = 1;
   else if (!cur_lit(&c, "sample"))
      return fail(p, "%s", form);
   if (!cur_lit(&c, " ") || (r = cur_u64(&c, &sid)) <= 0
       || !cur_lit(&c, " "))
      return num_fail(p, r < 0 ? r : 0, form);
   pk.own_line = -1;
   if (!cur_lit(&c, "-")) {
      if ((r = cur_u64(&c, &own)) <= 0)
         return num_fail(p, r, form);
      pk.own_line = own > (uint64_t)LONG_MAX ? LONG_MAX : (long)own;
   }
   if (!cur_end(&c))
      return fail(p, "%s", form);

   if (n != f->n_peaks)
      return fail(p, "peaks are numbered from 0 in file order: this one "
                  "should be %zu", f->n_peaks);
   if (stack_ref(p, sid, &pk.stack))
      return -1;
   if (pk.own_line >= 0 && (size_t)pk.own_line >= f->stacks[pk.stack].n)
      return fail(p, "the own line lies beyond the stack's %zu lines",
                  f->stacks[pk.stack].n);
   if (f->n_peaks) {
      const struct wsp_peak *prev = &f->peaks[f->n_peaks - 1];
      if (prev->data && !pk.data)
         return fail(p, "instruction peaks come before data peaks");
      /* the most prominent first; the baseline is rounded, so two
         neighbours may seem one page out of order */
      if (prev->data == pk.data
          && (double)pk.size - (double)pk.baseline
             > (double)prev->size - (double)prev->baseline + 1.0)
         return fail(p, "the peaks of a kind come the most prominent "
                     "first (size minus baseline)");
   }
   const struct wsp_sample *s = sample_at(f, pk.t);
   if (!s || (pk.data ? s->data : s->insn) != pk.size)
      return fail(p, "no sample has %llu %s pages at t=%llu",
                  (unsigned long long)pk.size, pk.data ? "data" : "insn",
                  (unsigned long long)pk.t);
   if (!b->have_max) {
      for (size_t i = 0; i < f->n_samples; i++) {
         if (f->samples[i].insn > b->max_col[0])
            b->max_col[0] = f->samples[i].insn;
         if (f->samples[i].data > b->max_col[1])
            b->max_col[1] = f->samples[i].data;
      }
      b->have_max = 1;
   }
   if (pk.why & WSP_WHY_LARGEST) {
      const struct wsp_sample *first = f->samples;
      while ((pk.data ? first->data : first->insn) != b->max_col[pk.data])
         first++;
      if (first != s)
         return fail(p, "the largest %s sample is the first of %llu pages, "
                     "at t=%llu", pk.data ? "data" : "insn",
                     (unsigned long long)b->max_col[pk.data],
                     (unsigned long long)first->t);
   }
   pk.own_first = f->n_owners;
   pk.reg_first = f->n_region_labels;
   pk.line = p->lineno;
   if (grow(&f->peaks, &cap->peaks, f->n_peaks, sizeof *f->peaks))
      return fail(p, "out of memory");
   f->peaks[f->n_peaks] = pk;
   b->open_peak = f->n_peaks++;
   b->peak_open = 1;
   b->windows_first = f->n_heap_windows;
   return 0;
}

/* `peak-region N LABEL`: peak N is the largest sample of the regions of
   that name. */
static int peak_region_line(struct parser *p, struct caps *cap,
                            struct body *b)
{
   struct wsp_file *f = p->f;
   struct cur c = { p->line, p->len, 0 };
   uint64_t n;
   int r;
   cur_lit(&c, "peak-region ");
   if ((r = cur_u64(&c, &n)) <= 0 || !cur_lit(&c, " "))
      return num_fail(p, r < 0 ? r : 0, "a peak-region line is "
                      "'peak-region N LABEL'");
   if (!b->peak_open || n != b->open_peak
       || f->peaks[b->open_peak].own_n)
      return fail(p, "'peak-region N LABEL' follows peak N's line, before "
                  "its owner lines");
   struct wsp_peak *pk = &f->peaks[b->open_peak];
   if (!(pk->why & WSP_WHY_REGION))
      return fail(p, "peak %llu's reasons lack 'region'",
                  (unsigned long long)n);
   struct wsp_str label = cur_rest(&c);
   if (label_text(p, &label, "peak-region"))
      return -1;
   if (grow(&f->region_labels, &cap->region_labels, f->n_region_labels,
            sizeof *f->region_labels))
      return fail(p, "out of memory");
   f->region_labels[f->n_region_labels++] = label;
   pk->reg_n++;
   return 0;
}

#define MAX_OWNER_LINES 10   /* of a peak, `rest` included */

static int owner_line(struct parser *p, struct body *b, struct caps *cap)
{
   struct wsp_file *f = p->f;
   struct cur c = { p->line, p->len, 0 };
   static const char form[] = "an owner line is 'owner PEAK PAGES OWNER'";
   struct wsp_owner_line ol;
   uint64_t n;
   int r;

   cur_lit(&c, "owner ");
   if ((r = cur_u64(&c, &n)) <= 0 || !cur_lit(&c, " ")
       || (r = cur_u64(&c, &ol.pages)) <= 0 || !cur_lit(&c, " "))
      return num_fail(p, r < 0 ? r : 0, form);
   if (!b->peak_open || n != b->open_peak)
      return fail(p, "owner lines follow their peak's %s",
                  f->version >= 4 ? "line" : "event");
   if (f->n_heap_windows > b->windows_first)
      return fail(p, "owner lines come before the heap-window lines of "
                  "their peak");
   struct wsp_peak *pk = &f->peaks[b->open_peak];
   if (ol.pages == 0)
      return fail(p, "an owner line has at least one page");
   if (cur_owner(p, &c, &ol.o, 1, 0))
      return -1;
   if (f->version >= 4 && ol.o.kind != WSP_OWN_REST
       && (ol.o.kind == WSP_OWN_CODE) != !pk->data)
      return fail(p, "an instruction peak's owners are 'code OBJECT "
                  "FUNCTION', a data peak's what lives in its pages");
   if (pk->own_n == MAX_OWNER_LINES)
      return fail(p, "a peak has at most %d owner lines",
                  MAX_OWNER_LINES);
   if (pk->own_n) {
      const struct wsp_owner_line *prev = &f->owners[f->n_owners - 1];
      if (prev->o.kind == WSP_OWN_REST)
         return fail(p, "'rest' is the last owner line of a peak");
      if (ol.o.kind != WSP_OWN_REST
          && (prev->pages < ol.pages
              || (prev->pages == ol.pages && prev->o.kind > ol.o.kind)))
         return fail(p, "owner lines come largest first, ties in the order "
                     "of the format's owner table");
      /* one line per owner; but two names may be written alike (ws
         writes a blank or control character in a name as _) */
      for (size_t i = 0; i < pk->own_n && ol.o.kind != WSP_OWN_GLOBAL
                         && ol.o.kind != WSP_OWN_FILE
                         && ol.o.kind != WSP_OWN_CODE; i++) {
         struct wsp_str t = f->owners[pk->own_first + i].o.text;
         if (t.len == ol.o.text.len && memcmp(t.s, ol.o.text.s, t.len) == 0)
            return fail(p, "the owner is named twice for this peak");
      }
   }
   if (ol.o.kind == WSP_OWN_REST && pk->own_n != MAX_OWNER_LINES - 1)
      return fail(p, "'rest' comes only as the %dth owner line, after the "
                  "%d largest owners", MAX_OWNER_LINES, MAX_OWNER_LINES - 1);
   if (grow(&f->owners, &cap->owners, f->n_owners, sizeof *f->owners))
      return fail(p, "out of memory");
   f->owners[f->n_owners++] = ol;
   pk->own_n++;
   return 0;
}

static int hot_line(struct parser *p, struct body *b, struct caps *cap)
{
   struct wsp_file *f = p->f;
   struct cur c = { p->line, p->len, 0 };
   static const char form[] = "a hot line is 'hot insn|data RANK ACCESSES "
                              "0xADDRESS 0xIP LOCATION FUNCTION'";
   struct wsp_hot h;
   int r;

   memset(&h, 0, sizeof h);
   cur_lit(&c, "hot ");
   if ((h.data = cur_kind(&c)) < 0 || !cur_lit(&c, " "))
      return fail(p, "%s", form);
   if ((r = cur_u64(&c, &h.rank)) <= 0 || !cur_lit(&c, " ")
       || (r = cur_u64(&c, &h.accesses)) <= 0 || !cur_lit(&c, " ")
       || (r = cur_hex(&c, &h.addr)) <= 0 || !cur_lit(&c, " "))
      return num_fail(p, r < 0 ? r : 0, form);
   if (cur_where(p, &c, &h.w, form))
      return -1;
   int k = h.data;
   if (h.rank != b->hot_rank[k] + 1)
      return fail(p, "hot %s ranks run from 1: this one should be %llu",
                  k ? "data" : "insn",
                  (unsigned long long)b->hot_rank[k] + 1);
   if (h.rank > 1 && (h.accesses > b->hot_acc[k]
                      || (h.accesses == b->hot_acc[k]
                          && h.addr <= b->hot_addr[k])))
      return fail(p, "hot pages come hottest first, ties in increasing "
                  "address order");
   b->hot_rank[k] = h.rank;
   b->hot_acc[k] = h.accesses;
   b->hot_addr[k] = h.addr;
   if (grow(&f->hot, &cap->hot, f->n_hot, sizeof *f->hot))
      return fail(p, "out of memory");
   f->hot[f->n_hot++] = h;
   if (h.data)
      b->due = DUE_HOT_OWNER;
   return 0;
}

/* The dump-owner or hot-owner line that must come now. */
static int due_owner_line(struct parser *p, struct body *b)
{
   struct cur c = { p->line, p->len, 0 };
   struct wsp_owner o;
   int hot = b->due == DUE_HOT_OWNER;
   if (!cur_lit(&c, hot ? "hot-owner " : "dump-owner "))
      return fail(p, "a data page's %s line is followed by its '%s OWNER' "
                  "line", hot ? "hot" : "dump-page",
                  hot ? "hot-owner" : "dump-owner");
   if (cur_owner(p, &c, &o, 0, 1))
      return -1;
   if (hot)
      p->f->hot[p->f->n_hot - 1].o = o;
   b->due = DUE_NONE;
   return 0;
}

/* `page KIND 0xADDRESS ACCESSES IP LOCATION FUNCTION` (--ws-list-pages):
   every page ever touched, instruction pages first, each kind in
   increasing address order. */
static int page_line(struct parser *p, struct body *b)
{
   struct wsp_file *f = p->f;
   struct cur c = { p->line, p->len, 0 };
   static const char form[] = "a page line is 'page insn|data 0xADDRESS "
                              "ACCESSES 0xIP LOCATION FUNCTION'";
   struct wsp_where w;
   uint64_t addr, accesses;
   int data, r;

   cur_lit(&c, "page ");
   if ((data = cur_kind(&c)) < 0 || !cur_lit(&c, " "))
      return fail(p, "%s", form);
   if ((r = cur_hex(&c, &addr)) <= 0 || !cur_lit(&c, " ")
       || (r = cur_u64(&c, &accesses)) <= 0 || !cur_lit(&c, " "))
      return num_fail(p, r < 0 ? r : 0, form);
   if (cur_where(p, &c, &w, form))
      return -1;
   if (!data && f->n_pages[1])
      return fail(p, "instruction pages are listed before data pages");
   if (f->n_pages[data] && addr <= b->page_addr[data])
      return fail(p, "pages are listed in increasing address order");
   b->page_addr[data] = addr;
   f->n_pages[data]++;
   return 0;
}

/*------------------------------------------------------------*/
/*--- Samples, events, dumps, the trailer                  ---*/
/*------------------------------------------------------------*/

static int sample_line(struct parser *p, struct body *b, struct caps *cap)
{
   struct wsp_file *f = p->f;
   struct cur c = { p->line, p->len, 0 };
   uint64_t v[4];
   size_t n = 0;
   struct wsp_sample s;

   if (b->exec_seen)
      return fail(p, "after an exec event only the trailer may follow");
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
   if (close_peak(p, b))
      return -1;
   if (grow(&f->samples, &cap->samples, f->n_samples, sizeof *f->samples))
      return fail(p, "out of memory");
   f->samples[f->n_samples++] = s;
   b->last_t = b->last_sample_t = s.t;
   b->any_t = b->any_sample = 1;
   b->last_insn = s.insn;
   b->last_data = s.data;
   b->at_sample = 1;
   b->after_sample = 1;
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

   if (b->exec_seen)
      return fail(p, "after an exec event only the trailer may follow");
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
      e.kind = WSP_EV_MARK;
      e.text = a1;
      if (nargs == 0)
         return fail(p, "a mark event needs a label");
      if (label_text(p, &e.text, "mark"))
         return -1;
   } else if (str_is(kind, "exec") && f->version >= 4) {
      e.kind = WSP_EV_EXEC;
      e.text = a1;
      if (nargs == 0)
         return fail(p, "an exec event names the program");
      if (decode(p, &e.text))
         return -1;
   } else if (str_is(kind, "dump")) {
      if (word_is(a1.s, a1.len, "label") && nargs >= 2) {
         e.kind = WSP_EV_DUMP_LABEL;
         e.text.s = a1.s + 6;
         e.text.len = a1.len - 6;
         if (label_text(p, &e.text, "dump label"))
            return -1;
      } else if (word_is(a1.s, a1.len, "file") && nargs >= 2) {
         e.kind = WSP_EV_DUMP_FILE;
         e.text.s = a1.s + 5;
         e.text.len = a1.len - 5;
         if (decode(p, &e.text))
            return -1;
      } else if (str_is(a1, "monitor")) {
         e.kind = WSP_EV_DUMP_MONITOR;
      } else {
         return fail(p, "a dump event is 'dump label LABEL', 'dump file "
                     "PATH' or 'dump monitor'");
      }
   } else if (str_is(kind, "final") && f->version >= 4) {
      e.kind = WSP_EV_FINAL;
      if (nargs != 0 || !b->prev_sample || e.t != b->last_sample_t)
         return fail(p, "'event T final' follows the final sample, at its "
                     "time");
      f->samples[f->n_samples - 1].final = 1;
   } else if (str_is(kind, "peak") && f->version >= 4) {
      return fail(p, "version 4 lists the peaks in the trailer ('peak' "
                  "lines), not as events");
   } else if (str_is(kind, "peak") && f->version >= 3) {
      if (close_peak(p, b) || peak_event(p, b, cap, &e, a1))
         return -1;
   } else {
      e.kind = WSP_EV_OTHER;        /* readers skip kinds they do not know */
      e.text.s = kind.s;
      e.text.len = p->len - (size_t)(kind.s - p->line);
   }
   if (b->any_t && e.t < b->last_t)
      return fail(p, "the event is earlier than the line before it "
                  "(at %llu)", (unsigned long long)b->last_t);
   if (e.kind != WSP_EV_PEAK) {
      if (close_peak(p, b))
         return -1;
      b->at_sample = 0;
   }
   if (grow(&f->events, &cap->events, f->n_events, sizeof *f->events))
      return fail(p, "out of memory");
   f->events[f->n_events++] = e;
   b->last_t = e.t;
   b->any_t = 1;
   if (e.kind == WSP_EV_EXEC)
      b->exec_seen = 1;
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
   if (close_peak(p, b))
      return -1;
   b->at_sample = 0;
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

   if (b->due)
      return due_owner_line(p, b);
   if (cur_lit(&c, "dump-page ")) {
      const char *form = f->version >= 3
         ? "a dump page is 'dump-page insn|data 0xADDRESS SINCE ACCESSES "
           "0xIP LOCATION FUNCTION'"
         : "a dump page is 'dump-page insn|data 0xADDRESS SINCE'";
      int data = cur_kind(&c);
      if (data < 0 || !cur_lit(&c, " "))
         return fail(p, "%s", form);
      if ((r = cur_hex(&c, &addr)) <= 0 || !cur_lit(&c, " ")
          || (r = cur_u64(&c, &since)) <= 0)
         return num_fail(p, r < 0 ? r : 0, form);
      if (f->version >= 3) {
         uint64_t accesses;
         struct wsp_where w;
         if (!cur_lit(&c, " ") || (r = cur_u64(&c, &accesses)) <= 0
             || !cur_lit(&c, " "))
            return num_fail(p, r < 0 ? r : 0, form);
         if (cur_where(p, &c, &w, form))
            return -1;
      } else if (!cur_end(&c)) {
         return fail(p, "%s", form);
      }
      if (since > b->dump.t)
         return fail(p, "the page's since (%llu) is after the dump",
                     (unsigned long long)since);
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
      if (data && f->version >= 3)
         b->due = DUE_DUMP_OWNER;
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
   return fail(p, "inside a dump block only 'dump-page' lines%s and "
               "'dump-end' may appear", f->version >= 3
               ? " (with 'dump-owner' after a data page)" : "");
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

   memset(&g, 0, sizeof g);
   cur_lit(&c, "region ");
   if ((r = cur_u64(&c, &g.regions)) <= 0 || !cur_lit(&c, " ")
       || (r = cur_u64(&c, &g.samples)) <= 0 || !cur_lit(&c, " insn")
       || (r = apt(&c, &g.insn)) <= 0 || !cur_lit(&c, " data")
       || (r = apt(&c, &g.data)) <= 0 || !cur_lit(&c, " label "))
      return num_fail(p, r < 0 ? r : 0, form);
   g.label = cur_rest(&c);
   if (label_text(p, &g.label, "region"))
      return -1;
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
   if ((data = cur_kind(&c)) < 0)
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

/* A trailer line 'WORD N' (peaks, samples): N must be the number of
   such records the file holds. */
static int trailer_count_line(struct parser *p, const char *word,
                              uint64_t *count, size_t n_records)
{
   struct cur c = { p->line, p->len, 0 };
   char form[32];
   int r;
   cur_lit(&c, word);
   cur_lit(&c, " ");
   snprintf(form, sizeof form, "expected '%s N'", word);
   if ((r = cur_u64(&c, count)) <= 0 || !cur_end(&c))
      return num_fail(p, r < 0 ? r : 0, form);
   if (*count != n_records)
      return fail(p, "the trailer says %llu %s, the file has %zu",
                  (unsigned long long)*count, word, n_records);
   return 0;
}

/* `peaks N found M` (version 4): N peak lines, M peaks the detector
   found (as many as the peaks it flagged, at least). */
static int peaks_found_line(struct parser *p)
{
   struct wsp_file *f = p->f;
   struct cur c = { p->line, p->len, 0 };
   static const char form[] = "expected 'peaks N found M'";
   size_t detected = 0;
   int r;
   cur_lit(&c, "peaks ");
   if ((r = cur_u64(&c, &f->trailer_peaks)) <= 0
       || !cur_lit(&c, " found ")
       || (r = cur_u64(&c, &f->trailer_found)) <= 0 || !cur_end(&c))
      return num_fail(p, r < 0 ? r : 0, form);
   if (f->trailer_peaks != f->n_peaks)
      return fail(p, "the trailer says %llu peaks, the file has %zu",
                  (unsigned long long)f->trailer_peaks, f->n_peaks);
   for (size_t i = 0; i < f->n_peaks; i++)
      detected += (f->peaks[i].why & WSP_WHY_DETECTED) != 0;
   if (f->trailer_found < detected)
      return fail(p, "the trailer says the detector found %llu peaks, "
                  "%zu of those listed",
                  (unsigned long long)f->trailer_found, detected);
   return 0;
}

/* One line of the body or the trailer. */
static int body_line(struct parser *p, struct body *b, struct caps *cap)
{
   const char *s = p->line;
   size_t len = p->len;
   int v3 = p->f->version >= 3;
   int v4 = p->f->version >= 4;

   b->prev_sample = b->after_sample;
   b->after_sample = 0;
   if (b->in_stack)
      return frame_line(p, b, cap);
   /* a stack block stands in the body, or before the owner line due,
      or (version 4) in the trailer before the heap-site or peak line
      that names it */
   if (v3 && word_is(s, len, "stack")
       && ((b->state == S_BODY && !b->dump_due) || b->due
           || (v4 && (b->state == S_REGIONS || b->state == S_HOT
                      || b->state == S_PAGES || b->state == S_HEAP
                      || b->state == S_PEAK_LIST))))
      return (v4 && close_peak(p, b)) || stack_begin_line(p, b, cap);
   if (v4 && word_is(s, len, "peak") && !b->due && !b->dump_due
       && (b->state == S_BODY || b->state == S_REGIONS
           || b->state == S_HOT || b->state == S_PAGES
           || b->state == S_HEAP || b->state == S_PEAK_LIST)) {
      b->state = S_PEAK_LIST;
      return close_peak(p, b) || peak_line(p, b, cap);
   }
   if (b->state == S_PEAK_LIST && word_is(s, len, "peak-region"))
      return peak_region_line(p, cap, b);
   if (b->state == S_PEAK_LIST && word_is(s, len, "owner"))
      return owner_line(p, b, cap);
   if (b->state == S_PEAK_LIST && word_is(s, len, "heap-window"))
      return heap_window_line(p, b, cap);
   if (v4 && word_is(s, len, "peaks") && !b->due
       && (b->state == S_BODY || b->state == S_REGIONS
           || b->state == S_HOT || b->state == S_PAGES
           || b->state == S_HEAP || b->state == S_PEAK_LIST)) {
      b->state = S_PEAKS;
      return close_peak(p, b) || peaks_found_line(p);
   }
   if (b->state == S_PEAK_LIST)
      return fail(p, "only peak, peak-region, owner and heap-window lines "
                  "and stack blocks, then 'peaks N found M', may follow a "
                  "peak line");
   if (b->state == S_DUMP)
      return dump_line(p, b, cap);
   if (b->due)
      return due_owner_line(p, b);
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
      return close_peak(p, b) || summary_line(p);
   }
   if (word_is(s, len, "samples") && trailer_end) {
      b->state = S_SAMPLES;
      return close_peak(p, b)
             || trailer_count_line(p, "samples", &p->f->trailer_samples,
                                   p->f->n_samples);
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
      return close_peak(p, b) || hot_line(p, b, cap);
   }
   if (v3 && word_is(s, len, "page") && b->state != S_HEAP) {
      b->state = S_PAGES;
      return close_peak(p, b) || page_line(p, b);
   }
   if (v4 && word_is(s, len, "heap-site")) {
      char why[200];
      b->state = S_HEAP;
      if (close_peak(p, b))
         return -1;
      if (wsp_heap_site_line(p->f, s, len, &cap->heap_sites, why,
                             sizeof why))
         return fail(p, "%s", why);
      return 0;
   }
   if (v3 && word_is(s, len, "peaks")) {
      b->state = S_PEAKS;
      return close_peak(p, b)
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
      return close_peak(p, b) || region_line(p, cap);
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
      return sample_line(p, b, cap);
   if (len && s[0] == '#') {
      p->f->n_comments++;
      return 0;
   }
   if (word_is(s, len, "event"))
      return event_line(p, b, cap);
   if (v3 && !v4 && word_is(s, len, "owner"))
      return owner_line(p, b, cap);
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

int wsp_check_start(const char *buf, size_t len, struct wsp_error *err)
{
   const char *nl = memchr(buf, '\n', len);
   struct wsp_file f;
   struct parser p;
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
   f->trailer_samples = f->trailer_peaks = f->trailer_found = WSP_NONE;
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
   while (f->arena) {
      struct wsp_chunk *next = f->arena->next;
      free(f->arena);
      f->arena = next;
   }
   free(f->hdr);
   free(f->samples);
   free(f->thr);
   free(f->events);
   free(f->dumps);
   free(f->regions);
   free(f->stacks);
   free(f->frames);
   free(f->peaks);
   free(f->owners);
   free(f->region_labels);
   free(f->hot);
   free(f->heap_sites);
   free(f->heap_windows);
   free(f->stack_slot);
   memset(f, 0, sizeof *f);
}

/*--------------------------------------------------------------------*/
/*--- end                                              wsp_parse.c ---*/
/*--------------------------------------------------------------------*/

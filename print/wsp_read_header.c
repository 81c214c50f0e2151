/*--------------------------------------------------------------------*/
/*--- ws_print: reading the header.              wsp_read_header.c ---*/
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

/* Owns the reading of the first line (which versions are read, what
   else a file might be) and of the header: which keys there are, their
   values, and the `columns` line that ends the header, whose names
   say where each sample column stands; the same for a dump file's. */

#include <stdio.h>
#include <string.h>

#include "wsp_reader.h"

/* The header keys, in the order the format gives them; count-rep is
   version 4's (an older file's is an unknown key, ignored). */
static const char *const header_keys[] = {
   "tool", "command", "pid", "ppid", "time-unit", "every", "tau",
   "pagesize", "syscalls", "per-thread", "instr-atstart", "count-rep",
   "columns"
};
#define N_HEADER_KEYS (sizeof header_keys / sizeof header_keys[0])
#define KEY_COUNT_REP 11

/* The columns a file has: t insn data, the lines' (version 5, when its
   linesize is not 0), the live heap bytes (version 6, when ws followed
   the heap), the per-thread group (per-thread: yes). */
static void want_columns(char *buf, size_t n, const struct wsp_file *f,
                         int heap)
{
   snprintf(buf, n, "t insn data%s%s%s",
            f->linesize ? " insn-lines data-lines" : "",
            heap ? " heap" : "",
            f->per_thread ? " shared {tid insn data}..." : "");
}

int check_version(struct lex *p)
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
static int header_line(const char *s, size_t len,
                       struct wsp_kv *kv)
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

/* If the line is a header line, add it to the file's: 1, or -1 when its
   key was given before; 0 when it is no header line. */
int add_header_line(struct lex *p, struct caps *cap)
{
   struct wsp_file *f = p->f;
   struct wsp_kv kv;
   if (!header_line(p->line, p->len, &kv))
      return 0;
   for (size_t i = 0; i < f->n_hdr; i++)
      if (f->hdr[i].key.len == kv.key.len
          && memcmp(f->hdr[i].key.s, kv.key.s, kv.key.len) == 0)
         return fail(p, "header key '%.*s' given twice", (int)kv.key.len,
                     kv.key.s);
   if (wsp_grow(&f->hdr, &cap->hdr, f->n_hdr, sizeof *f->hdr)
       || keep_raw(p, &kv.key) || keep_raw(p, &kv.value))
      return fail(p, "out of memory");
   f->hdr[f->n_hdr++] = kv;
   return 1;
}

static int key_index(struct wsp_str k)
{
   for (size_t i = 0; i < N_HEADER_KEYS; i++)
      if (wsp_str_is(k, header_keys[i]))
         return (int)i;
   return -1;
}

static int yes_no(struct lex *p, struct wsp_str v, const char *key,
                  int *out)
{
   if (wsp_str_is(v, "yes"))
      *out = 1;
   else if (wsp_str_is(v, "no"))
      *out = 0;
   else
      return fail(p, "header %s: the value is not yes or no", key);
   return 0;
}

static int header_u64(struct lex *p, struct wsp_str v, const char *key,
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

static int time_unit(struct lex *p, struct wsp_str v, int *ms)
{
   if (wsp_str_is(v, "ms"))
      *ms = 1;
   else if (wsp_str_is(v, "i"))
      *ms = 0;
   else
      return fail(p, "header time-unit: the value is not i or ms");
   return 0;
}

static int page_size(struct lex *p, struct wsp_str v, uint64_t *out)
{
   if (header_u64(p, v, "pagesize", 1, out))
      return -1;
   if (*out & (*out - 1))
      return fail(p, "header pagesize: %llu is not a power of two",
                  (unsigned long long)*out);
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

/* The names of the header's columns, up to the per-thread group, and
   where each column ws_print knows stands. */
static void read_columns(struct wsp_file *f, struct wsp_str v)
{
   struct wsp_columns *cols = &f->columns;
   struct cur c = { v.s, v.len, 0 };
   struct wsp_str w;
   for (int k = 0; k < WSP_N_COLS; k++)
      cols->at[k] = -1;
   cols->n = 0;
   while (!cur_end(&c) && cols->n < WSP_MAX_COLUMNS) {
      w.s = c.s + c.pos;
      while (c.pos < c.len && c.s[c.pos] != ' ')
         c.pos++;
      w.len = (size_t)(c.s + c.pos - w.s);
      cur_lit(&c, " ");
      if (w.len && w.s[0] == '{') {
         cols->per_thread = 1;
         break;
      }
      for (int k = 0; k < WSP_N_COLS; k++)
         if (wsp_str_is(w, wsp_col_name[k]))
            cols->at[k] = (int)cols->n;
      cols->name[cols->n++] = w;
   }
}

/* Check the header once it has ended, before line p->lineno; header
   lines are lines 2 .. 1 + n_hdr. */
int check_header(struct lex *p)
{
   struct wsp_file *f = p->f;
   size_t body_line = p->lineno;
   const struct wsp_kv *have[N_HEADER_KEYS] = { 0 };
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
   if ((AT(1), keep_text(p, &f->command)))
      return -1;
   if (AT(2), header_u64(p, V(2), "pid", 0, &f->pid)
       || (AT(3), header_u64(p, V(3), "ppid", 0, &f->ppid)))
      return -1;
   if ((AT(4), time_unit(p, V(4), &f->ms))
       || (AT(5), header_u64(p, V(5), "every", 1, &f->every))
       || (AT(6), header_u64(p, V(6), "tau", 1, &f->tau))
       || (AT(7), page_size(p, V(7), &f->pagesize)))
      return -1;
   if ((AT(8), yes_no(p, V(8), "syscalls", &f->syscalls))
       || (AT(9), yes_no(p, V(9), "per-thread", &f->per_thread))
       || (AT(10), yes_no(p, V(10), "instr-atstart", &f->instr_atstart)))
      return -1;
   if (f->version >= 4) {
      AT(KEY_COUNT_REP);
      if (wsp_str_is(V(KEY_COUNT_REP), "each"))
         f->count_rep_each = 1;
      else if (!wsp_str_is(V(KEY_COUNT_REP), "once"))
         return fail(p, "header count-rep: the value is not once or each");
   }
   /* version 5: linesize (after pagesize, read by name as an older
      reader ignores it); its lines' columns when not 0 */
   f->linesize = 0;
   int have_linesize = 0;
   for (size_t i = 0; i < f->n_hdr; i++)
      if (wsp_str_is(f->hdr[i].key, "linesize") && f->version >= 5) {
         p->lineno = i + 2;
         if (header_u64(p, f->hdr[i].value, "linesize", 0, &f->linesize))
            return -1;
         if (f->linesize && ((f->linesize & (f->linesize - 1))
                             || f->linesize < 16
                             || f->linesize > f->pagesize))
            return fail(p, "header linesize: %llu is not 0 or a power of "
                        "two from 16 to the page size",
                        (unsigned long long)f->linesize);
         have_linesize = 1;
      }
   if (f->version >= 5 && !have_linesize) {
      p->lineno = body_line;
      return fail(p, "the header (which ends before this line) lacks the "
                  "key linesize");
   }
   char want[96], with_heap[96];
   want_columns(want, sizeof want, f, 0);
   want_columns(with_heap, sizeof with_heap, f, 1);
   AT(12);
   if (!wsp_str_is(V(12), want)
       && (f->version < 6 || !wsp_str_is(V(12), with_heap)))
      return fail(p, "header columns: the value is not '%s'%s%s%s (as "
                  "per-thread: %s%s requires)", want,
                  f->version >= 6 ? " or '" : "",
                  f->version >= 6 ? with_heap : "",
                  f->version >= 6 ? "'" : "",
                  f->per_thread ? "yes" : "no",
                  f->linesize ? " with lines" : "");
   read_columns(f, V(12));
#undef V
#undef AT
   f->heap_usage = -1;
   f->num_callers = WSP_NONE;
   for (size_t i = 0; i < f->n_hdr; i++)
      if (wsp_str_is(f->hdr[i].key, "heap-usage")) {
         p->lineno = i + 2;
         if (wsp_str_is(f->hdr[i].value, "exact"))
            f->heap_usage = 2;
         else if (yes_no(p, f->hdr[i].value, "heap-usage",
                         &f->heap_usage))
            return -1;
      } else if (wsp_str_is(f->hdr[i].key, "num-callers")) {
         p->lineno = i + 2;
         if (header_u64(p, f->hdr[i].value, "num-callers", 1,
                        &f->num_callers))
            return -1;
      }
   p->lineno = body_line;
   f->have_header = 1;
   return 0;
}

/* A dump file's first line: "ws-dump-format: N". */
int check_dump_version(struct lex *p)
{
   static const char key[] = "ws-dump-format: ";
   struct cur c = { p->line, p->len, 0 };
   uint64_t v;
   if (!cur_lit(&c, key))
      return fail(p, "not a ws dump file: the first line is not "
                  "'ws-dump-format: %d'", WSP_DUMP_FORMAT_VERSION);
   if (cur_u64(&c, &v) <= 0 || !cur_end(&c))
      return fail(p, "the dump format version is not a number");
   if (v < WSP_DUMP_FORMAT_OLDEST || v > WSP_DUMP_FORMAT_VERSION)
      return fail(p, "dump format version %llu; this ws_print reads "
                  "versions %d to %d", (unsigned long long)v,
                  WSP_DUMP_FORMAT_OLDEST, WSP_DUMP_FORMAT_VERSION);
   p->f->version = (int)v;
   return 0;
}

/* A dump file's header (docs/output-format.md, "Dump files"), which ends
   before line p->lineno: the keys pid, output-file, time-unit, every,
   tau and pagesize, each once; other keys are ignored. */
int check_dump_header(struct lex *p)
{
   static const char *const keys[] = { "pid", "output-file", "time-unit",
                                       "every", "tau", "pagesize" };
   struct wsp_file *f = p->f;
   size_t body_line = p->lineno, where[6] = { 0 };
   struct wsp_str v[6];

   for (size_t i = 0; i < f->n_hdr; i++)
      for (size_t k = 0; k < 6; k++)
         if (wsp_str_is(f->hdr[i].key, keys[k])) {
            v[k] = f->hdr[i].value;
            where[k] = i + 2;
         }
   for (size_t k = 0; k < 6; k++)
      if (!where[k])
         return fail(p, "the dump file's header (which ends before this "
                     "line) lacks the key %s", keys[k]);
#define AT(k) (p->lineno = where[k])
   f->output_file = v[1];
   if ((AT(0), header_u64(p, v[0], "pid", 0, &f->pid))
       || (AT(1), keep_text(p, &f->output_file))
       || (AT(2), time_unit(p, v[2], &f->ms))
       || (AT(3), header_u64(p, v[3], "every", 1, &f->every))
       || (AT(4), header_u64(p, v[4], "tau", 1, &f->tau))
       || (AT(5), page_size(p, v[5], &f->pagesize)))
      return -1;
#undef AT
   /* version 5: linesize, whose dump-end then gives the lines */
   f->linesize = 0;
   for (size_t i = 0; i < f->n_hdr; i++)
      if (wsp_str_is(f->hdr[i].key, "linesize") && f->version >= 5) {
         p->lineno = i + 2;
         if (header_u64(p, f->hdr[i].value, "linesize", 0, &f->linesize))
            return -1;
      }
   p->lineno = body_line;
   f->have_header = 1;
   return 0;
}

/*--------------------------------------------------------------------*/
/*--- end                                        wsp_read_header.c ---*/
/*--------------------------------------------------------------------*/

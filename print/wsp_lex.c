/*--------------------------------------------------------------------*/
/*--- ws_print: the lexer: the words of a line.          wsp_lex.c ---*/
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

/* Owns what every line of the grammar is made of: the cursor over a
   line and its words (numbers, kinds, text, labels, KEY VALUE pairs),
   version 4's escapes, and the one way to fail (wsp_lex.h). */

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wsp_lex.h"

/* Longjmp-free error reporting: fail() records the first error and
   returns -1 for the caller to pass up. */
__attribute__((format(printf, 2, 3)))
int fail(struct lex *p, const char *fmt, ...)
{
   va_list ap;
   p->err->line = p->lineno;
   va_start(ap, fmt);
   vsnprintf(p->err->msg, sizeof p->err->msg, fmt, ap);
   va_end(ap);
   return -1;
}

/* Does the line start with the word w (followed by a space or its end)? */
int word_is(const char *s, size_t len, const char *w)
{
   size_t n = strlen(w);
   return len >= n && memcmp(s, w, n) == 0 && (len == n || s[n] == ' ');
}

/* An unsigned decimal [0-9]+ at the cursor.  Returns 1 and advances,
   0 when there is no digit, -1 when the number exceeds 64 bits. */
int cur_u64(struct cur *c, uint64_t *v)
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
int cur_hex(struct cur *c, uint64_t *v)
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
int cur_avg(struct cur *c, uint64_t *tenths)
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
int cur_lit(struct cur *c, const char *lit)
{
   size_t n = strlen(lit);
   if (c->len - c->pos < n || memcmp(c->s + c->pos, lit, n) != 0)
      return 0;
   c->pos += n;
   return 1;
}

/* "insn" (0) or "data" (1) at the cursor, or -1 for neither. */
int cur_kind(struct cur *c)
{
   if (cur_lit(c, "insn"))
      return 0;
   if (cur_lit(c, "data"))
      return 1;
   return -1;
}

/* The rest of the line from the cursor. */
struct wsp_str cur_rest(const struct cur *c)
{
   struct wsp_str r = { c->s + c->pos, c->len - c->pos };
   return r;
}

/* Why text that runs to the end of its line (a label, a function
   name, a symbol, a path) breaks the rules of docs/output-format.md
   (not empty, no control characters, no leading, trailing or double
   spaces), or NULL.  what names it in the message. */
const char *text_problem(struct wsp_str l, const char *what,
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

/* The next word, after exactly one space: up to the next space or the
   end. */
int cur_word(struct cur *c, struct wsp_str *w)
{
   size_t i = c->pos;
   if (i >= c->len || c->s[i] != ' ' || i + 1 >= c->len || c->s[i + 1] == ' ')
      return 0;
   w->s = c->s + i + 1;
   for (i++; i < c->len && c->s[i] != ' '; i++)
      ;
   w->len = (size_t)(c->s + i - w->s);
   c->pos = i;
   return 1;
}

static int hex_value(char c)
{
   return is_digit(c) ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

int keep_raw(struct lex *p, struct wsp_str *s)
{
   const char *k = wsp_keep(p->f, s->s, s->len);
   if (!k)
      return fail(p, "out of memory");
   s->s = k;
   return 0;
}

/* Decode s into d (NULL: only check), *n bytes. */
static int decode(struct lex *p, struct wsp_str s, char *d, size_t *n)
{
   *n = 0;
   for (size_t i = 0; i < s.len; i++) {
      char ch;
      if (s.s[i] != '\\') {
         ch = s.s[i];
      } else if (i + 1 < s.len && s.s[i + 1] == '\\') {
         ch = '\\';
         i++;
      } else if (i + 3 < s.len && s.s[i + 1] == 'x'
                 && hex_value(s.s[i + 2]) >= 0
                 && hex_value(s.s[i + 3]) >= 0) {
         ch = (char)(hex_value(s.s[i + 2]) * 16 + hex_value(s.s[i + 3]));
         i += 3;
      } else {
         return fail(p, "a backslash starts neither \\\\ nor \\xHH (two "
                     "lower-case hex digits)");
      }
      if (d)
         d[*n] = ch;
      (*n)++;
   }
   return 0;
}

static int escaped(const struct lex *p, struct wsp_str s)
{
   return p->f->version >= 4 && memchr(s.s, '\\', s.len);
}

int check_text(struct lex *p, struct wsp_str s)
{
   size_t n;
   return escaped(p, s) ? decode(p, s, NULL, &n) : 0;
}

int keep_text(struct lex *p, struct wsp_str *s)
{
   if (!escaped(p, *s))
      return keep_raw(p, s);
   char *d = (char *)wsp_keep(p->f, s->s, s->len);   /* as long at most */
   if (!d)
      return fail(p, "out of memory");
   if (decode(p, *s, d, &s->len))
      return -1;
   s->s = d;
   return 0;
}

int label_text(struct lex *p, struct wsp_str *l, const char *what)
{
   char wb[80];
   const char *why = text_problem(*l, "label", wb, sizeof wb);
   if (why)
      return fail(p, "%s: %s", what, why);
   if (keep_text(p, l))
      return -1;
   if (l->len > 255)
      return fail(p, "%s: the label is longer than 255 bytes", what);
   return 0;
}

int num_fail(struct lex *p, int r, const char *what)
{
   if (r < 0)
      return fail(p, "a number is too large (more than 64 bits)");
   return fail(p, "%s", what);
}

/*------------------------------------------------------------*/
/*--- KEY VALUE records                                    ---*/
/*------------------------------------------------------------*/

/* A whole word that is a decimal of at most 64 bits. */
static int word_u64(struct wsp_str w, uint64_t *v)
{
   struct cur c = { w.s, w.len, 0 };
   return cur_u64(&c, v) > 0 && cur_end(&c);
}

int word_milli(struct wsp_str w, uint64_t *v)
{
   const char *s = w.s;
   if (w.len != 5 || s[1] != '.' || (s[0] != '0' && s[0] != '1')
       || !is_digit(s[2]) || !is_digit(s[3]) || !is_digit(s[4]))
      return 0;
   *v = (uint64_t)(s[0] - '0') * 1000 + (uint64_t)(s[2] - '0') * 100
        + (uint64_t)(s[3] - '0') * 10 + (uint64_t)(s[4] - '0');
   return *v <= 1000;
}

static int key_ok(struct wsp_str k)
{
   if (k.len == 0 || !is_lower(k.s[0]))
      return 0;
   for (size_t i = 0; i < k.len; i++)
      if (!(is_lower(k.s[i]) || is_digit(k.s[i]) || k.s[i] == '-'))
         return 0;
   return 1;
}

#define MAX_SPEC_KEYS 32

int cur_kv_record(struct lex *p, struct cur *c, const struct kv_spec *spec,
                  uint64_t *id, uint64_t *stack, uint64_t *vals,
                  size_t *cap_kvs, size_t *first, size_t *n)
{
   struct wsp_file *f = p->f;
   const char *word = spec->word;
   unsigned char seen[MAX_SPEC_KEYS] = { 0 };
   struct wsp_str k, v;
   for (size_t i = 0; i < spec->n_keys; i++)
      vals[i] = WSP_NONE;
   if (!cur_word(c, &v) || !word_u64(v, id)
       || !cur_word(c, &v) || !word_u64(v, stack))
      return fail(p, "a %s line is '%s N STACK' followed by KEY VALUE "
                  "pairs", word, word);
   *first = f->n_kvs;
   *n = 0;
   while (!cur_end(c)) {
      size_t i;
      if (!cur_word(c, &k) || !key_ok(k) || !cur_word(c, &v))
         return fail(p, "after '%s N STACK' come KEY VALUE pairs, "
                     "separated by single spaces", word);
      for (i = 0; i < spec->n_keys; i++)
         if (wsp_str_is(k, spec->keys[i]))
            break;
      if (i < spec->n_keys) {
         int milli = (spec->milli >> i) & 1;
         if (seen[i])
            return fail(p, "key %s given twice", spec->keys[i]);
         seen[i] = 1;
         if (milli ? !word_milli(v, &vals[i]) : !word_u64(v, &vals[i]))
            return fail(p, milli ? "%s is a fraction from 0.000 to 1.000 "
                        "with three decimals" : "%s is a whole number (at "
                        "most 64 bits)", spec->keys[i]);
      }
      if (wsp_grow(&f->kvs, cap_kvs, f->n_kvs, sizeof *f->kvs)
          || keep_raw(p, &k) || keep_raw(p, &v))
         return fail(p, "out of memory");
      f->kvs[f->n_kvs].key = k;
      f->kvs[f->n_kvs].value = v;
      f->n_kvs++;
      (*n)++;
   }
   for (size_t i = 0; i < spec->n_required; i++)
      if (!seen[i])
         return fail(p, "a %s line lacks the key %s", word, spec->keys[i]);
   return 0;
}

/*--------------------------------------------------------------------*/
/*--- end                                                wsp_lex.c ---*/
/*--------------------------------------------------------------------*/

/*--------------------------------------------------------------------*/
/*--- ws_print: the parser's words.                    wsp_lex.c ---*/
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
   line, decimal and hexadecimal numbers (checked for overflow), the
   average column, kinds, escaped text (version 4's "\\" and "\xHH")
   and labels, and the parser's one way to fail (the first error, with
   its line).  It knows no line of the grammar: wsp_header.c,
   wsp_stacks.c, wsp_trailer.c and wsp_parse.c do. */

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "wsp_reader.h"

/* Grow *arr (of *n elements of size sz, capacity *cap) to hold one
   more.  Returns 0, or -1 when memory runs out. */
int wsp_grow(void *arr, size_t *cap, size_t n, size_t sz)
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

/* Longjmp-free error reporting: fail() records the first error and
   returns -1 for the caller to pass up. */
__attribute__((format(printf, 2, 3)))
int fail(struct parser *p, const char *fmt, ...)
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

int str_is(struct wsp_str s, const char *w)
{
   return s.len == strlen(w) && memcmp(s.s, w, s.len) == 0;
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

static int hex_value(char c)
{
   return is_digit(c) ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

int decode(struct parser *p, struct wsp_str *s)
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
int label_text(struct parser *p, struct wsp_str *l, const char *what)
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
int num_fail(struct parser *p, int r, const char *what)
{
   if (r < 0)
      return fail(p, "a number is too large (more than 64 bits)");
   return fail(p, "%s", what);
}

/*--------------------------------------------------------------------*/
/*--- end                                                wsp_lex.c ---*/
/*--------------------------------------------------------------------*/

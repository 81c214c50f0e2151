/*--------------------------------------------------------------------*/
/*--- ws_print: what the renderers share.                wsp_fmt.c ---*/
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

/* Owns what the renderers share: numbers, times and kB as the reports
   write them, strings with their control bytes shown, lines cut or
   wrapped to the report's width, and C++ names made short enough for a
   line (wsp_lwhere). */

#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "wsp_render.h"

/* Header values may hold any byte but the newline: show control bytes
   (and DEL) as \xNN so that they cannot move the cursor. */
void wsp_put_escaped(FILE *out, struct wsp_str s)
{
   for (size_t i = 0; i < s.len; i++) {
      unsigned char c = (unsigned char)s.s[i];
      if (c < 0x20 || c == 0x7f)
         fprintf(out, "\\x%02x", c);
      else
         fputc(c, out);
   }
}

/* A time for listings: the exact integer and its unit ("1317 i",
   "2500 ms"). */
void wsp_fmt_time(char *buf, size_t n, uint64_t t, int ms)
{
   snprintf(buf, n, "%llu %s", (unsigned long long)t, ms ? "ms" : "i");
}

/* A line of dashes, width long, between a report's parts. */
/* 1234567 as "1,234,567". */
const char *wsp_commas(char *buf, size_t n, uint64_t v)
{
   char d[32];
   int len = snprintf(d, sizeof d, "%llu", (unsigned long long)v);
   size_t j = 0;
   for (int i = 0; i < len && j + 1 < n; i++) {
      if (i && (len - i) % 3 == 0 && j + 2 < n)
         buf[j++] = ',';
      buf[j++] = d[i];
   }
   buf[j] = '\0';
   return buf;
}

void wsp_rule(FILE *out, int width)
{
   for (int i = 0; i < width; i++)
      fputc('-', out);
   fputc('\n', out);
}

/* An average written in tenths: 351 -> "35.1". */
void wsp_fmt_avg(char *buf, size_t n, uint64_t avg10)
{
   snprintf(buf, n, "%llu.%u", (unsigned long long)(avg10 / 10),
            (unsigned)(avg10 % 10));
}

/* pages of pagesize bytes in kB: whole kB when that is exact or the
   number is large, else one decimal (64-byte pages, small averages). */
void wsp_fmt_kb(char *buf, size_t n, double pages, uint64_t pagesize)
{
   double kb = pages * (double)pagesize / 1024.0;
   if (kb >= 100.0 || kb == floor(kb))
      snprintf(buf, n, "%.0f", kb);
   else
      snprintf(buf, n, "%.1f", kb);
}

/*------------------------------------------------------------*/
/*--- Lines that must fit the width                        ---*/
/*------------------------------------------------------------*/

void wsp_lput(struct wsp_line *l, const char *s, size_t n)
{
   if (n > sizeof l->b - l->n)
      n = sizeof l->b - l->n;
   memcpy(l->b + l->n, s, n);
   l->n += n;
}

void wsp_lprintf(struct wsp_line *l, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   int n = vsnprintf(l->b + l->n, sizeof l->b - l->n, fmt, ap);
   va_end(ap);
   if (n > 0)
      l->n += (size_t)n < sizeof l->b - l->n ? (size_t)n
                                              : sizeof l->b - l->n - 1;
}

/* A string of the file, its control bytes (which version 4 can decode
   from an escape) shown as \xNN, as wsp_put_escaped does. */
void wsp_lstr(struct wsp_line *l, struct wsp_str s)
{
   for (size_t i = 0; i < s.len; i++) {
      unsigned char c = (unsigned char)s.s[i];
      if (c < 0x20 || c == 0x7f)
         wsp_lprintf(l, "\\x%02x", c);
      else
         wsp_lput(l, s.s + i, 1);
   }
}

/* Print the line, cut with "..." when it is wider than width (never
   inside a UTF-8 sequence). */
void wsp_lflush(FILE *out, struct wsp_line *l, int width)
{
   size_t w = (size_t)width;
   if (l->n > w) {
      size_t n = w > 3 ? w - 3 : 0;
      while (n > 0 && ((unsigned char)l->b[n] & 0xc0) == 0x80)
         n--;
      fwrite(l->b, 1, n, out);
      fputs("...", out);
   } else {
      fwrite(l->b, 1, l->n, out);
   }
   fputc('\n', out);
   l->n = 0;
}

/* One line of text, its words wrapped to width (see wsp_wrap). */
static void wrap_line(FILE *out, const char *s, size_t n, int width,
                      int indent)
{
   size_t lead = 0;
   int first = 1;
   while (lead < n && s[lead] == ' ')
      lead++;
   for (;;) {
      size_t avail = (size_t)width - (first ? 0 : (size_t)indent), cut;
      if (!first)
         fprintf(out, "%*s", indent, "");
      if (n <= avail) {
         fwrite(s, 1, n, out);
         fputc('\n', out);
         return;
      }
      for (cut = avail; cut > (first ? lead : 0) && s[cut] != ' '; cut--)
         ;
      if (cut <= (first ? lead : 0)) {        /* one word wider than it */
         struct wsp_line l = { .n = 0 };
         wsp_lput(&l, s, n);
         wsp_lflush(out, &l, (int)avail);
         return;
      }
      fwrite(s, 1, cut, out);
      fputc('\n', out);
      s += cut + 1;
      n -= cut + 1;
      first = 0;
   }
}

void wsp_wrap(FILE *out, int width, int indent, const char *fmt, ...)
{
   char buf[2048];
   const char *s = buf;
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(buf, sizeof buf, fmt, ap);
   va_end(ap);
   while (*s) {
      const char *nl = strchr(s, '\n');
      size_t n = nl ? (size_t)(nl - s) : strlen(s);
      wrap_line(out, s, n, width, indent);
      if (!nl)
         break;
      s = nl + 1;
   }
}

static int name_char(char c)
{
   return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
          || (c >= '0' && c <= '9') || c == '_' || c == '$';
}

/* Whether s[0..i) ends with "operator" and an operator's symbols, as
   in "operator<(" or "operator<=(": a parameter list follows. */
static int after_operator(const char *s, size_t i)
{
   size_t j = i;
   while (j > 0 && strchr("<>=!+-*/%&|^~[]", s[j - 1]) && s[j - 1])
      j--;
   return j < i && j >= 8 && memcmp(s + j - 8, "operator", 8) == 0;
}

/* A demangled C++ name made shorter, into out (room for fn.len + 1):
   level 1 writes each parameter list as "(...)", level 2 also each
   template argument list as "<...>", level 3 also drops the scopes
   before the last "::" outside brackets ("rebuild(...)") and a
   compiler's " [clone .constprop.0]".  A parameter list is a '(' that
   follows a name, a '>', a ')' ("operator()(int)") or an operator's
   symbols ("operator<(int)"); "(anonymous namespace)" follows nothing
   or "::" and stays.  A '<' after
   "operator" is the operator, not template arguments.  Returns the
   length written. */
static size_t short_fn(char *out, struct wsp_str fn, int level)
{
   size_t n = 0;
   for (size_t i = 0; i < fn.len; i++) {
      char c = fn.s[i];
      char close = 0;
      if (c == '(' && i > 0
          && (name_char(fn.s[i - 1]) || fn.s[i - 1] == '>'
              || fn.s[i - 1] == ')' || after_operator(fn.s, i)))
         close = ')';
      else if (level >= 2 && c == '<' && i > 0 && name_char(fn.s[i - 1])
               && !(i >= 8 && memcmp(fn.s + i - 8, "operator", 8) == 0))
         close = '>';
      if (close) {
         /* the matching bracket, counting both kinds so that
            "f(std::less<int>)" ends at its ')' */
         size_t j = i;
         int depth = 0;
         for (; j < fn.len; j++) {
            if (fn.s[j] == '(' || fn.s[j] == '<')
               depth++;
            else if (fn.s[j] == ')' || fn.s[j] == '>')
               depth--;
            if (depth == 0)
               break;
         }
         if (j < fn.len && fn.s[j] == close && j > i + 1) {
            out[n++] = c;
            memcpy(out + n, "...", 3);
            n += 3;
            out[n++] = close;
            i = j;
            continue;
         }
      }
      out[n++] = c;
   }
   if (level >= 3) {
      size_t from = 0;
      int depth = 0;
      for (size_t i = 0; i + 1 < n; i++) {
         if (out[i] == '(' || out[i] == '<')
            depth++;
         else if (out[i] == ')' || out[i] == '>')
            depth--;
         else if (depth == 0 && out[i] == ':' && out[i + 1] == ':')
            from = i + 2;
      }
      memmove(out, out + from, n - from);
      n -= from;
      for (size_t i = 0; i + 8 <= n; i++)
         if (memcmp(out + i, " [clone ", 8) == 0 && out[n - 1] == ']') {
            n = i;
            break;
         }
   }
   return n;
}

int wsp_fn_is_object_offset(const struct wsp_where *w)
{
   size_t n = w->loc.len;
   return n > 2 && w->loc.s[0] == '(' && w->fn.len > n + 1
          && memcmp(w->fn.s, w->loc.s + 1, n - 2) == 0
          && memcmp(w->fn.s + n - 2, "+0x", 3) == 0;
}

/* "fn (file:line)", "fn (in object)" or "fn" for a location ??? or
   for code named by its object and offset.  When
   the line would be wider than width with |after| more characters,
   a C++ function's parameter lists are written "(...)", then its
   template arguments "<...>", then its scopes are left out, so that
   the location stays in view. */
void wsp_lwhere(struct wsp_line *l, const struct wsp_where *w, int width,
                size_t after)
{
   int in_obj = w->loc.len && w->loc.s[0] == '(';
   int none = (w->loc.len == 3 && memcmp(w->loc.s, "???", 3) == 0)
              || wsp_fn_is_object_offset(w);
   size_t loc = none ? 0 : in_obj ? w->loc.len + 4 : w->loc.len + 3;
   struct wsp_str fn = w->fn;
   char buf[sizeof l->b];
   if (fn.len < sizeof buf)
      for (int level = 1;
           level <= 3 && l->n + fn.len + loc + after > (size_t)width;
           level++) {
         size_t n = short_fn(buf, w->fn, level);
         fn.s = buf;
         fn.len = n;
      }
   wsp_lstr(l, fn);
   if (none)
      return;
   if (in_obj) {
      wsp_lput(l, " (in ", 5);
      wsp_lput(l, w->loc.s + 1, w->loc.len - 1);
   } else {
      wsp_lput(l, " (", 2);
      wsp_lstr(l, w->loc);
      wsp_lput(l, ")", 1);
   }
}

const char *wsp_event_name(enum wsp_event_kind k)
{
   switch (k) {
   case WSP_EV_THREAD_START: return "thread-start";
   case WSP_EV_THREAD_EXIT:  return "thread-exit";
   case WSP_EV_START:        return "start";
   case WSP_EV_STOP:         return "stop";
   case WSP_EV_SET:          return "set";
   case WSP_EV_MARK:         return "mark";
   case WSP_EV_DUMP_LABEL:
   case WSP_EV_DUMP_FILE:
   case WSP_EV_DUMP_MONITOR: return "dump";
   case WSP_EV_PEAK:         return "peak";
   case WSP_EV_EXEC:         return "exec";
   case WSP_EV_FINAL:        return "final";
   case WSP_EV_REGION_START: return "region-start";
   case WSP_EV_OTHER:        return "other";
   }
   return "?";
}

/*--------------------------------------------------------------------*/
/*--- end                                                wsp_fmt.c ---*/
/*--------------------------------------------------------------------*/

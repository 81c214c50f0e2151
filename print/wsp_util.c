/*--------------------------------------------------------------------*/
/*--- ws_print: formatting shared by the printers.    wsp_util.c ---*/
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

#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "wsp.h"

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

void wsp_lstr(struct wsp_line *l, struct wsp_str s)
{
   wsp_lput(l, s.s, s.len);
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

/* "fn (file:line)", "fn (in object)" or "fn" for a location ???. */
void wsp_lwhere(struct wsp_line *l, const struct wsp_where *w)
{
   wsp_lstr(l, w->fn);
   if (w->loc.len && w->loc.s[0] == '(') {
      wsp_lput(l, " (in ", 5);
      wsp_lput(l, w->loc.s + 1, w->loc.len - 1);
   } else if (!(w->loc.len == 3 && memcmp(w->loc.s, "???", 3) == 0)) {
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
   case WSP_EV_FINAL:        return "final";
   case WSP_EV_OTHER:        return "other";
   }
   return "?";
}

/*--------------------------------------------------------------------*/
/*--- end                                               wsp_util.c ---*/
/*--------------------------------------------------------------------*/

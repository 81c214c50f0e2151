/* ws-monitor: small helpers: messages, memory, growing strings, lines.

   Copyright (C) 2026 the ws authors.

   This program is free software; you can redistribute it and/or
   modify it under the terms of the GNU General Public License as
   published by the Free Software Foundation; either version 2 of the
   License, or (at your option) any later version.

   The GNU General Public License is contained in the file COPYING.
*/

#define _GNU_SOURCE
#include <stdarg.h>
#include <time.h>

#include "wsm.h"

/*------------------------------------------------------------*/
/*--- Small helpers                                        ---*/
/*------------------------------------------------------------*/

void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void say(const char *fmt, ...)
{
   va_list ap;
   fflush(stdout);
   fputs("ws-monitor: ", stderr);
   va_start(ap, fmt);
   vfprintf(stderr, fmt, ap);
   va_end(ap);
   fputc('\n', stderr);
}

void *xrealloc(void *p, size_t n)
{
   p = realloc(p, n ? n : 1);
   if (p == NULL) {
      say("out of memory");
      exit(EXIT_UNREACHABLE);
   }
   return p;
}

char *xstrdup(const char *s)
{
   size_t n = strlen(s) + 1;
   return memcpy(xrealloc(NULL, n), s, n);
}

void buf_add(Buf *b, const char *data, size_t n)
{
   if (b->len + n + 1 > b->cap) {
      b->cap = (b->len + n + 1) * 2;
      b->s = xrealloc(b->s, b->cap);
   }
   memcpy(b->s + b->len, data, n);
   b->len += n;
   b->s[b->len] = '\0';
}

void buf_str(Buf *b, const char *s)
{
   buf_add(b, s, strlen(s));
}

void buf_printf(Buf *b, const char *fmt, ...)
   __attribute__((format(printf, 2, 3)));
void buf_printf(Buf *b, const char *fmt, ...)
{
   char    small[256];
   va_list ap;
   int     n;
   va_start(ap, fmt);
   n = vsnprintf(small, sizeof small, fmt, ap);
   va_end(ap);
   if (n < 0)
      return;
   if ((size_t)n < sizeof small) {
      buf_add(b, small, n);
      return;
   }
   {
      char *big = xrealloc(NULL, n + 1);
      va_start(ap, fmt);
      vsnprintf(big, n + 1, fmt, ap);
      va_end(ap);
      buf_add(b, big, n);
      free(big);
   }
}

const char *buf_cstr(const Buf *b)
{
   return b->s ? b->s : "";
}

void buf_free(Buf *b)
{
   free(b->s);
   b->s = NULL;
   b->len = b->cap = 0;
}

double now_s(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return ts.tv_sec + ts.tv_nsec / 1e9;
}

void on_sigint(int sig)
{
   (void)sig;
   got_sigint = 1;
}

/* The lines of |text|, without their newlines, into a NULL-terminated
   array (free with free_lines). */
char **split_lines(const char *text, int *count)
{
   char      **lines = NULL;
   int         n = 0;
   const char *p = text;
   while (*p) {
      const char *nl = strchr(p, '\n');
      size_t      len = nl ? (size_t)(nl - p) : strlen(p);
      lines = xrealloc(lines, (n + 2) * sizeof *lines);
      lines[n] = xrealloc(NULL, len + 1);
      memcpy(lines[n], p, len);
      lines[n][len] = '\0';
      n++;
      p += len + (nl ? 1 : 0);
   }
   lines = xrealloc(lines, (n + 1) * sizeof *lines);
   lines[n] = NULL;
   if (count)
      *count = n;
   return lines;
}

void free_lines(char **lines)
{
   char **l;
   for (l = lines; l && *l; l++)
      free(*l);
   free(lines);
}

char **split_words(const char *s)
{
   char **argv = NULL;
   int    n = 0;
   while (*s) {
      const char *e;
      while (*s == ' ')
         s++;
      if (!*s)
         break;
      e = strchr(s, ' ');
      if (!e)
         e = s + strlen(s);
      argv = xrealloc(argv, (n + 2) * sizeof *argv);
      argv[n] = xrealloc(NULL, e - s + 1);
      memcpy(argv[n], s, e - s);
      argv[n][e - s] = '\0';
      n++;
      s = e;
   }
   argv = xrealloc(argv, (n + 1) * sizeof *argv);
   argv[n] = NULL;
   return argv;
}

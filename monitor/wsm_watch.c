/* ws-monitor: the live view (watch).

   Copyright (C) 2026 the ws authors.

   This program is free software; you can redistribute it and/or
   modify it under the terms of the GNU General Public License as
   published by the Free Software Foundation; either version 2 of the
   License, or (at your option) any later version.

   The GNU General Public License is contained in the file COPYING.
*/

#define _GNU_SOURCE
#include <errno.h>
#include <langinfo.h>
#include <poll.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "wsm.h"

#define SERIES_COMMAND   "ws series 60"  /* the samples the live view shows */

/*------------------------------------------------------------*/
/*--- The live view (watch)                                ---*/
/*------------------------------------------------------------*/

typedef struct {
   unsigned long long t, insn, data;
} Sample;

/* The samples of a "ws series" reply; returns how many (and the total
   the reply names in |total|). */
static int parse_series(const char *reply, Sample **out, unsigned long long
                        *total)
{
   char **lines = split_lines(reply, NULL), **l;
   int    n = 0, in_series = 0;
   *out = NULL;
   *total = 0;
   for (l = lines; *l; l++) {
      Sample s;
      char   extra;
      unsigned long long got;
      if (strncmp(*l, "ws series:", 10) == 0) {
         in_series = 1;
         if (sscanf(*l, "ws series: the last %llu of %llu", &got, total)
             != 2)
            *total = 0;
         continue;
      }
      if (in_series
          && sscanf(*l, "%llu %llu %llu %c", &s.t, &s.insn, &s.data, &extra)
             == 3) {
         *out = xrealloc(*out, (n + 1) * sizeof **out);
         (*out)[n++] = s;
      }
   }
   free_lines(lines);
   return n;
}

static int utf8_locale(void)
{
   const char *cs = nl_langinfo(CODESET);
   return cs && (strcasecmp(cs, "UTF-8") == 0 || strcasecmp(cs, "utf8") == 0);
}

/* A sparkline of |n| values, each scaled to the largest; eight levels,
   Unicode blocks or (not UTF-8) ASCII. */
static void sparkline(Buf *b, const Sample *s, int n, int data, int utf8)
{
   static const char *const blocks[8] = {
      "\xe2\x96\x81", "\xe2\x96\x82", "\xe2\x96\x83", "\xe2\x96\x84",
      "\xe2\x96\x85", "\xe2\x96\x86", "\xe2\x96\x87", "\xe2\x96\x88" };
   static const char ascii[] = "_.-:=+*#";
   unsigned long long max = 0;
   int i;
   for (i = 0; i < n; i++) {
      unsigned long long v = data ? s[i].data : s[i].insn;
      if (v > max)
         max = v;
   }
   for (i = 0; i < n; i++) {
      unsigned long long v = data ? s[i].data : s[i].insn;
      int level = max ? (int)((v * 7 + max / 2) / max) : 0;
      if (utf8)
         buf_str(b, blocks[level]);
      else
         buf_add(b, &ascii[level], 1);
   }
}

static int term_width(void)
{
   struct winsize ws;
   if (ioctl(1, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20)
      return ws.ws_col;
   return 80;
}

/* One frame of the live view into |b|. */
static void watch_frame(Buf *b, int frame, double interval,
                        const char *reply, int utf8)
{
   char  **lines = split_lines(reply, NULL), **l;
   Sample *s;
   unsigned long long total;
   int     n = parse_series(reply, &s, &total), width = term_width() - 40;
   int     first, kind;

   buf_printf(b, "ws-monitor: process %d, every %g s (frame %d); press a "
              "key to stop\n\n", (int)target, interval, frame);
   for (l = lines; *l && strncmp(*l, "ws series:", 10) != 0; l++)
      if (**l)
         buf_printf(b, "%s\n", *l);
   buf_str(b, "\n");
   if (n == 0) {
      buf_str(b, "no samples yet\n");
   } else {
      if (width < 10)
         width = 10;
      first = n > width ? n - width : 0;
      buf_printf(b, "the last %d of %llu samples, t=%llu .. %llu:\n",
                 n - first, total, s[first].t, s[n - 1].t);
      for (kind = 0; kind < 2; kind++) {
         unsigned long long max = 0;
         int i;
         for (i = first; i < n; i++)
            if ((kind ? s[i].data : s[i].insn) > max)
               max = kind ? s[i].data : s[i].insn;
         buf_str(b, kind ? "  data " : "  insn ");
         sparkline(b, s + first, n - first, kind, utf8);
         buf_printf(b, "  last %llu, max %llu pages\n",
                    kind ? s[n - 1].data : s[n - 1].insn, max);
      }
   }
   free(s);
   free_lines(lines);
}

/* Redraws status and samples every |interval| seconds until a key is
   pressed (or Ctrl-C).  Returns EXIT_UNREACHABLE if the process went
   away, else 0. */
int watch(double interval)
{
   static const char *const cmds[] = { "ws status", SERIES_COMMAND };
   struct termios saved, raw;
   int    tty = isatty(0) && tcgetattr(0, &saved) == 0;
   int    utf8 = utf8_locale(), frame, status = 0;

   if (tty) {
      raw = saved;
      raw.c_lflag &= ~(ICANON | ECHO);
      raw.c_cc[VMIN] = 1;
      raw.c_cc[VTIME] = 0;
      tcsetattr(0, TCSANOW, &raw);
   }
   got_sigint = 0;
   for (frame = 1; ; frame++) {
      VgRun  r;
      Buf    screen = { 0 };
      struct pollfd pfd;
      int    ready, wait_ms;
      double started = now_s();
      if (send_commands(cmds, 2, &r) != 0) {
         vgrun_free(&r);
         if (!got_sigint)
            status = EXIT_UNREACHABLE;
         break;
      }
      buf_str(&screen, "\033[H\033[2J");
      watch_frame(&screen, frame, interval, buf_cstr(&r.out), utf8);
      fputs(screen.s, stdout);
      fflush(stdout);
      buf_free(&screen);
      vgrun_free(&r);
      pfd.fd = 0;
      pfd.events = POLLIN;
      /* The next frame |interval| after this one was asked for, but
         never sooner than 50 ms after it was drawn. */
      wait_ms = (int)((started + interval - now_s()) * 1000);
      if (wait_ms < 50)
         wait_ms = 50;
      do
         ready = poll(&pfd, 1, wait_ms);
      while (ready < 0 && errno == EINTR && !got_sigint);
      if (got_sigint)
         break;
      if (ready > 0) {
         char    keys[64];
         ssize_t got = read(0, keys, sizeof keys);
         (void)got;
         break;
      }
   }
   if (tty)
      tcsetattr(0, TCSANOW, &saved);
   got_sigint = 0;
   return status;
}

/*--------------------------------------------------------------------*/
/*--- ws_print: the lines of the input.                wsp_input.c ---*/
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

/* Owns the bytes of the input: reading them as they come into a buffer
   that holds the line being read (so that memory does not grow with
   the file), cutting them into lines, and what a file that is no ws
   file is refused for from its bytes alone: its first bytes (a check
   the reader supplies), a NUL byte, more than --max-size bytes, a
   failed read.  Those come first: after the reader has stopped at a
   line, wsp_input_rest() reads on to them, as a reader that read the
   whole file before its lines would have.

   A file is read a second time when the model does not keep its
   samples (wsp_series.c): a regular file from where it began; a pipe
   from the copy kept as it came, in memory up to HOLD_MAX bytes, then
   in a temporary file ($TMPDIR, else /tmp) that is unlinked at once. */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wsp_lex.h"

#define CHUNK    ((size_t)1 << 16)     /* the buffer at first, a read */
#define HOLD_MAX ((size_t)8 << 20)     /* a pipe's copy kept in memory */

/* A system call failed: what (empty: reading the input) and errno. */
static int sys_fail(struct wsp_error *err, const char *what)
{
   err->line = 0;
   err->errnum = errno ? errno : EIO;
   snprintf(err->msg, sizeof err->msg, "%s", what);
   return -1;
}

static int oom(struct wsp_error *err)
{
   err->line = 0;
   err->errnum = 0;
   snprintf(err->msg, sizeof err->msg, "out of memory");
   return -1;
}

void wsp_input_fd(struct wsp_input *in, int fd, uint64_t max,
                  wsp_first_fn *first, void *ctx)
{
   struct stat st;
   memset(in, 0, sizeof *in);
   in->fd = in->rfd = fd;
   in->max = max;
   in->first = first;
   in->ctx = ctx;
   in->checks = 1;
   in->spool = -1;
   in->origin = -1;
   if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
      in->origin = lseek(fd, 0, SEEK_CUR);
}

void wsp_input_mem(struct wsp_input *in, const char *buf, size_t len)
{
   memset(in, 0, sizeof *in);
   in->fd = in->rfd = -1;
   in->spool = -1;
   in->mem = buf;
   in->mem_len = len;
   in->buf = (char *)buf;
   in->end = len;
   in->eof = in->started = 1;
}

void wsp_input_close(struct wsp_input *in)
{
   if (in->buf != in->mem || in->owns_mem)
      free(in->buf);
   free(in->held);
   if (in->spool >= 0)
      close(in->spool);
   in->buf = in->held = NULL;
   in->spool = -1;
}

static int write_all(int fd, const char *b, size_t n)
{
   while (n) {
      ssize_t w = write(fd, b, n);
      if (w < 0 && errno == EINTR)
         continue;
      if (w <= 0)
         return -1;
      b += w;
      n -= (size_t)w;
   }
   return 0;
}

/* Keep a copy of a pipe's new bytes for a second reading. */
static int hold(struct wsp_input *in, const char *b, size_t n,
                struct wsp_error *err)
{
   if (in->spool < 0 && in->held_n + n <= HOLD_MAX) {
      if (in->held_n + n > in->held_cap) {
         size_t cap = in->held_cap ? in->held_cap : CHUNK;
         while (cap < in->held_n + n)
            cap *= 2;
         char *h = realloc(in->held, cap);
         if (!h)
            return oom(err);
         in->held = h;
         in->held_cap = cap;
      }
      memcpy(in->held + in->held_n, b, n);
      in->held_n += n;
      return 0;
   }
   if (in->spool < 0) {
      const char *dir = getenv("TMPDIR");
      char path[4096];
      if (!dir || !*dir)
         dir = "/tmp";
      snprintf(path, sizeof path, "%s/ws_print.XXXXXX", dir);
      in->spool = mkstemp(path);
      if (in->spool < 0)
         return sys_fail(err, "cannot keep a copy of the input for a "
                         "second reading in $TMPDIR");
      unlink(path);
      if (write_all(in->spool, in->held, in->held_n))
         return sys_fail(err, "cannot keep a copy of the input for a "
                         "second reading in $TMPDIR");
      free(in->held);
      in->held = NULL;
      in->held_n = in->held_cap = 0;
   }
   if (write_all(in->spool, b, n))
      return sys_fail(err, "cannot keep a copy of the input for a "
                      "second reading in $TMPDIR");
   return 0;
}

/* What is refused from the bytes alone, checked as each read brings
   them: the first bytes, a NUL byte, the size. */
static int check_bytes(struct wsp_input *in, size_t from, size_t n,
                       struct wsp_error *err)
{
   if (!in->started) {
      int k = in->first(in->ctx, in->buf, in->end, err);
      if (k < 0)
         return -1;
      in->started = k == 0;
   }
   const char *nul = memchr(in->buf + from, '\0', n);
   if (nul) {
      size_t line = in->lines_before + 1;
      for (const char *q = in->buf + in->start; q < nul; q++)
         line += *q == '\n';
      err->line = line;
      err->errnum = 0;
      snprintf(err->msg, sizeof err->msg, "a NUL byte: not a ws output "
               "file");
      return -1;
   }
   if (in->total > in->max) {
      err->line = 0;
      err->errnum = 0;
      snprintf(err->msg, sizeof err->msg, "the file is larger than %llu "
               "bytes (--max-size=<bytes> reads larger ones)",
               (unsigned long long)in->max);
      return -1;
   }
   return 0;
}

/* Read more bytes after those in the buffer: 1, 0 at the end, -1. */
static int fill(struct wsp_input *in, struct wsp_error *err)
{
   if (in->eof)
      return 0;
   if (in->start > 0) {
      memmove(in->buf, in->buf + in->start, in->end - in->start);
      in->end -= in->start;
      in->scan -= in->start;
      in->start = 0;
   }
   if (in->end == in->cap) {
      size_t cap = in->cap ? in->cap * 2 : CHUNK;
      char *b = cap > in->cap ? realloc(in->buf, cap) : NULL;
      if (!b)
         return oom(err);
      in->buf = b;
      in->cap = cap;
   }
   size_t room = in->cap - in->end;
   if (in->checks && room > in->max + 1 - in->total)
      room = (size_t)(in->max + 1 - in->total);
   ssize_t r;
   do
      r = read(in->rfd, in->buf + in->end, room);
   while (r < 0 && errno == EINTR);
   if (r < 0)
      return sys_fail(err, "");
   if (r == 0) {
      in->eof = 1;
      return 0;
   }
   size_t from = in->end;
   in->end += (size_t)r;
   in->total += (uint64_t)r;
   if (!in->checks)
      return 1;
   if (in->origin < 0 && hold(in, in->buf + from, (size_t)r, err))
      return -1;
   return check_bytes(in, from, (size_t)r, err) ? -1 : 1;
}

int wsp_input_line(struct wsp_input *in, struct wsp_str *line, int *newline,
                   struct wsp_error *err)
{
   for (;;) {
      if (in->started || in->eof) {
         const char *nl = in->end > in->scan
                          ? memchr(in->buf + in->scan, '\n',
                                   in->end - in->scan) : NULL;
         if (nl) {
            size_t end = (size_t)(nl - in->buf);
            line->s = in->buf + in->start;
            line->len = end - in->start;
            *newline = 1;
            in->start = in->scan = end + 1;
            in->lines_before++;
            return 1;
         }
         in->scan = in->end;
         if (in->eof) {
            if (in->start == in->end)
               return 0;
            line->s = in->buf + in->start;
            line->len = in->end - in->start;
            *newline = 0;
            in->start = in->scan = in->end;
            return 1;
         }
      }
      int k = fill(in, err);
      if (k < 0)
         return -1;
   }
}

int wsp_input_start(struct wsp_input *in, struct wsp_error *err)
{
   while (!in->started && !in->eof)
      if (fill(in, err) < 0)
         return -1;
   return 0;
}

int wsp_input_rest(struct wsp_input *in, struct wsp_error *err)
{
   while (!in->eof) {
      for (size_t i = in->start; i < in->end; i++)
         in->lines_before += in->buf[i] == '\n';
      in->start = in->scan = in->end;
      if (fill(in, err) < 0)
         return -1;
   }
   return 0;
}

int wsp_input_again(struct wsp_input *in, struct wsp_error *err)
{
   in->start = in->scan = 0;
   in->lines_before = 0;
   if (in->mem) {
      in->end = in->mem_len;
      return 0;
   }
   in->checks = 0;
   in->started = 1;
   in->eof = 0;
   in->end = 0;
   if (in->origin >= 0) {
      if (lseek(in->fd, in->origin, SEEK_SET) < 0)
         return sys_fail(err, "");
   } else if (in->spool >= 0) {
      if (lseek(in->spool, 0, SEEK_SET) < 0)
         return sys_fail(err, "");
      in->rfd = in->spool;
   } else {
      /* the pipe's copy in memory becomes the input */
      free(in->buf);
      in->buf = in->held;
      in->mem = in->held;
      in->mem_len = in->end = in->held_n;
      in->owns_mem = 1;
      in->held = NULL;
      in->eof = 1;
   }
   return 0;
}

/*--------------------------------------------------------------------*/
/*--- end                                              wsp_input.c ---*/
/*--------------------------------------------------------------------*/

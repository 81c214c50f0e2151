/*--------------------------------------------------------------------*/
/*--- ws_print: the reader.                             wsp_read.h ---*/
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

/* The second stage of ws_print: reading a file into the model
   (wsp_model.h), as strictly as tests/wslib.py and the format
   document say (wsp_read.c).  What ws_print.c and the fuzz harness
   call; the reader's own files share wsp_reader.h. */

#ifndef WSP_READ_H
#define WSP_READ_H

#include "wsp_model.h"

/* Read the file open on fd into f: an output file, or a file `ws dump
   FILE` wrote (f->dump_file), as its first bytes say.  Anything else
   is refused from its first bytes (/dev/zero, a binary, an endless
   pipe), and no more than max bytes are read.  Memory stays bounded
   whatever the file's size (wsp_series.c); f reads fd again while it
   lives.  Returns 0, or -1 with err filled in.  An output file cut
   short (no trailer, a last line without its newline) reads, with
   f->complete == 0.  wsp_free() releases what a read allocated,
   whatever it returned.  flags: WSP_READ_PAGES keeps every page of the
   dump blocks and the page lines of an output file (f->dump_pages,
   f->pages), which no other view needs and which grow with the run.

   wsp_read_output() and wsp_read_dump() read len bytes of buf (which
   must outlive f) as one or the other, without the checks of the
   bytes alone (the fuzz harness). */
#define WSP_READ_PAGES 1   /* keep dump pages and page lines (--json) */
int wsp_read_fd(int fd, uint64_t max, unsigned flags, struct wsp_file *f,
                struct wsp_error *err);
int wsp_read_output(const char *buf, size_t len, struct wsp_file *f,
                    struct wsp_error *err);
int wsp_read_dump(const char *buf, size_t len, struct wsp_file *f,
                  struct wsp_error *err);

/* Whether the len bytes read so far of a file begin a file ws wrote:
   1 if they do (an output file of a version this reader knows, or a
   dump file), 0 if not or if more bytes are needed to tell. */
#define WSP_FIRST_LINE_MAX 64
int wsp_is_ws_start(const char *buf, size_t len);

#endif

/*--------------------------------------------------------------------*/
/*--- end                                               wsp_read.h ---*/
/*--------------------------------------------------------------------*/

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

/* Read len bytes of buf, an output file (wsp_read_output) or a file
   `ws dump FILE` wrote (wsp_read_dump), into f.  Returns 0, or -1
   with err filled in.  An output file cut short (no trailer, a last
   line without its newline) reads, with f->complete == 0.  wsp_free()
   releases what a read allocated, whatever it returned. */
int wsp_read_output(const char *buf, size_t len, struct wsp_file *f,
                    struct wsp_error *err);
int wsp_read_dump(const char *buf, size_t len, struct wsp_file *f,
                  struct wsp_error *err);

/* Whether the len bytes read so far of a file can begin a ws output
   file: 0 if its first line is a version line this reader knows, -1
   (err filled in, as wsp_read_output would) if they cannot, 1 if more
   bytes are needed to tell.  wsp_dump_check_start(): 0 if they begin
   as a dump file (any version: the read names the one it reads), -1
   if not, 1 if more bytes are needed to tell.  A caller checks the
   bytes as they come, so that anything else (/dev/zero, a binary, an
   endless pipe) is refused from its first bytes. */
#define WSP_FIRST_LINE_MAX 64
int wsp_check_start(const char *buf, size_t len, struct wsp_error *err);
int wsp_dump_check_start(const char *buf, size_t len);

#endif

/*--------------------------------------------------------------------*/
/*--- end                                               wsp_read.h ---*/
/*--------------------------------------------------------------------*/

/*--------------------------------------------------------------------*/
/*--- ws_print: libFuzzer harness.                 fuzz_ws_print.c ---*/
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

/* Built only by `make fuzz-print` (clang, -fsanitize=fuzzer,address,
   undefined).  Each input is parsed as an output file; one that parses
   is also printed every way ws_print prints (text at a narrow and a
   wide size, CSV, HTML) to /dev/null, so the renderers meet the odd
   numbers the reader lets through; and likewise as a dump file.
   Inputs worth keeping go to tests/print_corpus/, which `make check`
   replays. */

#include <stdio.h>
#include <stdlib.h>

#include "wsp_read.h"
#include "wsp_render.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
   static FILE *null;
   struct wsp_file f;
   struct wsp_error err;

   if (!null && !(null = fopen("/dev/null", "w")))
      abort();
   if (wsp_read_output((const char *)data, size, &f, &err) == 0) {
      struct wsp_text_opts o = { 30, 4, "fuzz" };
      wsp_text(null, &f, &o);
      o.width = 130;
      o.height = 9;
      wsp_text(null, &f, &o);
      wsp_csv(null, &f);
      wsp_html(null, &f, "fuzz");
      wsp_folded(null, &f, WSP_KEY_USAGE, 0);
      wsp_folded(null, &f, WSP_KEY_USEFUL, 1);
   } else if (err.line == 0 || !err.msg[0]) {
      abort();                  /* every error names a line and a reason */
   }
   wsp_free(&f);
   if (wsp_read_dump((const char *)data, size, &f, &err) == 0) {
      struct wsp_text_opts o = { 30, 4, "fuzz" };
      wsp_dump_text(null, &f, &o);
      wsp_dump_csv(null, &f);
   } else if (err.line == 0 || !err.msg[0]) {
      abort();
   }
   wsp_free(&f);
   return 0;
}

/*--------------------------------------------------------------------*/
/*--- end                                          fuzz_ws_print.c ---*/
/*--------------------------------------------------------------------*/

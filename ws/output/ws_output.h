/*--------------------------------------------------------------------*/
/*--- ws: files and the output file.                 ws_output.h ---*/
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

/* The output layer's header: how every file is opened, escaped and
   written (ws_file.c), and the output file's frame and records
   (ws_output.c).  It knows the core (ws_core.h) and nothing above it:
   the analyses and the doors write through it. */

#ifndef __WS_OUTPUT_H
#define __WS_OUTPUT_H

#include "ws_core.h"

/*------------------------------------------------------------*/
/*--- Files (ws_file.c)                                    ---*/
/*------------------------------------------------------------*/

/* How a string is escaped (docs/output-format.md, "Escaping"): text
   that runs to the end of its line keeps single spaces inside it; a
   word (a location, an argument of the command line) keeps none. */
typedef enum { WS_EscText, WS_EscWord } WS_Escape;

/* Writes |s| escaped through |put|. */
void  WS_(escape)(const HChar* s, WS_Escape how,
                  void (*put)(HChar c, void* opaque), void* opaque);
/* The same into |buf| of |size| bytes, cut (never inside an escape or
   a character) if it does not fit; returns the length. */
SizeT WS_(escape_into)(const HChar* s, WS_Escape how, HChar* buf,
                       SizeT size);

/* A file name as given (--ws-file, ws dump ...) checked, with every
   %q{VAR} replaced by the variable's value now: a template holding
   only %p, %n and %%.  NULL, with the reason in |why|, if refused. */
HChar* WS_(name_template)(const HChar* name, const HChar** why);
/* The template's name in this process (this image, see WS_(image)). */
HChar* WS_(name_expand)(const HChar* option, const HChar* template);
/* Which program of this process this is: 0, or k after the program's
   k-th exec under --trace-children=yes, whose files are named
   "<name>.exec<k>" (set by the hidden option --ws-image). */
extern UInt WS_(image);

#define WS_FILE_BUF (64 * 1024)

/* A file ws writes, the gdb/vgdb output (to_monitor) or Valgrind's
   log (to_log).  Zero but
   for |what| and |fd| (-1) when nothing is open. */
typedef struct _WS_File {
   const HChar*     what;       /* "output file", ... for messages */
   Int              fd;         /* -1: not writing */
   Bool             to_monitor; /* writes go to VG_(gdb_printf) */
   HChar*           name;       /* as opened (expanded) */
   Bool             failed;     /* a write failed; said so */
   Bool             created;    /* did not exist before */
   ULong            dev, ino;
   HChar*           buf;
   UInt             size, used;
   UInt             lines;      /* bytes of buf that are whole lines */
   UInt             partial;    /* bytes written since the last '\n' */
   struct _WS_File* next;       /* ws's open files */
   Bool             to_log;     /* lines go to Valgrind's log (stderr) */
} WS_File;
#define WS_FILE(what)     { what, -1, False, NULL }
/* The gdb/vgdb output: what the monitor commands reply. */
WS_File* WS_(monitor_file)(void);
/* Valgrind's log, line by line (what a break stop reports). */
WS_File* WS_(log_file)(void);

/* Creates (truncates) |name| for writing; False with the reason in
   |why| if it cannot, or if it is a file ws, Valgrind or the program
   already has open. */
Bool WS_(file_create)(WS_File* f, const HChar* name, HChar* why,
                      SizeT why_size);
/* Formatted text, escaped strings, single characters ('\n' ends a
   line: only whole lines reach the file). */
void WS_(file_printf)(WS_File* f, const HChar* format, ...)
   PRINTF_CHECK(2, 3);
void WS_(file_vprintf)(WS_File* f, const HChar* format, va_list vargs);
void WS_(file_text)(WS_File* f, const HChar* s, WS_Escape how);
void WS_(file_put_char)(HChar c, void* f);
/* Writes the whole lines waiting; how many bytes of them wait. */
void WS_(file_flush)(WS_File* f);
UInt WS_(file_pending)(const WS_File* f);
/* Whether |f| is written (open, no write failed). */
Bool WS_(file_writing)(const WS_File* f);
/* Writes what is left and closes; False if a write failed. */
Bool WS_(file_close)(WS_File* f);
/* Closes and removes a file just created (a refusal at start-up). */
void WS_(file_abandon)(WS_File* f);
/* Drops the descriptor and what waits, writing nothing. */
void WS_(file_forget)(WS_File* f);
/* In a forked child: |f| is the parent's; the child makes its own when
   |template| (as |option|=|value| gave it) expands to a new name, and
   says why not otherwise.  Returns whether it has one. */
Bool WS_(file_after_fork)(WS_File* f, const HChar* option,
                          const HChar* value, const HChar* template);
/* The client's command line, each argument an escaped word. */
void WS_(file_command)(WS_File* f);
/* "insn" or "data". */
const HChar* WS_(kind_name)(WS_Kind kind);

/*------------------------------------------------------------*/
/*--- Output (ws_output.c)                                 ---*/
/*------------------------------------------------------------*/

/* The template of a file-name option (%q{VAR} expanded), or exit with
   status 1 saying why: at start-up only. */
HChar* WS_(option_template)(const HChar* option, const HChar* value);
/* The name the output file has in this process, then opening it; |name|
   is the first's result, freed.  False (said why) if it cannot be made:
   the caller ends the run with status 1. */
HChar* WS_(out_expected_name)(void);
Bool WS_(out_open)(HChar* name);
WS_File* WS_(out_file)(void);
/* The "key: value" header of the output file, or of a dump file. */
void WS_(write_header)(WS_File* f, Bool dump_file);
void WS_(out_header)(void);
/* Adds a column, named |name| in the header, after the core's in every
   sample line: |value| at each sample (at start-up, before the
   header). */
void WS_(out_sample_column)(const HChar* name, ULong (*value)(void));
/* Registers the output file's lines of what the core tells: samples,
   starts and stops, threads. */
void WS_(output_init)(void);
/* printf-style: appends to the current line buffer. */
void WS_(out_printf)(const HChar* format, ...) PRINTF_CHECK(1, 2);
/* A string, escaped as text that runs to the end of its line. */
void WS_(out_text)(const HChar* s);
/* Ends a record; whole records are what reach the file. */
void WS_(out_end_line)(void);
void WS_(out_event)(const HChar* format, ...) PRINTF_CHECK(1, 2);
void WS_(out_maybe_flush)(void);
/* Writes every complete record out now. */
void WS_(out_flush)(void);
/* The trailer's frame: an "exec" event first when the program is about
   to exec |exec_path| (else NULL); the analyses' sections come between
   (in the grammar's order, ws_main.c), then the summary lines, "samples"
   and "end", and the file is closed. */
void WS_(out_trailer_begin)(const HChar* exec_path);
void WS_(out_trailer_end)(void);
/* The summary on stderr at exit: the sizes and the samples first, the
   analyses' lines (peaks, regions) between, the output file last. */
void WS_(out_summary_sizes)(void);
void WS_(out_summary_file)(void);
/* "I.D": |sum| / |n| with one decimal, rounded half up (|buf| of 32
   bytes); and the summary's lines of one set of sizes, for the run or a
   region, each after |indent|. */
void WS_(format_avg)(HChar* buf, ULong sum, ULong n);
typedef struct {
   ULong sum[2], peak[2], total[2];               /* pages */
   ULong line_sum[2], line_peak[2], line_total[2];
} WS_SizeSums;
void WS_(print_sizes)(const HChar* indent, const WS_SizeSums* z, ULong n);
/* "0.DDD": the data working set's density, |lines| (summed over
   samples) over the lines of |pages| (summed the same). */
void WS_(format_density)(HChar* buf, ULong lines, ULong pages);
/* After the summary: how to look at the output file and at the miss
   profile |miss_name| (NULL: none). */
void WS_(out_view_hint)(const HChar* miss_name);
void WS_(out_after_fork)(ThreadId tid);
/* After an exec that failed once the files were finished: the rest of
   the run is a new image, in a file of its own. */
void WS_(out_new_image)(void);
const HChar* WS_(out_name)(void);

#endif /* __WS_OUTPUT_H */

/*--------------------------------------------------------------------*/
/*--- end                                              ws_output.h ---*/
/*--------------------------------------------------------------------*/

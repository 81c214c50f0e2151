/*--------------------------------------------------------------------*/
/*--- ws: the output file and the stderr summary.      ws_output.c ---*/
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

/* Owns the output file (its grammar is docs/output-format.md) and the
   summary printed on stderr at exit.  It formats what it is given and
   computes nothing but averages and unit conversions.

   Records are streamed: they collect in a buffer that reaches the file
   in whole lines before every system call the program makes (so a
   program that blocks, or is killed while blocked, has everything
   written) and at least every WS_FLUSH_INSNS instructions (or
   WS_FLUSH_MS milliseconds) while it computes.  A process killed even
   by SIGKILL leaves a file whose every line is complete. */

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_threadstate.h"

#include "ws_output.h"

#define WS_FLUSH_BYTES  (16 * 1024)
#define WS_FLUSH_INSNS  1000000ULL
#define WS_FLUSH_MS     10ULL

static WS_File out = WS_FILE("output file");
static HChar*  out_template = NULL;   /* --ws-file, %q{VAR} expanded */
static ULong   last_flush = 0;        /* WS_(now)() at the last flush */

/*------------------------------------------------------------*/
/*--- Records                                              ---*/
/*------------------------------------------------------------*/

WS_File* WS_(out_file)(void)
{
   return &out;
}

void WS_(out_printf)(const HChar* format, ...)
{
   va_list vargs;
   va_start(vargs, format);
   WS_(file_vprintf)(&out, format, vargs);
   va_end(vargs);
}

void WS_(out_end_line)(void)
{
   WS_(file_put_char)('\n', &out);
}

void WS_(out_text)(const HChar* s)
{
   WS_(file_text)(&out, s, WS_EscText);
}

static void flush_lines(void)
{
   WS_(file_flush)(&out);
   last_flush = WS_(now)();
}

void WS_(out_flush)(void)
{
   if (WS_(file_pending)(&out) > 0)
      flush_lines();
}

void WS_(out_maybe_flush)(void)
{
   ULong since = WS_(now)() - last_flush;
   ULong limit = WS_(clo).time_unit == WS_TimeMillis ? WS_FLUSH_MS
                                                     : WS_FLUSH_INSNS;
   if (WS_(file_pending)(&out) >= WS_FLUSH_BYTES || since >= limit)
      flush_lines();
}

void WS_(out_event)(const HChar* format, ...)
{
   va_list vargs;
   WS_(out_printf)("event %llu ", WS_(now)());
   va_start(vargs, format);
   WS_(file_vprintf)(&out, format, vargs);
   va_end(vargs);
   WS_(out_end_line)();
   WS_(out_maybe_flush)();
}

/*------------------------------------------------------------*/
/*--- What the core tells                                  ---*/
/*------------------------------------------------------------*/

/* The column an analysis adds to the samples (the live heap bytes), or
   NULL: its name in the header, and its value at each sample. */
static const HChar* column_name;
static ULong      (*column_value)(void);

void WS_(out_sample_column)(const HChar* name, ULong (*value)(void))
{
   column_name = name;
   column_value = value;
}

/* A sample's line: "t insn data", the lines, an analysis's column, with
   --ws-per-thread=yes the shared
   pages and each live thread's sizes; a final sample is marked by the
   event after it, which gives its window's length. */
static void write_sample(const WS_Event* ev)
{
   ThreadId tid;
   ULong sizes[2];
   WS_(out_printf)("%llu %llu %llu", ev->t, ev->sizes[WS_Insn],
                   ev->sizes[WS_Data]);
   if (WS_(lines_on)())
      WS_(out_printf)(" %llu %llu", ev->lines[WS_Insn], ev->lines[WS_Data]);
   if (column_value != NULL)
      WS_(out_printf)(" %llu", column_value());
   if (WS_(clo).per_thread) {
      WS_(out_printf)(" %llu", WS_(shared_pages)());
      for (tid = 1; tid < VG_N_THREADS; tid++)
         if (WS_(thread_sizes)(tid, sizes))
            WS_(out_printf)(" %u %llu %llu", tid, sizes[WS_Insn],
                            sizes[WS_Data]);
   }
   WS_(out_end_line)();
   /* at the sample's time, not the clock's: in ms mode the clock may
      have moved on since the sample was taken */
   if (ev->final) {
      WS_(out_printf)("event %llu final %llu", ev->t, ev->window);
      WS_(out_end_line)();
   }
   WS_(out_maybe_flush)();
}

static void write_start(const WS_Event* ev)
{
   WS_(out_event)(ev->fresh ? "start" : "region-start");
}

/* The end of the program is no "stop": the trailer follows. */
static void write_stop(const WS_Event* ev)
{
   if (!ev->end)
      WS_(out_event)("stop");
}

static void write_thread_start(const WS_Event* ev)
{
   WS_(out_event)("thread-start %u", ev->tid);
}

static void write_thread_exit(const WS_Event* ev)
{
   WS_(out_event)("thread-exit %u", ev->tid);
}

void WS_(output_init)(void)
{
   WS_(listen)(WS_EvSample, write_sample);
   WS_(listen)(WS_EvStart, write_start);
   WS_(listen)(WS_EvStop, write_stop);
   WS_(listen)(WS_EvThreadStart, write_thread_start);
   WS_(listen)(WS_EvThreadExit, write_thread_exit);
}

/*------------------------------------------------------------*/
/*--- Opening, headers, trailer                            ---*/
/*------------------------------------------------------------*/

/* The template of a file-name option, or exit with status 1 saying
   why (at start-up, before the program runs). */
HChar* WS_(option_template)(const HChar* option, const HChar* value)
{
   const HChar* why;
   HChar* template = WS_(name_template)(value, &why);
   if (template == NULL) {
      VG_(fmsg)("%s: cannot use the file name '%s': %s\n", option, value,
                why);
      VG_(exit)(1);
   }
   return template;
}

HChar* WS_(out_expected_name)(void)
{
   if (out_template == NULL)
      out_template = WS_(option_template)(WS_(clo).file_option,
                                          WS_(clo).file);
   return WS_(name_expand)(WS_(clo).file_option, out_template);
}

Bool WS_(out_open)(HChar* name)
{
   HChar why[512];
   if (!WS_(file_create)(&out, name, why, sizeof why)) {
      VG_(fmsg)("%s: cannot create the output file '%s' (%s; a writable "
                "file name is accepted)\n", WS_(clo).file_option, name, why);
      return False;
   }
   VG_(free)(name);
   return True;
}

const HChar* WS_(out_name)(void)
{
   return out.name;
}

void WS_(write_header)(WS_File* f, Bool dump_file)
{
   WS_(file_printf)(f, "%s: %d\n", dump_file ? "ws-dump-format"
                                              : "ws-output-format",
                    dump_file ? WS_DUMP_FORMAT_VERSION : WS_FORMAT_VERSION);
   if (!dump_file) {
      WS_(file_printf)(f, "tool: ws %s\ncommand: ", WS_VERSION);
      WS_(file_command)(f);
      WS_(file_put_char)('\n', f);
   }
   WS_(file_printf)(f, "pid: %d\n", VG_(getpid)());
   if (!dump_file)
      WS_(file_printf)(f, "ppid: %d\n", VG_(getppid)());
   if (dump_file) {
      WS_(file_printf)(f, "output-file: ");
      WS_(file_text)(f, out.name ? out.name : "(none)", WS_EscText);
      WS_(file_put_char)('\n', f);
   }
   WS_(file_printf)(f, "time-unit: %s\nevery: %llu\ntau: %llu\n"
                    "pagesize: %u\nlinesize: %u\n",
                    WS_(clo).time_unit == WS_TimeMillis ? "ms" : "i",
                    WS_(every)(), WS_(tau)(), WS_(page_size)(),
                    WS_(clo).linesize);
   if (dump_file)
      return;
   WS_(file_printf)(f, "syscalls: %s\nper-thread: %s\ninstr-atstart: %s\n"
                    "count-rep: %s\nheap-usage: %s\nnum-callers: %d\n"
                    "%scolumns: t insn data%s%s%s%s\n",
                    WS_(clo).syscalls ? "yes" : "no",
                    WS_(clo).per_thread ? "yes" : "no",
                    WS_(clo).instr_atstart ? "yes" : "no",
                    WS_(clo).count_rep_once ? "once" : "each",
                    !WS_(clo).heap_usage ? "no"
                    : WS_(clo).heap_exact ? "exact" : "yes",
                    VG_(clo_backtrace_size),
                    WS_(clo).routines ? "routines: yes\n" : "",
                    WS_(lines_on)() ? " insn-lines data-lines" : "",
                    column_name != NULL ? " " : "",
                    column_name != NULL ? column_name : "",
                    WS_(clo).per_thread ? " shared {tid insn data}..." : "");
}

void WS_(out_header)(void)
{
   WS_(write_header)(&out, False);
   flush_lines();
}

void WS_(format_avg)(HChar* buf, ULong sum, ULong n)
{
   ULong tenths = n == 0 ? 0 : (sum * 20 + n) / (2 * n);
   VG_(sprintf)(buf, "%llu.%llu", tenths / 10, tenths % 10);
}

static ULong pages_to_kb(ULong sum, ULong n)
{
   ULong denom = (n == 0 ? 1 : n) * 1024;
   return (sum * WS_(page_size)() + denom / 2) / denom;
}

/* "0.DDD": the data working set's density, lines in the window over
   the lines of its pages (|lines| and |pages| summed over samples), in
   thousandths rounded half up (|buf| of 32 bytes). */
void WS_(format_density)(HChar* buf, ULong lines, ULong pages)
{
   ULong denom = pages << WS_(lpp_shift)();
   ULong milli = denom == 0 ? 0 : (lines * 2000 + denom) / (2 * denom);
   VG_(sprintf)(buf, "%llu.%03llu", milli / 1000, milli % 1000);
}

void WS_(print_sizes)(const HChar* indent, const WS_SizeSums* z, ULong n)
{
   static const HChar* label[2] = { "Insn", "Data" };
   Int kind;
   HChar avg[32], lavg[32], density[32];
   for (kind = 0; kind < 2; kind++) {
      WS_(format_avg)(avg, z->sum[kind], n);
      VG_(umsg)("%s%s avg/peak/total: %s/%llu/%llu pages "
                "(%llu/%llu/%llu kB)%s",
                indent, label[kind], avg, z->peak[kind], z->total[kind],
                pages_to_kb(z->sum[kind], n), pages_to_kb(z->peak[kind], 1),
                pages_to_kb(z->total[kind], 1),
                WS_(lines_on)() ? ", " : "\n");
      if (!WS_(lines_on)())
         continue;
      WS_(format_avg)(lavg, z->line_sum[kind], n);
      VG_(umsg)("%s/%llu/%llu lines", lavg, z->line_peak[kind],
                z->line_total[kind]);
      if (kind == WS_Data) {
         WS_(format_density)(density, z->line_sum[kind], z->sum[kind]);
         VG_(umsg)(", density %s", density);
      }
      VG_(umsg)("\n");
   }
}

/* The run's figures, as print_sizes takes them. */
static void run_sums(WS_SizeSums* z)
{
   Int kind;
   for (kind = 0; kind < 2; kind++) {
      z->sum[kind] = WS_(stats).sum[kind];
      z->peak[kind] = WS_(stats).peak[kind];
      z->total[kind] = WS_(stats).total[kind];
      z->line_sum[kind] = WS_(stats).line_sum[kind];
      z->line_peak[kind] = WS_(stats).line_peak[kind];
      z->line_total[kind] = WS_(total_lines)(WS_(stats).total_lines,
                                             WS_(stats).total, kind);
   }
}

void WS_(out_trailer_begin)(const HChar* exec_path)
{
   if (exec_path != NULL) {
      WS_(out_printf)("event %llu exec ", WS_(now)());
      WS_(out_text)(exec_path);
      WS_(out_end_line)();
   }
}

void WS_(out_trailer_end)(void)
{
   Int kind;
   HChar avg[32], density[32];
   WS_SizeSums z;
   run_sums(&z);
   for (kind = 0; kind < 2; kind++) {
      WS_(format_avg)(avg, z.sum[kind], WS_(stats).samples);
      WS_(out_printf)("summary %s %s %llu %llu", WS_(kind_name)(kind), avg,
                      z.peak[kind], z.total[kind]);
      if (WS_(lines_on)()) {
         WS_(format_avg)(avg, z.line_sum[kind], WS_(stats).samples);
         WS_(out_printf)(" lines %s %llu %llu", avg, z.line_peak[kind],
                         z.line_total[kind]);
         if (kind == WS_Data) {
            WS_(format_density)(density, z.line_sum[kind], z.sum[kind]);
            WS_(out_printf)(" density %s", density);
         }
      }
      WS_(out_end_line)();
   }
   WS_(out_printf)("samples %llu", WS_(stats).samples);
   WS_(out_end_line)();
   WS_(out_printf)("end");
   WS_(out_end_line)();
   WS_(file_close)(&out);
}

void WS_(out_summary_sizes)(void)
{
   WS_SizeSums z;
   run_sums(&z);
   WS_(print_sizes)("", &z, WS_(stats).samples);
   VG_(umsg)("Samples: %llu\n", WS_(stats).samples);
}

void WS_(out_summary_file)(void)
{
   VG_(umsg)("Output file: %s%s\n", out.name ? out.name : "(none)",
             out.failed ? " (incomplete: writing it failed)" : "");
}

/* |name| as a shell word: as it is when it holds only characters no
   shell treats specially, else in single quotes (a quote inside as
   '\''); NULL when it holds a control character, which no command
   line shown on one line could carry. */
static HChar* shell_word(const HChar* name)
{
   static const HChar plain[] = "abcdefghijklmnopqrstuvwxyz"
                                "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                                "_./%+,:=@-";
   const HChar* c;
   HChar* word;
   HChar* w;
   Bool quote = *name == '\0';
   for (c = name; *c; c++) {
      if ((UChar)*c < 0x20 || *c == 0x7f)
         return NULL;
      if (VG_(strchr)(plain, *c) == NULL)
         quote = True;
   }
   if (!quote)
      return VG_(strdup)("ws.output.word", name);
   w = word = VG_(malloc)("ws.output.word", 4 * VG_(strlen)(name) + 3);
   *w++ = '\'';
   for (c = name; *c; c++) {
      if (*c == '\'') {
         VG_(strcpy)(w, "'\\''");
         w += 4;
      } else {
         *w++ = *c;
      }
   }
   *w++ = '\'';
   *w = '\0';
   return word;
}

/* ws_print as the user can type it: installed, it is on PATH beside
   valgrind; run from a build tree (./vg-in-place points Valgrind at the
   tree's .in-place folder) it is the tree's print/ws_print, named with
   its path, shell-quoted. */
static HChar* ws_print_word(void)
{
   static const HChar in_place[] = "/.in-place";
   SizeT n = VG_(strlen)(VG_(libdir));
   SizeT tail = sizeof in_place - 1;
   HChar* tree_print;
   HChar* word = NULL;
   struct vg_stat st;
   if (n > tail && VG_(strcmp)(VG_(libdir) + n - tail, in_place) == 0) {
      tree_print = VG_(malloc)("ws.output.wsprint", n + 16);
      VG_(strncpy)(tree_print, VG_(libdir), n - tail);
      VG_(strcpy)(tree_print + n - tail, "/print/ws_print");
      if (!sr_isError(VG_(stat)(tree_print, &st)))
         word = shell_word(tree_print);
      VG_(free)(tree_print);
   }
   return word != NULL ? word : VG_(strdup)("ws.output.wsprint", "ws_print");
}

/* As DHAT ends with how to view its profile: the commands that show
   the output file (ws_print, text and HTML) and the miss profile
   (callgrind_annotate), with their actual names.  Nothing for a file
   that is missing or incomplete (the summary said why). */
void WS_(out_view_hint)(const HChar* miss_name)
{
   HChar* file = out.name != NULL && !out.failed ? shell_word(out.name)
                                                  : NULL;
   HChar* miss = miss_name != NULL ? shell_word(miss_name) : NULL;
   if (file != NULL) {
      const HChar* base = VG_(strrchr)(out.name, '/');
      HChar* html = VG_(malloc)("ws.output.html",
                                VG_(strlen)(out.name) + 6);
      HChar* html_word;
      HChar* ws_print = ws_print_word();
      VG_(sprintf)(html, "%s.html", base != NULL ? base + 1 : out.name);
      html_word = shell_word(html);
      VG_(umsg)("To view the working sets: %s %s (text), "
                "%s --html %s %s (a web page)\n", ws_print, file, ws_print,
                html_word, file);
      VG_(free)(ws_print);
      VG_(free)(html_word);
      VG_(free)(html);
      VG_(free)(file);
   }
   if (miss != NULL) {
      VG_(umsg)("To view the misses per function: callgrind_annotate %s\n",
                miss);
      VG_(free)(miss);
   }
}

/* A forked child shares the parent's open file: it must not write
   there.  It gets its own file when the name expands differently
   (e.g. through %p), and no file otherwise. */
void WS_(out_after_fork)(ThreadId tid)
{
   if (WS_(file_after_fork)(&out, WS_(clo).file_option, WS_(clo).file,
                            out_template))
      WS_(out_header)();
}

/* After a failed exec the program goes on as a new image (its old
   files are complete): a file of its own, named for that image. */
void WS_(out_new_image)(void)
{
   HChar  why[512];
   HChar* name;
   if (out.name == NULL)
      return;                           /* a child without a file */
   VG_(free)(out.name);
   out.name = NULL;
   name = WS_(name_expand)(WS_(clo).file_option, out_template);
   if (!WS_(file_create)(&out, name, why, sizeof why))
      VG_(umsg)("ws: cannot create '%s' (%s); ws writes no output file "
                "for the rest of the run\n", name, why);
   else
      WS_(out_header)();
   VG_(free)(name);
}

/*--------------------------------------------------------------------*/
/*--- end                                               ws_output.c ---*/
/*--------------------------------------------------------------------*/

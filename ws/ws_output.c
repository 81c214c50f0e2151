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
#include "pub_tool_clientstate.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_xarray.h"

#include "ws_global.h"
#include "ws_heap.h"

#define WS_BUF_SIZE     (64 * 1024)
#define WS_FLUSH_BYTES  (16 * 1024)
#define WS_FLUSH_INSNS  1000000ULL
#define WS_FLUSH_MS     10ULL

static Int    out_fd = -1;
static HChar* out_name = NULL;
static HChar  buf[WS_BUF_SIZE];
static UInt   buf_used = 0;      /* bytes in buf */
static UInt   buf_lines = 0;     /* bytes in buf that form whole lines */
static ULong  last_flush = 0;    /* WS_(now)() at the last flush */

/*------------------------------------------------------------*/
/*--- Buffering                                            ---*/
/*------------------------------------------------------------*/

static void write_out(UInt len)
{
   UInt done = 0;
   while (done < len) {
      Int n = VG_(write)(out_fd, buf + done, len - done);
      if (n <= 0) {
         VG_(umsg)("ws: writing %s failed; no more output is written "
                   "to it\n", out_name);
         VG_(close)(out_fd);
         out_fd = -1;
         break;
      }
      done += n;
   }
   VG_(memmove)(buf, buf + len, buf_used - len);
   buf_used -= len;
   buf_lines -= len;
}

static void flush_lines(void)
{
   if (out_fd >= 0 && buf_lines > 0)
      write_out(buf_lines);
   last_flush = WS_(now)();
}

static void put_char(HChar c, void* opaque)
{
   if (buf_used == WS_BUF_SIZE) {
      if (buf_lines > 0)
         flush_lines();
      else if (out_fd >= 0) {
         /* A single record longer than the buffer: let it out in
            pieces; only the command line can be that long. */
         buf_lines = buf_used;
         write_out(buf_used);
      } else {
         buf_used = 0;
      }
   }
   buf[buf_used++] = c;
}

void WS_(out_printf)(const HChar* format, ...)
{
   va_list vargs;
   va_start(vargs, format);
   VG_(vcbprintf)(put_char, NULL, format, vargs);
   va_end(vargs);
}

void WS_(out_end_line)(void)
{
   put_char('\n', NULL);
   buf_lines = buf_used;
}

void WS_(out_put_char)(HChar c, void* opaque)
{
   if (c == '\n')
      WS_(out_end_line)();
   else
      put_char(c, opaque);
}

void WS_(out_flush)(void)
{
   if (buf_lines > 0)
      flush_lines();
}

void WS_(out_maybe_flush)(void)
{
   ULong since = WS_(now)() - last_flush;
   ULong limit = WS_(clo_time_unit) == WS_TimeMillis ? WS_FLUSH_MS
                                                     : WS_FLUSH_INSNS;
   if (buf_lines >= WS_FLUSH_BYTES || since >= limit)
      flush_lines();
}

void WS_(out_event)(const HChar* format, ...)
{
   va_list vargs;
   WS_(out_printf)("event %llu ", WS_(now)());
   va_start(vargs, format);
   VG_(vcbprintf)(put_char, NULL, format, vargs);
   va_end(vargs);
   WS_(out_end_line)();
   WS_(out_maybe_flush)();
}

/*------------------------------------------------------------*/
/*--- Opening, header, trailer                             ---*/
/*------------------------------------------------------------*/

static Int open_for_writing(const HChar* name)
{
   SysRes sres = VG_(open)(name, VKI_O_CREAT | VKI_O_TRUNC | VKI_O_WRONLY,
                           VKI_S_IRUSR | VKI_S_IWUSR | VKI_S_IRGRP
                           | VKI_S_IROTH);
   return sr_isError(sres) ? -1 : (Int)sr_Res(sres);
}

void WS_(out_open)(void)
{
   out_name = VG_(expand_file_name)(WS_(clo_file_option), WS_(clo_file));
   out_fd = open_for_writing(out_name);
   if (out_fd < 0) {
      VG_(fmsg)("%s: cannot create the output file '%s' "
                "(a writable file name is accepted)\n",
                WS_(clo_file_option), out_name);
      VG_(exit)(1);
   }
}

const HChar* WS_(out_name)(void)
{
   return out_name;
}

void WS_(out_header)(void)
{
   Word i;
   WS_(out_printf)("ws-output-format: %d", WS_FORMAT_VERSION);
   WS_(out_end_line)();
   WS_(out_printf)("tool: ws %s", WS_VERSION);
   WS_(out_end_line)();
   WS_(out_printf)("command: %s", VG_(args_the_exename));
   for (i = 0; i < VG_(sizeXA)(VG_(args_for_client)); i++)
      WS_(out_printf)(" %s",
                      *(HChar**)VG_(indexXA)(VG_(args_for_client), i));
   WS_(out_end_line)();
   WS_(out_printf)("pid: %d", VG_(getpid)());
   WS_(out_end_line)();
   WS_(out_printf)("ppid: %d", VG_(getppid)());
   WS_(out_end_line)();
   WS_(out_printf)("time-unit: %s",
                   WS_(clo_time_unit) == WS_TimeMillis ? "ms" : "i");
   WS_(out_end_line)();
   WS_(out_printf)("every: %llu", WS_(clo_every));
   WS_(out_end_line)();
   WS_(out_printf)("tau: %llu", WS_(clo_tau));
   WS_(out_end_line)();
   WS_(out_printf)("pagesize: %u", WS_(clo_pagesize));
   WS_(out_end_line)();
   WS_(out_printf)("syscalls: %s", WS_(clo_syscalls) ? "yes" : "no");
   WS_(out_end_line)();
   WS_(out_printf)("per-thread: %s", WS_(clo_per_thread) ? "yes" : "no");
   WS_(out_end_line)();
   WS_(out_printf)("instr-atstart: %s",
                   WS_(clo_instr_atstart) ? "yes" : "no");
   WS_(out_end_line)();
   WS_(out_printf)("heap-usage: %s", WS_(heap_usage) ? "yes" : "no");
   WS_(out_end_line)();
   WS_(out_printf)("columns: t insn data%s",
                   WS_(clo_per_thread) ? " shared {tid insn data}..." : "");
   WS_(out_end_line)();
   flush_lines();
}

/* |sum| / |n| with one decimal, rounded half up, as "I.D". */
static void format_avg(HChar* out, ULong sum, ULong n)
{
   ULong tenths = n == 0 ? 0 : (sum * 20 + n) / (2 * n);
   VG_(sprintf)(out, "%llu.%llu", tenths / 10, tenths % 10);
}

static ULong pages_to_kb(ULong sum, ULong n)
{
   ULong denom = (n == 0 ? 1 : n) * 1024;
   return (sum * WS_(clo_pagesize) + denom / 2) / denom;
}

static const HChar* kind_name[2] = { "insn", "data" };

static void write_region(const HChar* label, ULong n_regions, ULong samples,
                         const ULong sum[2], const ULong peak[2],
                         const ULong total[2])
{
   Int kind;
   HChar avg[32];
   WS_(out_printf)("region %llu %llu", n_regions, samples);
   for (kind = 0; kind < 2; kind++) {
      format_avg(avg, sum[kind], samples);
      WS_(out_printf)(" %s %s %llu %llu", kind_name[kind], avg, peak[kind],
                      total[kind]);
   }
   WS_(out_printf)(" label %s", label);
   WS_(out_end_line)();
}

static void print_sizes(const HChar* indent, const ULong sum[2],
                        const ULong peak[2], const ULong total[2], ULong n)
{
   static const HChar* label[2] = { "Insn", "Data" };
   Int kind;
   HChar avg[32];
   for (kind = 0; kind < 2; kind++) {
      format_avg(avg, sum[kind], n);
      VG_(umsg)("%s%s avg/peak/total: %s/%llu/%llu pages "
                "(%llu/%llu/%llu kB)\n",
                indent, label[kind], avg, peak[kind], total[kind],
                pages_to_kb(sum[kind], n), pages_to_kb(peak[kind], 1),
                pages_to_kb(total[kind], 1));
   }
}

static void print_region(const HChar* label, ULong n_regions, ULong samples,
                         const ULong sum[2], const ULong peak[2],
                         const ULong total[2])
{
   VG_(umsg)("Region '%s' (%llu region%s, %llu sample%s):\n", label,
             n_regions, n_regions == 1 ? "" : "s",
             samples, samples == 1 ? "" : "s");
   print_sizes("  ", sum, peak, total, samples);
}

void WS_(out_trailer)(void)
{
   Int kind;
   HChar avg[32];
   /* In the grammar's order: regions, hot pages, heap sites, peaks,
      summaries. */
   WS_(hot_prepare)();
   WS_(regions_report)(write_region);
   WS_(hot_trailer)();
   WS_(heapsites_trailer)();
   WS_(peaks_trailer)();
   for (kind = 0; kind < 2; kind++) {
      format_avg(avg, WS_(stats).sum[kind], WS_(stats).samples);
      WS_(out_printf)("summary %s %s %llu %llu", kind_name[kind], avg,
                      WS_(stats).peak[kind], WS_(stats).total[kind]);
      WS_(out_end_line)();
   }
   WS_(out_printf)("samples %llu", WS_(stats).samples);
   WS_(out_end_line)();
   WS_(out_printf)("end");
   WS_(out_end_line)();
   flush_lines();
   if (out_fd >= 0)
      VG_(close)(out_fd);
   out_fd = -1;
}

void WS_(out_stderr_summary)(void)
{
   print_sizes("", WS_(stats).sum, WS_(stats).peak, WS_(stats).total,
               WS_(stats).samples);
   VG_(umsg)("Samples: %llu\n", WS_(stats).samples);
   VG_(umsg)("Peaks: %llu\n", WS_(peaks_count)());
   WS_(regions_report)(print_region);
   VG_(umsg)("Output file: %s\n", out_name ? out_name : "(none)");
}

/* A forked child shares the parent's open file: it must not write
   there.  It gets its own file when the name expands differently
   (e.g. through %p), and no file otherwise. */
void WS_(out_after_fork)(ThreadId tid)
{
   HChar* name = VG_(expand_file_name)("--ws-file", WS_(clo_file));
   buf_used = buf_lines = 0;
   WS_(stack_file_forget)(WS_(out_stacks)());
   if (out_fd >= 0)
      VG_(close)(out_fd);
   out_fd = -1;
   if (VG_STREQ(name, out_name)) {
      VG_(umsg)("ws: --ws-file=%s names the parent's file; this child "
                "writes no output file (use %%p)\n", WS_(clo_file));
      VG_(free)(name);
      out_name = NULL;
      return;
   }
   out_name = name;
   out_fd = open_for_writing(out_name);
   if (out_fd < 0)
      VG_(umsg)("ws: cannot create '%s'; this child writes no output "
                "file\n", out_name);
   else
      WS_(out_header)();
}

/*--------------------------------------------------------------------*/
/*--- end                                               ws_output.c ---*/
/*--------------------------------------------------------------------*/

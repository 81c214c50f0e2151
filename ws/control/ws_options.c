/*--------------------------------------------------------------------*/
/*--- ws: command-line options.                     ws_options.c ---*/
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

/* Owns the options: the one struct of those fixed for the run,
   WS_(clo) (ws_core.h), with its defaults; their parsing and
   checking; the usage text.  Every bad value is refused here, before
   the client runs, with Valgrind's own "Bad option" message (which
   exits with status 1) and one line saying what the option takes.  The
   options that may also change at run time (v.clo,
   VALGRIND_CLO_CHANGE) are the settable parameters of ws_control.c,
   whose table gives their names and ranges, and whose modules own
   their values.  Nothing here measures or prints results.

   Options are recognised as Valgrind's tools recognise theirs, with
   VG_STR_CLO (which also answers v.clo for an option that cannot
   change: "Cannot change ... dynamically") and VG_(check_clom) for the
   parameters, whose names come from a table rather than literals.  The
   values are checked here rather than by VG_BINT_CLO and VG_BOOL_CLO:
   ws takes whole numbers of decimal digits only ("+5", "0x10" and
   "1e3" are refused), and its messages say what each option takes. */

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_options.h"

#include "ws_control.h"

WS_Clo WS_(clo) = {
   .pagesize       = 4096,
   .page_shift     = 12,
   .linesize       = 64,
   .time_unit      = WS_TimeInsns,
   .count_rep_once = True,
   .per_thread     = False,
   .syscalls       = True,
   .instr_atstart  = True,
   .file           = "ws.out.%p",
   .file_option    = "--ws-file",
   .miss_file      = NULL,
   .image_out      = True,
   .image_miss     = True,
   .peak_detect    = True,
   .peak_window    = 30,
   .peaks          = 10,
   .hot            = 20,
   .list_pages     = False,
   .locations      = True,
   .heap           = True,
   .heap_usage     = True,
   .heap_chunks    = 100,
};

#define WS_MIN_PAGESIZE   64
#define WS_MIN_LINESIZE   16
#define WS_MAX_PAGESIZE   (2 * 1024 * 1024)
#define WS_MAX_HEAP_CHUNKS 1000000

/*------------------------------------------------------------*/
/*--- Values                                               ---*/
/*------------------------------------------------------------*/

/* |option| given |val|, a whole number in [lo, hi], into |out|. */
static void number(const HChar* arg, const HChar* option, const HChar* val,
                   ULong lo, ULong hi, ULong* out)
{
   if (!WS_(whole_number)(val, lo, hi, out))
      VG_(fmsg_bad_option)(arg, "%s takes a whole number from %llu to "
                           "%llu\n", option, lo, hi);
}

static void yes_no(const HChar* arg, const HChar* option, const HChar* val,
                   Bool* out)
{
   if (VG_STREQ(val, "yes"))      *out = True;
   else if (VG_STREQ(val, "no"))  *out = False;
   else VG_(fmsg_bad_option)(arg, "%s takes yes or no\n", option);
}

static void pagesize(const HChar* arg, const HChar* val)
{
   ULong n;                   /* digits only, no wrapping past 2^64 */
   if (!WS_(whole_number)(val, WS_MIN_PAGESIZE, WS_MAX_PAGESIZE, &n)
       || (n & (n - 1)) != 0) {
      VG_(fmsg_bad_option)(arg, "--ws-pagesize takes a power of two from "
                           "%d to %d (bytes)\n",
                           WS_MIN_PAGESIZE, WS_MAX_PAGESIZE);
      return;
   }
   WS_(clo).pagesize = (UInt)n;
}

/* Checked against the page size once both are known
   (post_clo_check). */
static void linesize(const HChar* arg, const HChar* val)
{
   ULong n;
   if (!WS_(whole_number)(val, 0, WS_MAX_PAGESIZE, &n)
       || (n != 0 && ((n & (n - 1)) != 0 || n < WS_MIN_LINESIZE))) {
      VG_(fmsg_bad_option)(arg, "--ws-linesize takes 0 (off) or a power of "
                           "two from %d to the page size (bytes)\n",
                           WS_MIN_LINESIZE);
      return;
   }
   WS_(clo).linesize = (UInt)n;
}

static void time_unit(const HChar* arg, const HChar* val)
{
   if (VG_STREQ(val, "i"))        WS_(clo).time_unit = WS_TimeInsns;
   else if (VG_STREQ(val, "ms"))  WS_(clo).time_unit = WS_TimeMillis;
   else VG_(fmsg_bad_option)(arg, "--ws-time-unit takes i (instructions) "
                             "or ms (milliseconds)\n");
}

static void count_rep(const HChar* arg, const HChar* val)
{
   if (VG_STREQ(val, "once"))       WS_(clo).count_rep_once = True;
   else if (VG_STREQ(val, "each"))  WS_(clo).count_rep_once = False;
   else VG_(fmsg_bad_option)(arg, "--ws-count-rep takes once (a rep-"
                             "prefixed string instruction is one "
                             "instruction) or each (one per iteration)\n");
}

static void curves(const HChar* arg, const HChar* val)
{
   if (VG_STREQ(val, "no"))          WS_(clo).curves = WS_CurvesNo;
   else if (VG_STREQ(val, "exact"))  WS_(clo).curves = WS_CurvesExact;
   else if (VG_STREQ(val, "sampled")) WS_(clo).curves = WS_CurvesSampled;
   else VG_(fmsg_bad_option)(arg, "--ws-curves takes no, sampled "
                             "(estimates from observed windows, with "
                             "their standard errors) or exact (every "
                             "access seen: s(tau), m(tau) and the LRU "
                             "miss ratios as a full trace gives them)\n");
}

static void heap_usage(const HChar* arg, const HChar* val)
{
   WS_(clo).heap_usage = !VG_STREQ(val, "no");
   WS_(clo).heap_exact = VG_STREQ(val, "exact");
   if (!VG_STREQ(val, "yes") && !VG_STREQ(val, "no")
       && !VG_STREQ(val, "exact"))
      VG_(fmsg_bad_option)(arg, "--ws-heap-usage takes yes (a page's "
                           "accesses, for its chunks), exact (each access) "
                           "or no\n");
}

/* A file name for |option|, as the message names the option given. */
static void file_name(const HChar* arg, const HChar* option, const HChar* val,
                      const HChar** out)
{
   if (val[0] == '\0')
      VG_(fmsg_bad_option)(arg, "%s takes a file name "
                           "(%%p, %%q{VAR} and %%n are expanded)\n", option);
   *out = val;
}

/* Not for users: ws passes it to the Valgrind that runs the program an
   exec starts (--trace-children=yes), see ws_main.c.  "k,o,m": the
   program's number k in the process, and whether the output file and
   the miss profile are the process's own. */
static void image(const HChar* arg, const HChar* val)
{
   HChar* end;
   Long   k = VG_(strtoll10)(val, &end);
   if (k < 1 || k > 1000000 || end[0] != ',' || (end[1] != '0'
       && end[1] != '1') || end[2] != ',' || (end[3] != '0'
       && end[3] != '1') || end[4] != '\0')
      VG_(fmsg_bad_option)(arg, "--ws-image is set by ws itself\n");
   WS_(image) = (UInt)k;
   WS_(clo).image_out = end[1] == '1';
   WS_(clo).image_miss = end[3] == '1';
}

/* --ws-break=<cond>[,<cond>...]: each condition added to the break
   conditions (ws_break.c), in the order given; the option may be
   repeated.  A peak condition is checked against --ws-peak-detect once
   every option is known. */
static void add_breaks(const HChar* arg, const HChar* value)
{
   SizeT len = VG_(strlen)(value);
   HChar conds[len + 1];
   HChar* save;
   HChar* cond;
   WS_BreakResult r;
   VG_(strcpy)(conds, value);
   if (len == 0 || conds[0] == ',' || conds[len - 1] == ','
       || VG_(strstr)(conds, ",,") != NULL)
      VG_(fmsg_bad_option)(arg, "--ws-break: %s, separated by commas\n",
                           WS_(break_why)(WS_Break_Empty));
   for (cond = VG_(strtok_r)(conds, ",", &save); cond != NULL;
        cond = VG_(strtok_r)(NULL, ",", &save)) {
      r = WS_(break_add)(cond, NULL);
      if (r != WS_Break_OK)
         VG_(fmsg_bad_option)(arg, "--ws-break: '%s': %s\n", cond,
                              WS_(break_why)(r));
   }
}

/*------------------------------------------------------------*/
/*--- Parsing                                              ---*/
/*------------------------------------------------------------*/

/* A settable parameter (ws_control.c's table), at start-up or through
   v.clo and VALGRIND_CLO_CHANGE, where the name may come alone (and its
   missing value is refused).  At start-up the value is the module's
   first one; later it is a change, with its event, as "ws set" makes
   it, and a bad value changes nothing (the same message, without
   exiting). */
static Bool param_option(const HChar* arg)
{
   UInt i;
   ULong old, now;
   for (i = 0; i < WS_(n_params); i++) {
      const WS_Param* p = &WS_(params)[i];
      SizeT len = VG_(strlen)(p->option);
      Bool  dynamic = VG_(Clo_Mode)() == cloD;
      const HChar* val = arg + len + (arg[len] == '=');
      if (!VG_(check_clom)(cloPD, arg, p->option,
                           VG_STREQN(len, arg, p->option)
                           && (arg[len] == '='
                               || (dynamic && arg[len] == '\0'))))
         continue;
      if (!dynamic) {
         number(arg, p->option, val, p->lo, p->hi, &now);
         p->set(now);
      } else if (WS_(ctl_set)(p, val, &old, &now) != WS_Ctl_OK) {
         VG_(fmsg_bad_option)(arg, "%s takes a whole number from %llu "
                              "to %llu\n", p->option, p->lo, p->hi);
      }
      return True;
   }
   return False;
}

/* v.clo of a ws option that VG_STR_CLO did not take (none of ws's, or
   one without its value): the core says it cannot change now, as it
   does for the options that can only be given at start-up. */
static void cannot_change(const HChar* arg)
{
   const HChar* eq = VG_(strchr)(arg, '=');
   SizeT len = eq ? (SizeT)(eq - arg) : VG_(strlen)(arg);
   HChar name[len + 1];
   VG_(strncpy)(name, arg, len);
   name[len] = '\0';
   VG_(check_clom)(cloP, arg, name, True);
}

#define YES_NO(option, field)                                         \
   (VG_STR_CLO(arg, option, value)                                    \
    && (yes_no(arg, option, value, &WS_(clo).field), True))
#define NUMBER(option, lo, hi, field)                                 \
   (VG_STR_CLO(arg, option, value)                                    \
    && (number(arg, option, value, lo, hi, &WS_(clo).field), True))

Bool WS_(process_cmd_line_option)(const HChar* arg)
{
   const HChar* value;
   if (param_option(arg))
      return True;
   if      VG_STR_CLO(arg, "--ws-pagesize", value)  pagesize(arg, value);
   else if VG_STR_CLO(arg, "--ws-linesize", value)  linesize(arg, value);
   else if VG_STR_CLO(arg, "--ws-time-unit", value) time_unit(arg, value);
   else if VG_STR_CLO(arg, "--ws-count-rep", value) count_rep(arg, value);
   else if VG_STR_CLO(arg, "--ws-curves", value)    curves(arg, value);
   else if VG_STR_CLO(arg, "--ws-file", value) {
      WS_(clo).file_option = "--ws-file";
      file_name(arg, "--ws-file", value, &WS_(clo).file);
   }
   else if VG_STR_CLO(arg, "--ws-out-file", value) {
      WS_(clo).file_option = "--ws-out-file";
      file_name(arg, "--ws-out-file", value, &WS_(clo).file);
   }
   else if VG_STR_CLO(arg, "--ws-miss-file", value)
      file_name(arg, "--ws-miss-file", value, &WS_(clo).miss_file);
   else if VG_STR_CLO(arg, "--ws-image", value)     image(arg, value);
   else if VG_STR_CLO(arg, "--ws-break", value)     add_breaks(arg, value);
   else if YES_NO("--ws-per-thread", per_thread) {}
   else if YES_NO("--ws-syscalls", syscalls) {}
   else if YES_NO("--ws-instr-atstart", instr_atstart) {}
   else if YES_NO("--ws-peak-detect", peak_detect) {}
   else if YES_NO("--ws-list-pages", list_pages) {}
   else if YES_NO("--ws-locations", locations) {}
   else if YES_NO("--ws-heap", heap) {}
   else if VG_STR_CLO(arg, "--ws-heap-usage", value) heap_usage(arg, value);
   else if YES_NO("--ws-routines", routines) {
#if VG_WORDSIZE == 4
      /* its IR (ws_routines_ir.c) is amd64's */
      if (WS_(clo).routines)
         VG_(fmsg_bad_option)(arg, "--ws-routines=yes measures 64-bit "
                              "(amd64) programs only\n");
#endif
   }
   else if NUMBER("--ws-peak-window", 2, WS_MAX_PEAK_WINDOW, peak_window) {}
   else if NUMBER("--ws-hot", 0, WS_MAX_HOT, hot) {}
   else if NUMBER("--ws-peaks", 1, WS_MAX_PEAKS, peaks) {}
   else if NUMBER("--ws-heap-chunks", 0, WS_MAX_HEAP_CHUNKS, heap_chunks) {}
   else if (VG_(Clo_Mode)() == cloD && !VG_(Clo_Recognised)()
            && VG_STREQN(5, arg, "--ws-"))
      cannot_change(arg);
   else
      return False;
   return True;
}

#undef YES_NO
#undef NUMBER

/* What follows from the options, once they are all given. */
void WS_(post_clo_check)(void)
{
   UInt shift = 0;
   while ((1u << shift) < WS_(clo).pagesize)
      shift++;
   WS_(clo).page_shift = shift;
   /* (the smallest page is the default line: only a line given may be
      larger) */
   if (WS_(clo).linesize > WS_(clo).pagesize) {
      VG_(fmsg)("Bad option: --ws-linesize=%u: a line is at most a page "
                "(--ws-pagesize=%u)\n", WS_(clo).linesize,
                WS_(clo).pagesize);
      VG_(exit)(1);
   }
   for (shift = 0; WS_(clo).linesize != 0
                   && (1u << shift) < WS_(clo).linesize; shift++)
      ;
   WS_(clo).line_shift = shift;
   if (WS_(clo).heap_exact && !WS_(clo).heap) {
      VG_(fmsg)("Bad option: --ws-heap-usage=exact needs --ws-heap=yes\n");
      VG_(exit)(1);
   }
   WS_(clo).heap_usage = WS_(clo).heap && WS_(clo).heap_usage;
   if (!WS_(clo).peak_detect && WS_(break_needs_detector)()) {
      VG_(fmsg)("Bad option: --ws-break=peak: %s\n",
                WS_(break_why)(WS_Break_NoDetector));
      VG_(exit)(1);
   }
}

void WS_(print_usage)(void)
{
   VG_(printf)(
"    --ws-every=<n>            take a sample every <n> time units [100000]\n"
"    --ws-tau=<n>              working-set window, in time units [= every]\n"
"    --ws-pagesize=<n>         page size in bytes, a power of two from 64\n"
"                              (a cache line) to 2097152 (a huge page) [4096]\n"
"    --ws-linesize=<n>         cache line size in bytes, a power of two from 16\n"
"                              to the page size; 0: lines not measured [64]\n"
"    --ws-time-unit=i|ms       time unit: instructions or milliseconds [i]\n"
"    --ws-count-rep=once|each  a rep-prefixed string instruction (rep movs,\n"
"                              rep stos, ...) counts once, as the processor\n"
"                              retires it, or once per iteration, as lackey\n"
"                              and cachegrind count it [once]\n"
"    --ws-file=<file>          output file name [ws.out.%%p]\n"
"                              (also --ws-out-file; %%p, %%q{VAR}, %%n expanded)\n"
"    --ws-per-thread=no|yes    per-thread columns in each sample [no]\n"
"    --ws-syscalls=yes|no      count memory accessed by system calls [yes]\n"
"    --ws-instr-atstart=yes|no measure from the start, or only after\n"
"                              WS_START / \"ws start\" [yes]\n"
"    --ws-peak-detect=yes|no   find peaks and record their call stacks [yes]\n"
"    --ws-peak-window=<n>      peak detector window, in samples [30]\n"
"    --ws-peak-thresh=<n>      peak detector threshold, lower is more\n"
"                              sensitive [5]\n"
"    --ws-break=<cond>[,...]   stop in gdb at the first sample where a\n"
"                              condition holds (again once it did not):\n"
"                              data>=N, insn>=N (pages), rise>=N (data pages\n"
"                              more than the sample before) or peak (the\n"
"                              detector flags a data peak) [none]\n"
"    --ws-peaks=<n>            peaks of each kind reported with stacks and\n"
"                              owners: the largest samples, then the most\n"
"                              prominent the detector found [10]\n"
"    --ws-hot=<n>              hot pages of each kind to report [20]\n"
"    --ws-list-pages=no|yes    list every page ever touched [no]\n"
"    --ws-locations=yes|no     source locations of hot and listed pages [yes]\n"
"    --ws-heap=yes|no          follow malloc/free to name heap owners [yes]\n"
"    --ws-heap-usage=yes|exact|no\n"
"                              how each allocation site uses its chunks,\n"
"                              at the resolution of cache lines or of each\n"
"                              access (needs --ws-heap=yes) [yes]\n"
"    --ws-heap-chunks=<n>      chunk records kept per allocation site, for\n"
"                              its timeline (spread over the run); 0: none\n"
"                              [100]\n"
"    --ws-routines=no|yes      per routine, how its cost grows with the\n"
"                              input it reads (rms, trms) [no]\n"
"    --ws-curves=no|sampled|exact\n"
"                              locality curves s(tau), m(tau) and LRU miss\n"
"                              ratios; sampled: estimates from observed\n"
"                              windows (tau 64-4096), the pages' longer\n"
"                              taus from ws's epochs; exact: every access\n"
"                              seen (slow) [no]\n"
"    --ws-miss-file=<file>     also write a callgrind-format profile of\n"
"                              working-set misses per source line [none]\n"
   );
}

void WS_(print_debug_usage)(void)
{
   VG_(printf)("    (none)\n");
}

/*--------------------------------------------------------------------*/
/*--- end                                             ws_options.c ---*/
/*--------------------------------------------------------------------*/

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

/* Owns the option variables, their parsing and their checking.  Every
   bad value is refused here, before the client runs, with Valgrind's
   own "Bad option" message (which exits with status 1).  Nothing here
   measures or prints results. */

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_options.h"

#include "ws_global.h"

ULong        WS_(clo_every)      = 100000;
ULong        WS_(clo_tau)        = 0;     /* 0: not given, = every */
UInt         WS_(clo_pagesize)   = 4096;
WS_TimeUnit  WS_(clo_time_unit)  = WS_TimeInsns;
const HChar* WS_(clo_file)       = "ws.out.%p";
const HChar* WS_(clo_file_option) = "--ws-file";   /* as the user spelt it */
Bool         WS_(clo_per_thread) = False;
Bool         WS_(clo_syscalls)   = True;
Bool         WS_(clo_instr_atstart) = True;
Bool         WS_(clo_peak_detect) = True;
ULong        WS_(clo_peak_window) = 30;
ULong        WS_(clo_peak_thresh) = 5;
ULong        WS_(clo_hot)        = 20;
Bool         WS_(clo_list_pages) = False;
Bool         WS_(clo_locations)  = True;
Bool         WS_(clo_heap)       = True;
Bool         WS_(clo_heap_usage) = True;
const HChar* WS_(clo_miss_file)  = NULL;

UInt         WS_(page_shift)     = 12;

#define WS_MIN_PAGESIZE   64
#define WS_MAX_PAGESIZE   (2 * 1024 * 1024)

Bool WS_(interval_value)(const HChar* s, ULong* out)
{
   ULong n = 0;
   Int   digits = 0;
   for (; *s >= '0' && *s <= '9'; s++) {
      if (++digits > 16)         /* more than WS_MAX_INTERVAL has */
         return False;
      n = n * 10 + (*s - '0');
   }
   if (digits == 0 || *s != '\0' || n < 1 || n > WS_MAX_INTERVAL)
      return False;
   *out = n;
   return True;
}

/* Parses the decimal value of |arg| (after "option=") into |out|,
   refusing anything but a whole number in [1, WS_MAX_INTERVAL].
   Returns whether |out| was set (a refusal at start-up exits). */
static Bool parse_interval(const HChar* arg, const HChar* option,
                           ULong* out)
{
   const HChar* val = arg + VG_(strlen)(option);
   if (*val == '=')
      val++;                  /* else "--ws-tau" alone, at run time */
   if (WS_(interval_value)(val, out))
      return True;
   VG_(fmsg_bad_option)(arg, "%s takes a whole number from 1 to %llu\n",
                        option, WS_MAX_INTERVAL);
   return False;
}

static Bool is_option(const HChar* arg, const HChar* option)
{
   SizeT len = VG_(strlen)(option);
   return VG_(strncmp)(arg, option, len) == 0 && arg[len] == '=';
}

static void parse_pagesize(const HChar* arg)
{
   const HChar* val = arg + VG_(strlen)("--ws-pagesize=");
   ULong n;                   /* digits only, no wrapping past 2^64 */
   if (!WS_(interval_value)(val, &n) || n < WS_MIN_PAGESIZE
       || n > WS_MAX_PAGESIZE || (n & (n - 1)) != 0) {
      VG_(fmsg_bad_option)(arg, "--ws-pagesize takes a power of two from "
                           "%d to %d (bytes)\n",
                           WS_MIN_PAGESIZE, WS_MAX_PAGESIZE);
      return;
   }
   WS_(clo_pagesize) = (UInt)n;
}

/* A whole number in [lo, hi] for |option|; refused at start-up (exit)
   or, at run time, with the same one-line message and no change. */
static Bool parse_number(const HChar* arg, const HChar* option,
                         ULong lo, ULong hi, ULong* out)
{
   const HChar* val = arg + VG_(strlen)(option);
   ULong n = 0;
   Int   digits = 0;
   if (*val == '=')
      val++;
   for (; *val >= '0' && *val <= '9'; val++) {
      if (++digits > 16)
         break;
      n = n * 10 + (*val - '0');
   }
   if (digits == 0 || digits > 16 || *val != '\0' || n < lo || n > hi) {
      VG_(fmsg_bad_option)(arg, "%s takes a whole number from %llu to %llu\n",
                           option, lo, hi);
      return False;
   }
   *out = n;
   return True;
}

static void parse_yes_no(const HChar* arg, const HChar* option, Bool* out)
{
   const HChar* val = arg + VG_(strlen)(option) + 1;
   if (VG_STREQ(val, "yes"))      *out = True;
   else if (VG_STREQ(val, "no"))  *out = False;
   else VG_(fmsg_bad_option)(arg, "%s takes yes or no\n", option);
}

/* After start-up (mode cloD: "monitor v.clo", VALGRIND_CLO_CHANGE) only
   --ws-every and --ws-tau may change; a good value takes effect at
   once, through the sampler, which records it as an event; a bad one
   changes nothing.  Mode cloH lists them for --help-dyn-options. */
static Bool dynamic_option(const HChar* arg)
{
   const HChar* eq = VG_(strchr)(arg, '=');
   SizeT len = eq ? (SizeT)(eq - arg) : VG_(strlen)(arg);
   HChar name[len + 1];
   ULong n;
   VG_(strncpy)(name, arg, len);
   name[len] = '\0';
   if (VG_(check_clom)(cloPD, arg, "--ws-every",
                       VG_STREQ(name, "--ws-every"))) {
      if (parse_interval(arg, "--ws-every", &n))
         WS_(set_every)(n);
   } else if (VG_(check_clom)(cloPD, arg, "--ws-tau",
                              VG_STREQ(name, "--ws-tau"))) {
      if (parse_interval(arg, "--ws-tau", &n))
         WS_(set_tau)(n);
   } else if (VG_(check_clom)(cloPD, arg, "--ws-peak-thresh",
                              VG_STREQ(name, "--ws-peak-thresh"))) {
      if (parse_number(arg, "--ws-peak-thresh", 1, WS_MAX_PEAK_THRESH, &n))
         WS_(set_peak_thresh)(n);
   } else if (VG_(strncmp)(name, "--ws-", 5) == 0) {
      /* Any other ws option: the core says it cannot change now. */
      VG_(check_clom)(cloP, arg, name, True);
   } else {
      return False;
   }
   return True;
}

Bool WS_(process_cmd_line_option)(const HChar* arg)
{
   if (VG_(Clo_Mode)() != cloP)
      return dynamic_option(arg);
   if (is_option(arg, "--ws-every"))
      parse_interval(arg, "--ws-every", &WS_(clo_every));
   else if (is_option(arg, "--ws-tau"))
      parse_interval(arg, "--ws-tau", &WS_(clo_tau));
   else if (is_option(arg, "--ws-pagesize"))
      parse_pagesize(arg);
   else if (is_option(arg, "--ws-time-unit")) {
      const HChar* val = arg + VG_(strlen)("--ws-time-unit=");
      if (VG_STREQ(val, "i"))        WS_(clo_time_unit) = WS_TimeInsns;
      else if (VG_STREQ(val, "ms"))  WS_(clo_time_unit) = WS_TimeMillis;
      else VG_(fmsg_bad_option)(arg, "--ws-time-unit takes i "
                                "(instructions) or ms (milliseconds)\n");
   }
   else if (is_option(arg, "--ws-file") || is_option(arg, "--ws-out-file")) {
      const HChar* val = VG_(strchr)(arg, '=') + 1;
      WS_(clo_file_option) = is_option(arg, "--ws-file") ? "--ws-file"
                                                         : "--ws-out-file";
      if (val[0] == '\0')
         VG_(fmsg_bad_option)(arg, "%s takes a file name "
                              "(%%p, %%q{VAR} and %%n are expanded)\n",
                              WS_(clo_file_option));
      WS_(clo_file) = val;
   }
   else if (is_option(arg, "--ws-per-thread"))
      parse_yes_no(arg, "--ws-per-thread", &WS_(clo_per_thread));
   else if (is_option(arg, "--ws-syscalls"))
      parse_yes_no(arg, "--ws-syscalls", &WS_(clo_syscalls));
   else if (is_option(arg, "--ws-instr-atstart"))
      parse_yes_no(arg, "--ws-instr-atstart", &WS_(clo_instr_atstart));
   else if (is_option(arg, "--ws-peak-detect"))
      parse_yes_no(arg, "--ws-peak-detect", &WS_(clo_peak_detect));
   else if (is_option(arg, "--ws-peak-window"))
      parse_number(arg, "--ws-peak-window", 2, WS_MAX_PEAK_WINDOW,
                   &WS_(clo_peak_window));
   else if (is_option(arg, "--ws-peak-thresh"))
      parse_number(arg, "--ws-peak-thresh", 1, WS_MAX_PEAK_THRESH,
                   &WS_(clo_peak_thresh));
   else if (is_option(arg, "--ws-hot"))
      parse_number(arg, "--ws-hot", 0, WS_MAX_HOT, &WS_(clo_hot));
   else if (is_option(arg, "--ws-list-pages"))
      parse_yes_no(arg, "--ws-list-pages", &WS_(clo_list_pages));
   else if (is_option(arg, "--ws-locations"))
      parse_yes_no(arg, "--ws-locations", &WS_(clo_locations));
   else if (is_option(arg, "--ws-heap"))
      parse_yes_no(arg, "--ws-heap", &WS_(clo_heap));
   else if (is_option(arg, "--ws-heap-usage"))
      parse_yes_no(arg, "--ws-heap-usage", &WS_(clo_heap_usage));
   else if (is_option(arg, "--ws-miss-file")) {
      const HChar* val = VG_(strchr)(arg, '=') + 1;
      if (val[0] == '\0')
         VG_(fmsg_bad_option)(arg, "--ws-miss-file takes a file name "
                              "(%%p, %%q{VAR} and %%n are expanded)\n");
      WS_(clo_miss_file) = val;
   }
   else
      return False;
   return True;
}

void WS_(post_clo_check)(void)
{
   UInt shift = 0;
   if (WS_(clo_tau) == 0)
      WS_(clo_tau) = WS_(clo_every);
   while ((1u << shift) < WS_(clo_pagesize))
      shift++;
   WS_(page_shift) = shift;
}

void WS_(print_usage)(void)
{
   VG_(printf)(
"    --ws-every=<n>            take a sample every <n> time units [100000]\n"
"    --ws-tau=<n>              working-set window, in time units [= every]\n"
"    --ws-pagesize=<n>         page size in bytes, a power of two from 64\n"
"                              (a cache line) to 2097152 (a huge page) [4096]\n"
"    --ws-time-unit=i|ms       time unit: instructions or milliseconds [i]\n"
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
"    --ws-hot=<n>              hot pages of each kind to report [20]\n"
"    --ws-list-pages=no|yes    list every page ever touched [no]\n"
"    --ws-locations=yes|no     source locations of hot and listed pages [yes]\n"
"    --ws-heap=yes|no          follow malloc/free to name heap owners [yes]\n"
"    --ws-heap-usage=yes|no    how each allocation site uses its chunks\n"
"                              (needs --ws-heap=yes) [yes]\n"
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

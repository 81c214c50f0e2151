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
   own "Bad option" message (which exits with status 1).  The options
   that may also change at run time (v.clo) are the settable parameters
   of ws_control.c, whose table gives their names and ranges.  Nothing
   here measures or prints results. */

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_options.h"

#include "ws_control.h"

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
UInt         WS_(image)          = 0;
Bool         WS_(image_out)      = True;
Bool         WS_(image_miss)     = True;
Bool         WS_(clo_count_rep_once) = True;
ULong        WS_(clo_peaks)      = 10;

UInt         WS_(page_shift)     = 12;

#define WS_MIN_PAGESIZE   64
#define WS_MAX_PAGESIZE   (2 * 1024 * 1024)

Bool WS_(whole_number)(const HChar* s, ULong lo, ULong hi, ULong* out)
{
   ULong n = 0;
   Int   digits = 0;
   for (; *s >= '0' && *s <= '9'; s++) {
      if (++digits > 16)         /* more than WS_MAX_INTERVAL has */
         return False;
      n = n * 10 + (*s - '0');
   }
   if (digits == 0 || *s != '\0' || n < lo || n > hi)
      return False;
   *out = n;
   return True;
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
   if (!WS_(whole_number)(val, WS_MIN_PAGESIZE, WS_MAX_PAGESIZE, &n)
       || (n & (n - 1)) != 0) {
      VG_(fmsg_bad_option)(arg, "--ws-pagesize takes a power of two from "
                           "%d to %d (bytes)\n",
                           WS_MIN_PAGESIZE, WS_MAX_PAGESIZE);
      return;
   }
   WS_(clo_pagesize) = (UInt)n;
}

/* A whole number in [lo, hi] for |option| (given as "option=value", or
   alone at run time); refused at start-up (exit) or, at run time, with
   the same one-line message and no change. */
static Bool parse_number(const HChar* arg, const HChar* option,
                         ULong lo, ULong hi, ULong* out)
{
   const HChar* val = arg + VG_(strlen)(option);
   if (*val == '=')
      val++;
   if (WS_(whole_number)(val, lo, hi, out))
      return True;
   VG_(fmsg_bad_option)(arg, "%s takes a whole number from %llu to %llu\n",
                        option, lo, hi);
   return False;
}

static void parse_yes_no(const HChar* arg, const HChar* option, Bool* out)
{
   const HChar* val = arg + VG_(strlen)(option) + 1;
   if (VG_STREQ(val, "yes"))      *out = True;
   else if (VG_STREQ(val, "no"))  *out = False;
   else VG_(fmsg_bad_option)(arg, "%s takes yes or no\n", option);
}

/* After start-up (mode cloD: "monitor v.clo", VALGRIND_CLO_CHANGE) only
   the settable parameters (ws_control.c) may change; a good value takes
   effect at once, as "ws set" does; a bad one changes nothing.  Mode
   cloH lists them for --help-dyn-options. */
static Bool dynamic_option(const HChar* arg)
{
   const HChar* eq = VG_(strchr)(arg, '=');
   SizeT len = eq ? (SizeT)(eq - arg) : VG_(strlen)(arg);
   HChar name[len + 1];
   ULong old, now;
   UInt  i;
   VG_(strncpy)(name, arg, len);
   name[len] = '\0';
   for (i = 0; i < WS_(n_params); i++) {
      const WS_Param* p = &WS_(params)[i];
      if (VG_(check_clom)(cloPD, arg, p->option,
                          VG_STREQ(name, p->option))) {
         if (WS_(ctl_set)(p, eq ? eq + 1 : "", &old, &now) != WS_Ctl_OK)
            VG_(fmsg_bad_option)(arg, "%s takes a whole number from %llu "
                                 "to %llu\n", p->option, p->lo, p->hi);
         return True;
      }
   }
   if (VG_(strncmp)(name, "--ws-", 5) != 0)
      return False;
   /* Any other ws option: the core says it cannot change now. */
   VG_(check_clom)(cloP, arg, name, True);
   return True;
}

/* The options given at start-up only that say yes or no, or give a
   number (the settable parameters are WS_(params)). */
static const struct {
   const HChar* option;
   Bool*        value;
} yes_no_options[] = {
   { "--ws-per-thread",    &WS_(clo_per_thread) },
   { "--ws-syscalls",      &WS_(clo_syscalls) },
   { "--ws-instr-atstart", &WS_(clo_instr_atstart) },
   { "--ws-peak-detect",   &WS_(clo_peak_detect) },
   { "--ws-list-pages",    &WS_(clo_list_pages) },
   { "--ws-locations",     &WS_(clo_locations) },
   { "--ws-heap",          &WS_(clo_heap) },
   { "--ws-heap-usage",    &WS_(clo_heap_usage) },
};
static const struct {
   const HChar* option;
   ULong        lo, hi;
   ULong*       value;
} number_options[] = {
   { "--ws-peak-window", 2, WS_MAX_PEAK_WINDOW, &WS_(clo_peak_window) },
   { "--ws-hot",         0, WS_MAX_HOT,         &WS_(clo_hot) },
   { "--ws-peaks",       1, WS_MAX_PEAKS,       &WS_(clo_peaks) },
};

/* A settable parameter, or an option of the tables above, given at
   start-up. */
static Bool table_option(const HChar* arg)
{
   UInt i;
   for (i = 0; i < WS_(n_params); i++) {
      const WS_Param* p = &WS_(params)[i];
      if (is_option(arg, p->option)) {
         parse_number(arg, p->option, p->lo, p->hi, p->value);
         return True;
      }
   }
   for (i = 0; i < sizeof number_options / sizeof number_options[0]; i++)
      if (is_option(arg, number_options[i].option)) {
         parse_number(arg, number_options[i].option, number_options[i].lo,
                      number_options[i].hi, number_options[i].value);
         return True;
      }
   for (i = 0; i < sizeof yes_no_options / sizeof yes_no_options[0]; i++)
      if (is_option(arg, yes_no_options[i].option)) {
         parse_yes_no(arg, yes_no_options[i].option,
                      yes_no_options[i].value);
         return True;
      }
   return False;
}

Bool WS_(process_cmd_line_option)(const HChar* arg)
{
   if (VG_(Clo_Mode)() != cloP)
      return dynamic_option(arg);
   if (table_option(arg))
      return True;
   if (is_option(arg, "--ws-pagesize"))
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
   else if (is_option(arg, "--ws-image")) {
      /* Not for users: ws passes it to the Valgrind that runs the
         program an exec starts (--trace-children=yes), see ws_main.c. */
      const HChar* val = arg + VG_(strlen)("--ws-image=");
      HChar* end;
      Long   k = VG_(strtoll10)(val, &end);
      if (k < 1 || k > 1000000 || end[0] != ',' || (end[1] != '0'
          && end[1] != '1') || end[2] != ',' || (end[3] != '0'
          && end[3] != '1') || end[4] != '\0')
         VG_(fmsg_bad_option)(arg, "--ws-image is set by ws itself\n");
      WS_(image) = (UInt)k;
      WS_(image_out) = end[1] == '1';
      WS_(image_miss) = end[3] == '1';
   }
   else if (is_option(arg, "--ws-count-rep")) {
      const HChar* val = arg + VG_(strlen)("--ws-count-rep=");
      if (VG_STREQ(val, "once"))       WS_(clo_count_rep_once) = True;
      else if (VG_STREQ(val, "each"))  WS_(clo_count_rep_once) = False;
      else VG_(fmsg_bad_option)(arg, "--ws-count-rep takes once (a rep-"
                                "prefixed string instruction is one "
                                "instruction) or each (one per iteration)\n");
   }
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
"    --ws-peaks=<n>            peaks of each kind reported with stacks and\n"
"                              owners: the largest samples, then the most\n"
"                              prominent the detector found [10]\n"
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

/*--------------------------------------------------------------------*/
/*--- ws: monitor commands.                           ws_monitor.c ---*/
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

/* Owns the "ws ..." monitor commands: a person steers the measurement
   from gdb ("monitor ws status"), from a shell ("vgdb --pid=N ws
   status") or the program itself (VALGRIND_MONITOR_COMMAND).  The
   leading "ws" may be left out and commands may be abbreviated
   (VG_(keyword_id)).  A command with a missing, extra or bad argument
   answers one line saying why and changes nothing; one that changes
   something is written to the output file as an event by the sampler
   or ws_control.c, and the file is flushed before the reply returns. */

#include "pub_tool_basics.h"
#include "pub_tool_gdbserver.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"

#include "ws_global.h"
#include "ws_heap.h"

/* "ws series" shows at most this many samples (the sampler keeps as
   many). */
#define WS_SERIES_MAX 1024
#define WS_SERIES_DEFAULT 10
#define WS_HOT_DEFAULT    20    /* when --ws-hot=0 left none for the file */
#define WS_HEAP_DEFAULT   10
#define WS_HEAP_MAX       100000

static void print_monitor_help(void)
{
   VG_(gdb_printf)(
"\n"
"ws monitor commands (the leading \"ws\" may be left out):\n"
"  ws help\n"
"        this list\n"
"  ws status\n"
"        time, tau, T, page size, measurement on or off, current\n"
"        working-set sizes, samples and peaks so far and the output file\n"
"  ws dump [<filename>]\n"
"        lists every page in the current window and when it was last\n"
"        accessed, here or into <filename> (%%p, %%q{VAR}, %%n expanded)\n"
"  ws series [<n>]\n"
"        shows the last <n> samples (default %d, at most %d)\n"
"  ws peaks\n"
"        shows the peaks so far with their stacks, one stack at a time\n"
"  ws set tau <n>\n"
"  ws set every <n>\n"
"        sets the window tau or the sampling interval T from now on\n"
"        (<n>: a whole number from 1 to %llu)\n"
"  ws set peak-thresh <n>\n"
"        sets the peak detector's threshold from now on; lower is more\n"
"        sensitive (<n>: a whole number from 1 to %d)\n"
"  ws start\n"
"  ws stop\n"
"        switches measurement on (with a fresh window) or off\n"
"  ws mark <label>\n"
"        records a labelled event now; it names the current region\n"
"  ws hot [<n>] [insn|data]\n"
"        the <n> most accessed pages so far (default --ws-hot), with\n"
"        where each was first accessed and, for data, its owner\n"
"  ws heap [<n>] [usage|useful|bytes|never]\n"
"        the <n> allocation sites (default %d) that waste the most heap\n"
"        so far, by bytes never touched (usage, the default), bytes idle\n"
"        after their last use (useful), bytes allocated (bytes) or bytes\n"
"        in chunks never touched (never), with their allocation stacks\n"
"\n", WS_SERIES_DEFAULT, WS_SERIES_MAX, WS_MAX_INTERVAL,
   WS_MAX_PEAK_THRESH, WS_HEAP_DEFAULT);
}

/* Commands, in the order of the cases below. */
static const HChar commands[] =
   "help status dump series set start stop mark hot peaks heap";
static const HChar set_params[] = "tau every peak-thresh";

/* The remaining words of a command (after strtok_r). */
typedef struct {
   const HChar* cmd;       /* e.g. "ws set tau", for replies */
   HChar*       save;      /* VG_(strtok_r)'s position */
} Words;

static HChar* next_word(Words* w)
{
   return VG_(strtok_r)(NULL, " ", &w->save);
}

/* True if no word is left; otherwise says so. */
static Bool no_more_words(Words* w)
{
   HChar* extra = next_word(w);
   if (extra == NULL)
      return True;
   VG_(gdb_printf)("%s: unexpected argument '%s'; nothing changed\n",
                   w->cmd, extra);
   return False;
}

static void show_status(void)
{
   ULong sizes[2];
   const HChar* unit =
      WS_(clo_time_unit) == WS_TimeMillis ? "ms" : "instructions";
   WS_(current_sizes)(sizes);
   VG_(gdb_printf)("ws status (pid %d):\n", VG_(getpid)());
   VG_(gdb_printf)("  measurement: %s\n", WS_(measuring) ? "on" : "off");
   VG_(gdb_printf)("  time:        %llu %s\n", WS_(now)(), unit);
   VG_(gdb_printf)("  tau:         %llu %s\n", WS_(clo_tau), unit);
   VG_(gdb_printf)("  every (T):   %llu %s\n", WS_(clo_every), unit);
   VG_(gdb_printf)("  page size:   %u bytes\n", WS_(clo_pagesize));
   VG_(gdb_printf)("  insn pages:  %llu\n", sizes[WS_Insn]);
   VG_(gdb_printf)("  data pages:  %llu\n", sizes[WS_Data]);
   VG_(gdb_printf)("  samples:     %llu\n", WS_(stats).samples);
   VG_(gdb_printf)("  peaks:       %llu\n", WS_(peaks_count)());
   VG_(gdb_printf)("  output file: %s\n",
                   WS_(out_name)() ? WS_(out_name)() : "(none)");
}

/* "ws hot [<n>] [insn|data]" */
static void show_hot(Words* w)
{
   HChar* arg = next_word(w);
   ULong  n = WS_(clo_hot) ? WS_(clo_hot) : WS_HOT_DEFAULT;
   UInt   kinds = 3;
   if (arg != NULL && arg[0] >= '0' && arg[0] <= '9') {
      if (!WS_(interval_value)(arg, &n) || n > WS_MAX_HOT) {
         VG_(gdb_printf)("ws hot: '%s' is not a number of pages from 1 to "
                         "%d\n", arg, WS_MAX_HOT);
         return;
      }
      arg = next_word(w);
   }
   if (arg != NULL) {
      if (VG_STREQ(arg, "insn"))
         kinds = 1u << WS_Insn;
      else if (VG_STREQ(arg, "data"))
         kinds = 1u << WS_Data;
      else {
         VG_(gdb_printf)("ws hot: '%s' is neither a number of pages nor "
                         "insn or data\n", arg);
         return;
      }
   }
   if (!no_more_words(w))
      return;
   WS_(hot_to_monitor)(n, kinds);
}

/* "ws heap [<n>] [usage|useful|bytes|never]" */
static void show_heap(Words* w)
{
   HChar* arg = next_word(w);
   ULong  n = WS_HEAP_DEFAULT;
   Int    key = WS_KeyUsage;
   if (!WS_(heap_usage)) {
      VG_(gdb_printf)("ws heap: heap usage is not followed in this run "
                      "(--ws-heap=no or --ws-heap-usage=no)\n");
      return;
   }
   if (arg != NULL && arg[0] >= '0' && arg[0] <= '9') {
      if (!WS_(interval_value)(arg, &n) || n > WS_HEAP_MAX) {
         VG_(gdb_printf)("ws heap: '%s' is not a number of sites from 1 "
                         "to %d\n", arg, WS_HEAP_MAX);
         return;
      }
      arg = next_word(w);
   }
   if (arg != NULL) {
      key = VG_(keyword_id)(WS_HEAP_KEYS, arg, kwd_report_none);
      if (key < 0) {
         VG_(gdb_printf)("ws heap: '%s' is %s: say a number of sites, "
                         "then usage, useful, bytes or never\n", arg,
                         key == -2 ? "ambiguous" : "not a key");
         return;
      }
   }
   if (!no_more_words(w))
      return;
   WS_(heapsites_monitor)(n, (WS_HeapKey)key);
}

static void show_series(Words* w)
{
   HChar*     arg = next_word(w);
   ULong      n = WS_SERIES_DEFAULT, got, i;
   WS_Sample* s;
   if (arg != NULL && (!WS_(interval_value)(arg, &n) || n > WS_SERIES_MAX)) {
      VG_(gdb_printf)("ws series: '%s' is not a number of samples from 1 "
                      "to %d\n", arg, WS_SERIES_MAX);
      return;
   }
   if (!no_more_words(w))
      return;
   s = VG_(malloc)("ws.control.series", n * sizeof *s);
   got = WS_(series)(n, s);
   if (got == 0)
      VG_(gdb_printf)("ws series: no samples yet\n");
   else
      VG_(gdb_printf)("ws series: the last %llu of %llu samples "
                      "(t insn data):\n", got, WS_(stats).samples);
   for (i = 0; i < got; i++)
      VG_(gdb_printf)("%llu %llu %llu\n", s[i].t, s[i].insn, s[i].data);
   VG_(free)(s);
}

/* The parameters of "ws set", in the order of set_params. */
static const HChar* const set_names[] = { "tau", "every", "peak-thresh" };
static const HChar* const set_commands[] =
   { "ws set tau", "ws set every", "ws set peak-thresh" };

static void set_param(Words* w)
{
   HChar* param = next_word(w);
   HChar* value;
   Int    which;
   ULong  n, old, most;
   if (param == NULL) {
      VG_(gdb_printf)("ws set: say what to set: ws set tau <n>, "
                      "ws set every <n> or ws set peak-thresh <n>\n");
      return;
   }
   which = VG_(keyword_id)(set_params, param, kwd_report_all);
   if (which < 0)
      return;                        /* keyword_id said why */
   w->cmd = set_commands[which];
   most = which == 2 ? WS_MAX_PEAK_THRESH : WS_MAX_INTERVAL;
   value = next_word(w);
   if (value == NULL) {
      VG_(gdb_printf)("%s: the value is missing (a whole number from 1 to "
                      "%llu)\n", w->cmd, most);
      return;
   }
   if (!WS_(interval_value)(value, &n) || n > most) {
      VG_(gdb_printf)("%s: '%s' is not a whole number from 1 to %llu; "
                      "nothing changed\n", w->cmd, value, most);
      return;
   }
   if (!no_more_words(w))
      return;
   switch (which) {
   case 0:
      old = WS_(clo_tau);
      WS_(set_tau)(n);
      break;
   case 1:
      old = WS_(clo_every);
      WS_(set_every)(n);
      break;
   default:
      old = WS_(clo_peak_thresh);
      WS_(set_peak_thresh)(n);
      break;
   }
   VG_(gdb_printf)("%s: %s is now %llu (was %llu) from t=%llu\n", w->cmd,
                   set_names[which], n, old, WS_(now)());
}

static void monitor_mark(Words* w)
{
   /* The label is the rest of the line, spaces and all. */
   HChar* rest = w->save;
   SizeT  len = rest ? VG_(strlen)(rest) : 0;
   HChar  label[len + 1];
   if (rest)
      VG_(strcpy)(label, rest);
   label[len] = '\0';
   switch (WS_(tidy_label)(label)) {
   case WS_Label_Empty:
      VG_(gdb_printf)("ws mark: the label is missing (ws mark <label>)\n");
      return;
   case WS_Label_Control:
      VG_(gdb_printf)("ws mark: the label contains a control character; "
                      "nothing recorded\n");
      return;
   default:
      break;
   }
   if (VG_(strlen)(label) > WS_LABEL_MAX) {
      VG_(gdb_printf)("ws mark: the label is longer than %d characters; "
                      "nothing recorded\n", WS_LABEL_MAX);
      return;
   }
   WS_(mark)(label);
   VG_(gdb_printf)("ws mark: '%s' at t=%llu\n", label, WS_(now)());
}

/* Returns True if |req| was a ws command (answered, even if refused),
   False if it is none of ours (e.g. a core command such as v.clo). */
Bool WS_(handle_monitor_command)(const HChar* req)
{
   HChar  s[VG_(strlen)(req) + 1];
   HChar* word;
   Words  w;
   Bool   prefixed;
   Int    id;

   VG_(strcpy)(s, req);
   word = VG_(strtok_r)(s, " ", &w.save);
   if (word == NULL)
      return False;
   prefixed = VG_STREQ(word, "ws");
   if (prefixed) {
      word = next_word(&w);
      if (word == NULL) {
         VG_(gdb_printf)("ws: the command is missing; 'ws help' lists "
                         "them\n");
         return True;
      }
   }
   /* Without "ws", a word that is not ours may be the core's or
      another handler's: say nothing then. */
   id = VG_(keyword_id)(commands, word, prefixed
                        ? kwd_report_all : kwd_report_duplicated_matches);
   if (id == -1)
      return prefixed;
   if (id == -2)
      return True;                    /* ambiguous: keyword_id said so */

   switch (id) {
   case 0:  /* help */
      w.cmd = "ws help";
      if (!prefixed || no_more_words(&w))
         print_monitor_help();
      break;
   case 1:  /* status */
      w.cmd = "ws status";
      if (no_more_words(&w))
         show_status();
      break;
   case 2: {  /* dump */
      HChar* file = next_word(&w);
      w.cmd = "ws dump";
      if (!no_more_words(&w))
         break;
      if (file == NULL)
         WS_(dump_to_monitor)();
      else
         WS_(dump_to_file)(file);
      break;
   }
   case 3:  /* series */
      w.cmd = "ws series";
      show_series(&w);
      break;
   case 4:  /* set */
      w.cmd = "ws set";
      set_param(&w);
      break;
   case 5:  /* start */
      w.cmd = "ws start";
      if (!no_more_words(&w))
         break;
      if (WS_(measuring)) {
         VG_(gdb_printf)("ws start: measurement is already on; nothing "
                         "changed\n");
         break;
      }
      WS_(measure_start)();
      VG_(gdb_printf)("ws start: measurement on at t=%llu\n", WS_(now)());
      break;
   case 6:  /* stop */
      w.cmd = "ws stop";
      if (!no_more_words(&w))
         break;
      if (!WS_(measuring)) {
         VG_(gdb_printf)("ws stop: measurement is already off; nothing "
                         "changed\n");
         break;
      }
      WS_(measure_stop)();
      VG_(gdb_printf)("ws stop: measurement off at t=%llu\n", WS_(now)());
      break;
   case 7:  /* mark */
      w.cmd = "ws mark";
      monitor_mark(&w);
      break;
   case 8:  /* hot */
      w.cmd = "ws hot";
      show_hot(&w);
      break;
   case 9:  /* peaks */
      w.cmd = "ws peaks";
      if (no_more_words(&w))
         WS_(peaks_to_monitor)();
      break;
   case 10:  /* heap */
      w.cmd = "ws heap";
      show_heap(&w);
      break;
   default:
      break;
   }
   /* Whatever the command wrote to the output file is there now, for
      whoever watches the file. */
   WS_(out_flush)();
   return True;
}

/*--------------------------------------------------------------------*/
/*--- end                                             ws_monitor.c ---*/
/*--------------------------------------------------------------------*/

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
   status") or the program itself (VALGRIND_MONITOR_COMMAND).  One
   table, commands[], gives each command's name, arguments, help and
   handler: "ws help", the keywords that VG_(keyword_id) matches (the
   leading "ws" may be left out, commands may be abbreviated) and "ws
   help internal", the same table for programs (ws-monitor, the gdb
   script), all come from it.  The handlers read their arguments, call
   the control API (ws_control.c) and put what it answers into words;
   a command with a missing, extra or bad argument answers one line
   saying why and changes nothing.  What a command changes is written
   to the output file as an event by the control API, and the file is
   flushed before the reply returns.

   "WS <command>" (capitals) is "ws <command>" with a status line at
   the end of the reply, "ws-reply ok" or "ws-reply refused", so that a
   program need not read the English (docs/control.md, "For
   programs").  It costs no character, so that a front-end can pass on
   the longest command vgdb passes. */

#include "pub_tool_basics.h"
#include "pub_tool_gdbserver.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"

#include "ws_control.h"

#define WS_SERIES_DEFAULT 10
#define WS_HOT_DEFAULT    20    /* when --ws-hot=0 left none for the file */
/* The longest command: a file name of PATH_MAX bytes, or a label of
   WS_LABEL_MAX with blanks to fold, fit. */
#define WS_COMMAND_MAX    8192
/* The version of the lines "ws help internal" gives; it changes when
   their form does (not when a command is added). */
#define WS_INTERNAL_VERSION 1
#define WS_HEAP_DEFAULT   10
#define WS_HEAP_MAX       100000

/*------------------------------------------------------------*/
/*--- The table of commands                                ---*/
/*------------------------------------------------------------*/

/* What an argument may be.  A front-end completes a choice, a file
   name and a parameter's name; the other kinds it leaves to the user. */
typedef enum {
   Arg_None,       /* after the last argument */
   Arg_Number,     /* a whole number from lo to hi */
   Arg_Choice,     /* one of the words of |choices| */
   Arg_File,       /* a file name */
   Arg_Text,       /* the rest of the line, blanks and all */
   Arg_Param,      /* the name of a settable parameter (WS_(params)) */
   Arg_Value       /* a value of the parameter named before */
} ArgKind;

static const HChar* const arg_kind_names[] = {
   "", "number", "choice", "file", "text", "param", "value"
};

typedef struct {
   ArgKind      kind;
   Bool         optional;
   const HChar* shown;     /* in "ws help" (<n>, <label>); NULL: the
                              choices, as "a|b"; "": the argument
                              before shows this one too */
   ULong        lo, hi;    /* Arg_Number */
   const HChar* choices;   /* Arg_Choice: the words, one blank apart */
} Arg;

#define WS_ARGS_MAX 2

/* The words of a command after its name (after VG_(strtok_r)). */
typedef struct _Words Words;

typedef struct {
   const HChar* name;
   Arg          args[WS_ARGS_MAX];     /* Arg_None after the last */
   /* What it does, for "ws help": lines separated by '\n', with
      help_values for its %llu; NULL: the next command's.  A command
      whose first argument is a parameter has one line per parameter,
      described by the parameter table instead. */
   const HChar* help;
   ULong        help_values[2];
   /* Answers the command; False if it was refused (having said why). */
   Bool       (*run)(Words* w);
} Command;

struct _Words {
   const Command* command;
   HChar          cmd[32];    /* "ws set tau", for replies */
   HChar*         save;       /* VG_(strtok_r)'s position */
};

static Bool cmd_help(Words* w);
static Bool cmd_status(Words* w);
static Bool cmd_dump(Words* w);
static Bool cmd_since(Words* w);
static Bool cmd_series(Words* w);
static Bool cmd_peaks(Words* w);
static Bool cmd_set(Words* w);
static Bool cmd_start(Words* w);
static Bool cmd_stop(Words* w);
static Bool cmd_mark(Words* w);
static Bool cmd_hot(Words* w);
static Bool cmd_heap(Words* w);
static Bool cmd_break(Words* w);
static Bool cmd_routines(Words* w);
static Bool cmd_curves(Words* w);

/* In the order "ws help" lists them.  A new command is one row here
   and its handler above. */
static const Command commands[] = {
   { "help", { { Arg_None } },
     "this list", { 0 }, cmd_help },
   { "status", { { Arg_None } },
     "time, tau, T, page size, measurement on or off, current\n"
     "working-set sizes, samples and peaks so far and the output file",
     { 0 }, cmd_status },
   { "dump", { { Arg_Choice, True, "full|<filename>", 0, 0, "full" },
               { Arg_File, True, "" } },
     "sums up the current window on a screen: its sizes, its largest\n"
     "owners and its most accessed pages; full: lists every page and\n"
     "when it was last accessed; <filename>: lists them into that file\n"
     "(%%p, %%q{VAR}, %%n expanded)",
     { 0 }, cmd_dump },
   { "since", { { Arg_None } },
     "the data pages that entered the window since the last 'ws dump',\n"
     "'ws since' or break stop, by owner, with the source lines whose\n"
     "accesses brought them in",
     { 0 }, cmd_since },
   { "series", { { Arg_Number, True, "<n>", 1, WS_SERIES_LEN } },
     "shows the last <n> samples (default %llu, at most %llu)",
     { WS_SERIES_DEFAULT, WS_SERIES_LEN }, cmd_series },
   { "peaks", { { Arg_None } },
     "shows the peaks so far with their stacks, one stack at a time",
     { 0 }, cmd_peaks },
   { "break", { { Arg_Choice, True, "<cond>|delete <n>|delete all", 0, 0,
                  "data>= insn>= rise>= peak delete" } },
     "stops the program in gdb at the first sample where <cond> holds\n"
     "(again once it did not): data>=N or insn>=N (pages in the\n"
     "window), rise>=N (data pages more than the sample before), peak\n"
     "(the detector flags a data peak); alone, lists the conditions",
     { 0 }, cmd_break },
   { "set", { { Arg_Param, False, "<param>" },
              { Arg_Value, False, "<n>" } },
     NULL, { 0 }, cmd_set },
   { "start", { { Arg_None } },
     NULL, { 0 }, cmd_start },
   { "stop", { { Arg_None } },
     "switches measurement on (with a fresh window) or off; a start\n"
     "while it is on leaves the window alone and begins a region",
     { 0 }, cmd_stop },
   { "mark", { { Arg_Text, False, "<label>" } },
     "records a labelled event now; it names the current region",
     { 0 }, cmd_mark },
   { "hot", { { Arg_Number, True, "<n>", 1, WS_MAX_HOT },
              { Arg_Choice, True, NULL, 0, 0, "insn data" } },
     "the <n> most accessed pages so far (default --ws-hot), with\n"
     "where each was first accessed and, for data, its owner",
     { 0 }, cmd_hot },
   { "heap", { { Arg_Number, True, "<n>", 1, WS_HEAP_MAX },
               { Arg_Choice, True, NULL, 0, 0, WS_HEAP_KEYS } },
     "the <n> allocation sites (default %llu) that waste the most heap\n"
     "so far, by bytes never touched (usage, the default), bytes idle\n"
     "after their last use (useful), bytes allocated (bytes), bytes\n"
     "in chunks never touched (never) or bytes x (1 - score) (score),\n"
     "with their allocation stacks",
     { WS_HEAP_DEFAULT }, cmd_heap },
   { "routines", { { Arg_Number, True, "<n>", 1, 1000 } },
     "the <n> routines (default %llu) whose cost grows fastest with\n"
     "the input they read, weighted by their share of the cost, from\n"
     "the activations closed so far (--ws-routines=yes)",
     { 10 }, cmd_routines },
   { "curves", { { Arg_Choice, True, NULL, 0, 0, "insn data" },
                 { Arg_Choice, True, NULL, 0, 0, "page line" } },
     "the locality curves so far, of the run and the open region:\n"
     "s(tau), m(tau) and the LRU miss ratios of code or data (default),\n"
     "pages (default) or lines (--ws-curves=exact or sampled)",
     { 0 }, cmd_curves },
};
#define N_COMMANDS (sizeof commands / sizeof commands[0])

/* The names of the |n| entries of |table|, each |size| bytes long with
   its name as its first field, one blank apart, for VG_(keyword_id). */
static const HChar* keywords(HChar* buf, SizeT buf_size,
                             const void* table, UInt n, SizeT size)
{
   UInt  i;
   SizeT used = 0;
   if (buf[0] != '\0')
      return buf;                     /* made the first time */
   for (i = 0; i < n; i++) {
      const HChar* name = *(const HChar* const*)((const HChar*)table
                                                 + i * size);
      used += VG_(snprintf)(buf + used, buf_size - used, "%s%s",
                            i ? " " : "", name);
      tl_assert(used < buf_size);
   }
   return buf;
}

static const HChar* command_keywords(void)
{
   static HChar buf[256];
   return keywords(buf, sizeof buf, commands, N_COMMANDS, sizeof *commands);
}

static const HChar* param_keywords(void)
{
   static HChar buf[128];
   return keywords(buf, sizeof buf, WS_(params), WS_(n_params),
                   sizeof *WS_(params));
}

/*------------------------------------------------------------*/
/*--- Help, for people and for programs                    ---*/
/*------------------------------------------------------------*/

/* A description under its syntax lines, each line indented. */
static void describe(const HChar* format, ULong a, ULong b)
{
   HChar  text[512];
   HChar* line = text;
   VG_(snprintf)(text, sizeof text, format, a, b);
   while (*line) {
      HChar* nl = VG_(strchr)(line, '\n');
      if (nl)
         *nl = '\0';
      VG_(gdb_printf)("        %s\n", line);
      line = nl ? nl + 1 : line + VG_(strlen)(line);
   }
}

static void print_arg(const Arg* a)
{
   if (a->shown && a->shown[0] == '\0')
      return;
   VG_(gdb_printf)(" %s", a->optional ? "[" : "");
   if (a->shown) {
      VG_(gdb_printf)("%s", a->shown);
   } else {
      const HChar* c;
      for (c = a->choices; *c; c++)
         VG_(gdb_printf)("%c", *c == ' ' ? '|' : *c);
   }
   VG_(gdb_printf)("%s", a->optional ? "]" : "");
}

/* "ws set tau <n>" and its description, for each parameter. */
static void print_param_lines(const Command* c)
{
   UInt i;
   for (i = 0; i < WS_(n_params); i++) {
      const WS_Param* p = &WS_(params)[i];
      VG_(gdb_printf)("  ws %s %s", c->name, p->name);
      print_arg(&c->args[1]);
      VG_(gdb_printf)("\n");
      if (p->help)
         describe(p->help, p->lo, p->hi);
   }
}

/* In the layout of memcheck's and massif's monitor help. */
static void print_monitor_help(void)
{
   UInt i, k;
   VG_(gdb_printf)("\nws monitor commands (the leading \"ws\" may be left "
                   "out):\n");
   for (i = 0; i < N_COMMANDS; i++) {
      const Command* c = &commands[i];
      if (c->args[0].kind == Arg_Param) {
         print_param_lines(c);
         continue;
      }
      VG_(gdb_printf)("  ws %s", c->name);
      for (k = 0; k < WS_ARGS_MAX && c->args[k].kind != Arg_None; k++)
         print_arg(&c->args[k]);
      VG_(gdb_printf)("\n");
      if (c->help)
         describe(c->help, c->help_values[0], c->help_values[1]);
   }
   VG_(gdb_printf)("\n");
}

/* "ws help internal": the table, one record per line, for programs
   (docs/control.md, "For programs"). */
static void print_internal_help(void)
{
   UInt i, k;
   VG_(gdb_printf)("ws-internal %d\n", WS_INTERNAL_VERSION);
   for (i = 0; i < N_COMMANDS; i++) {
      const Command* c = &commands[i];
      VG_(gdb_printf)("command %s\n", c->name);
      for (k = 0; k < WS_ARGS_MAX && c->args[k].kind != Arg_None; k++) {
         const Arg* a = &c->args[k];
         VG_(gdb_printf)("arg %s %u %s %s", c->name, k + 1,
                         a->optional ? "optional" : "required",
                         arg_kind_names[a->kind]);
         if (a->kind == Arg_Number)
            VG_(gdb_printf)(" %llu %llu", a->lo, a->hi);
         else if (a->kind == Arg_Choice)
            VG_(gdb_printf)(" %s", a->choices);
         VG_(gdb_printf)("\n");
      }
   }
   for (i = 0; i < WS_(n_params); i++) {
      const WS_Param* p = &WS_(params)[i];
      VG_(gdb_printf)("param %s %s %llu %llu\n", p->name, p->option, p->lo,
                      p->hi);
   }
   VG_(gdb_printf)("end\n");
}

/*------------------------------------------------------------*/
/*--- Arguments                                            ---*/
/*------------------------------------------------------------*/

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

/* Whether |word| is a number argument |k| of the command accepts. */
static Bool number_arg(const Words* w, UInt k, const HChar* word, ULong* n)
{
   const Arg* a = &w->command->args[k];
   return WS_(whole_number)(word, a->lo, a->hi, n);
}

/* A first argument that may be a number of |what| (it starts with a
   digit) or the next argument: the number into |*n|, and |*arg| moved
   on to the word after it.  False if it is out of range (said why). */
static Bool leading_number(Words* w, HChar** arg, const HChar* what,
                           ULong* n)
{
   const Arg* a = &w->command->args[0];
   if (*arg == NULL || (*arg)[0] < '0' || (*arg)[0] > '9')
      return True;
   if (!number_arg(w, 0, *arg, n)) {
      VG_(gdb_printf)("%s: '%s' is not a number of %s from %llu to %llu\n",
                      w->cmd, *arg, what, a->lo, a->hi);
      return False;
   }
   *arg = next_word(w);
   return True;
}

/*------------------------------------------------------------*/
/*--- The commands                                         ---*/
/*------------------------------------------------------------*/

static Bool cmd_help(Words* w)
{
   HChar* arg = next_word(w);
   if (arg != NULL && VG_STREQ(arg, "internal")) {
      if (!no_more_words(w))
         return False;
      print_internal_help();
      return True;
   }
   if (arg != NULL) {
      VG_(gdb_printf)("%s: unexpected argument '%s'; nothing changed\n",
                      w->cmd, arg);
      return False;
   }
   print_monitor_help();
   return True;
}

static Bool cmd_status(Words* w)
{
   WS_CtlStatus st;
   const HChar* unit;
   if (!no_more_words(w))
      return False;
   WS_(ctl_status)(&st);
   unit = st.unit == WS_TimeMillis ? "ms" : "instructions";
   VG_(gdb_printf)("ws status (pid %d):\n", VG_(getpid)());
   VG_(gdb_printf)("  measurement: %s\n", st.measuring ? "on" : "off");
   VG_(gdb_printf)("  time:        %llu %s\n", st.now, unit);
   VG_(gdb_printf)("  tau:         %llu %s\n", st.tau, unit);
   VG_(gdb_printf)("  every (T):   %llu %s\n", st.every, unit);
   VG_(gdb_printf)("  page size:   %u bytes\n", st.pagesize);
   VG_(gdb_printf)("  insn pages:  %llu\n", st.sizes[WS_Insn]);
   VG_(gdb_printf)("  data pages:  %llu\n", st.sizes[WS_Data]);
   if (st.linesize) {
      HChar density[32];
      WS_(format_density)(density, st.lines[WS_Data], st.sizes[WS_Data]);
      VG_(gdb_printf)("  line size:   %u bytes\n", st.linesize);
      VG_(gdb_printf)("  insn lines:  %llu\n", st.lines[WS_Insn]);
      VG_(gdb_printf)("  data lines:  %llu (density %s)\n",
                      st.lines[WS_Data], density);
   }
   if (WS_(clo).heap)
      VG_(gdb_printf)("  live heap:   %llu bytes\n", WS_(heap_live_bytes)());
   VG_(gdb_printf)("  samples:     %llu\n", st.samples);
   VG_(gdb_printf)("  peaks:       %llu\n", st.peaks);
   VG_(gdb_printf)("  output file: %s\n",
                   st.out_name ? st.out_name : "(none)");
   return True;
}

/* A page of "ws dump", for people, into the WS_File |opaque|. */
static void show_page(const WS_DumpPage* p, void* opaque)
{
   WS_File* f = opaque;
   WS_(file_printf)(f, "  %s 0x%lx  last access at or after t=%llu, "
                    "%llu accesses, first at", WS_(kind_name)(p->kind),
                    p->addr, p->since, p->accesses);
   WS_(write_where)(f, p->first_ip);
   WS_(file_printf)(f, "\n");
   if (p->kind == WS_Data)
      WS_(show_owner)(f, p->owner);
}

static Bool dump_full(void)
{
   WS_File*     f = WS_(monitor_file)();
   WS_CtlStatus st;
   ULong        n[2];
   WS_(ctl_status)(&st);
   WS_(file_printf)(f, "ws dump at t=%llu: %llu insn pages, %llu data "
                    "pages in the window", st.now, st.sizes[WS_Insn],
                    st.sizes[WS_Data]);
   if (st.linesize)
      WS_(file_printf)(f, " (%llu and %llu lines of %u bytes)",
                       st.lines[WS_Insn], st.lines[WS_Data], st.linesize);
   WS_(file_printf)(f, "\n");
   WS_(file_printf)(f, "  (pages of %u bytes; t is when the epoch of the "
                    "page's last access began)\n", st.pagesize);
   WS_(ctl_dump_to)(show_page, f, n);
   WS_(since_look)("ws dump full");
   return True;
}

static Bool dump_into(const HChar* name)
{
   WS_DumpFile d;
   Bool        done = False;
   switch (WS_(ctl_dump_file)(name, &d)) {
   case WS_Dump_BadName:
      VG_(gdb_printf)("ws dump: cannot use the file name '%s': %s\n",
                      name, d.why);
      break;
   case WS_Dump_CannotCreate:
      VG_(gdb_printf)("ws dump: cannot create '%s': %s\n", d.path,
                      d.reason);
      break;
   case WS_Dump_Incomplete:
      VG_(gdb_printf)("ws dump: writing '%s' failed; the file is "
                      "incomplete\n", d.path);
      break;
   case WS_Dump_OK:
      VG_(gdb_printf)("ws dump: %llu insn pages, %llu data pages written "
                      "to %s\n", d.n[WS_Insn], d.n[WS_Data], d.path);
      WS_(since_look)("ws dump <file>");
      done = True;
      break;
   }
   if (d.path)
      VG_(free)(d.path);
   return done;
}

/* "ws dump [full|<filename>]": a file named full is ./full. */
static Bool cmd_dump(Words* w)
{
   HChar* arg = next_word(w);
   if (!no_more_words(w))
      return False;
   if (arg == NULL) {
      WS_(screen_dump)();
      return True;
   }
   return VG_STREQ(arg, "full") ? dump_full() : dump_into(arg);
}

static Bool cmd_since(Words* w)
{
   if (!no_more_words(w))
      return False;
   WS_(screen_since)();
   return True;
}

static Bool cmd_series(Words* w)
{
   HChar*     arg = next_word(w);
   ULong      n = WS_SERIES_DEFAULT, got, i;
   WS_Sample* s;
   if (arg != NULL && !number_arg(w, 0, arg, &n)) {
      VG_(gdb_printf)("ws series: '%s' is not a number of samples from "
                      "%llu to %llu\n", arg, w->command->args[0].lo,
                      w->command->args[0].hi);
      return False;
   }
   if (!no_more_words(w))
      return False;
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
   return True;
}

static Bool cmd_peaks(Words* w)
{
   if (!no_more_words(w))
      return False;
   WS_(show_peaks)(WS_(monitor_file)());
   return WS_(clo).peak_detect;   /* else it said detection is off */
}

static Bool cmd_set(Words* w)
{
   HChar* name = next_word(w);
   HChar* value;
   Int    which;
   ULong  old, now;
   const WS_Param* p;
   if (name == NULL) {
      VG_(gdb_printf)("ws set: say what to set: ws set tau <n>, "
                      "ws set every <n> or ws set peak-thresh <n>\n");
      return False;
   }
   which = VG_(keyword_id)(param_keywords(), name, kwd_report_all);
   if (which < 0)
      return False;                  /* keyword_id said why */
   p = &WS_(params)[which];
   VG_(snprintf)(w->cmd, sizeof w->cmd, "ws set %s", p->name);
   value = next_word(w);
   if (value == NULL) {
      VG_(gdb_printf)("%s: the value is missing (a whole number from %llu "
                      "to %llu)\n", w->cmd, p->lo, p->hi);
      return False;
   }
   /* Checked before the words after it, so that nothing changes if
      there is one too many. */
   if (!WS_(param_value)(p, value, &now)) {
      VG_(gdb_printf)("%s: '%s' is not a whole number from %llu to %llu; "
                      "nothing changed\n", w->cmd, value, p->lo, p->hi);
      return False;
   }
   if (!no_more_words(w))
      return False;
   WS_(ctl_set)(p, value, &old, &now);
   VG_(gdb_printf)("%s: %s is now %llu (was %llu) from t=%llu\n", w->cmd,
                   p->name, now, old, WS_(now)());
   return True;
}

/* "ws start": as WS_START (ws_control.c says what a start while
   measuring does). */
static Bool cmd_start(Words* w)
{
   ULong at;
   if (!no_more_words(w))
      return False;
   switch (WS_(ctl_start)(&at)) {
   case WS_Ctl_RegionBegun:
      VG_(gdb_printf)("%s: measurement was already on (the window goes "
                      "on); a region begins at t=%llu\n", w->cmd, at);
      return True;
   case WS_Ctl_AlreadyOn:
      VG_(gdb_printf)("%s: measurement is already on and a region is "
                      "open; nothing changed\n", w->cmd);
      return False;
   default:
      VG_(gdb_printf)("%s: measurement on at t=%llu\n", w->cmd, at);
      return True;
   }
}

static Bool cmd_stop(Words* w)
{
   ULong at;
   if (!no_more_words(w))
      return False;
   if (WS_(ctl_stop)(&at) != WS_Ctl_OK) {
      VG_(gdb_printf)("%s: measurement is already off; nothing changed\n",
                      w->cmd);
      return False;
   }
   VG_(gdb_printf)("%s: measurement off at t=%llu\n", w->cmd, at);
   return True;
}

static Bool cmd_mark(Words* w)
{
   /* The label is the rest of the line, spaces and all (it is tidied
      in place: the command is a copy). */
   HChar  empty[1] = "";
   HChar* label = w->save ? w->save : empty;
   switch (WS_(ctl_mark)(label)) {
   case WS_Label_Empty:
      VG_(gdb_printf)("ws mark: the label is missing (ws mark <label>)\n");
      return False;
   case WS_Label_Control:
      VG_(gdb_printf)("ws mark: the label contains a control character; "
                      "nothing recorded\n");
      return False;
   case WS_Label_TooLong:
      VG_(gdb_printf)("ws mark: the label is longer than %d characters; "
                      "nothing recorded\n", WS_LABEL_MAX);
      return False;
   case WS_Label_OK:
      break;
   }
   VG_(gdb_printf)("ws mark: '%s' at t=%llu\n", label, WS_(now)());
   return True;
}

/* "ws hot [<n>] [insn|data]" */
static Bool cmd_hot(Words* w)
{
   HChar* arg = next_word(w);
   ULong  n = WS_(clo).hot ? WS_(clo).hot : WS_HOT_DEFAULT;
   UInt   kinds = 3;
   if (!leading_number(w, &arg, "pages", &n))
      return False;
   if (arg != NULL) {
      if (VG_STREQ(arg, "insn"))
         kinds = 1u << WS_Insn;
      else if (VG_STREQ(arg, "data"))
         kinds = 1u << WS_Data;
      else {
         VG_(gdb_printf)("ws hot: '%s' is neither a number of pages nor "
                         "insn or data\n", arg);
         return False;
      }
   }
   if (!no_more_words(w))
      return False;
   WS_(show_hot)(WS_(monitor_file)(), n, kinds);
   return True;
}

static Bool cmd_heap(Words* w)
{
   HChar* arg = next_word(w);
   ULong  n = WS_HEAP_DEFAULT;
   Int    key = WS_KeyUsage;
   if (!WS_(clo).heap_usage) {
      VG_(gdb_printf)("ws heap: heap usage is not followed in this run "
                      "(--ws-heap=no or --ws-heap-usage=no)\n");
      return False;
   }
   if (!leading_number(w, &arg, "sites", &n))
      return False;
   if (arg != NULL) {
      key = VG_(keyword_id)(WS_HEAP_KEYS, arg, kwd_report_none);
      if (key < 0) {
         VG_(gdb_printf)("ws heap: '%s' is %s: say a number of sites, "
                         "then usage, useful, bytes, never or score\n", arg,
                         key == -2 ? "ambiguous" : "not a key");
         return False;
      }
   }
   if (!no_more_words(w))
      return False;
   WS_(heapsites_monitor)(n, (WS_HeapKey)key);
   return True;
}

static Bool cmd_routines(Words* w)
{
   HChar* arg = next_word(w);
   ULong  n = 10;
   if (!WS_(clo).routines) {
      VG_(gdb_printf)("ws routines: routines are not followed in this run "
                      "(--ws-routines=no)\n");
      return False;
   }
   if (!leading_number(w, &arg, "routines", &n))
      return False;
   if (arg != NULL) {
      VG_(gdb_printf)("ws routines: '%s' is not a number of routines from 1 "
                      "to 1000; nothing changed\n", arg);
      return False;
   }
   if (!no_more_words(w))
      return False;
   WS_(routines_monitor)(n);
   return True;
}

static Bool cmd_curves(Words* w)
{
   HChar*  arg;
   WS_Kind kind = WS_Data;
   Bool    lines = False;
   while ((arg = next_word(w)) != NULL) {
      if (VG_STREQ(arg, "insn") || VG_STREQ(arg, "data"))
         kind = VG_STREQ(arg, "insn") ? WS_Insn : WS_Data;
      else if (VG_STREQ(arg, "page") || VG_STREQ(arg, "line"))
         lines = VG_STREQ(arg, "line");
      else {
         VG_(gdb_printf)("ws curves: '%s' is none of insn, data, page and "
                         "line\n", arg);
         return False;
      }
   }
   WS_(curves_monitor)(kind, lines);
   return True;
}

/* "ws break delete <n>|all" */
static Bool break_delete(Words* w)
{
   HChar* arg = next_word(w);
   ULong  n;
   if (arg == NULL) {
      VG_(gdb_printf)("ws break delete: say which, a number 'ws break' "
                      "lists or all; nothing changed\n");
      return False;
   }
   if (!no_more_words(w))
      return False;
   if (VG_STREQ(arg, "all")) {
      VG_(gdb_printf)("ws break delete: %u deleted\n",
                      WS_(break_delete_all)());
      return True;
   }
   if (!WS_(whole_number)(arg, 1, ~0U, &n) || !WS_(break_delete)((UInt)n)) {
      VG_(gdb_printf)("ws break delete: '%s' is no break 'ws break' lists; "
                      "nothing changed\n", arg);
      return False;
   }
   VG_(gdb_printf)("ws break delete: %llu deleted\n", n);
   return True;
}

static Bool cmd_break(Words* w)
{
   HChar* arg = next_word(w);
   const HChar* number;
   HChar  cond[64];
   SizeT  len;
   UInt   n;
   WS_BreakResult r;
   if (arg == NULL) {
      VG_(gdb_printf)("ws break: the conditions set:\n");
      if (WS_(break_list)(WS_(monitor_file)()) == 0)
         VG_(gdb_printf)("  none\n");
      return True;
   }
   if (VG_STREQ(arg, "delete"))
      return break_delete(w);
   /* "data>= 500", as Tab completes it: one condition */
   len = VG_(strlen)(arg);
   number = len >= 2 && VG_STREQ(arg + len - 2, ">=") ? next_word(w) : NULL;
   if (number != NULL) {
      if (len + VG_(strlen)(number) >= sizeof cond)
         number = "x";               /* too long to be a number */
      VG_(snprintf)(cond, sizeof cond, "%s%s", arg, number);
      arg = cond;
   }
   if (!no_more_words(w))
      return False;
   r = WS_(break_add)(arg, &n);
   if (r != WS_Break_OK) {
      VG_(gdb_printf)("ws break: '%s': %s; nothing changed\n", arg,
                      WS_(break_why)(r));
      return False;
   }
   VG_(gdb_printf)("ws break: %u (%s): the program stops in gdb at the "
                   "first sample where it holds\n", n, arg);
   return True;
}

/*------------------------------------------------------------*/
/*--- Dispatch                                             ---*/
/*------------------------------------------------------------*/

/* Runs the command whose first word is |word|; |prefixed|: it came
   after "ws" (else it may be the core's or another handler's, and a
   word that is not ours is passed over in silence).  Returns whether
   it was ours; |*done| whether it was carried out. */
static Bool dispatch(HChar* word, Bool prefixed, Words* w, Bool* done)
{
   Int id;
   *done = False;
   if (word == NULL) {
      VG_(gdb_printf)("ws: the command is missing; 'ws help' lists them\n");
      return True;
   }
   id = VG_(keyword_id)(command_keywords(), word, prefixed
                        ? kwd_report_all : kwd_report_duplicated_matches);
   if (id == -1)
      return prefixed;
   if (id == -2)
      return True;                    /* ambiguous: keyword_id said so */
   w->command = &commands[id];
   VG_(snprintf)(w->cmd, sizeof w->cmd, "ws %s", commands[id].name);
   /* "help" alone is also the core's: it has listed its own commands
      and may have read words of its own ("help debug"). */
   if (!prefixed && commands[id].run == cmd_help) {
      print_monitor_help();
      *done = True;
   } else {
      *done = commands[id].run(w);
   }
   /* Whatever the command wrote to the output file is there now, for
      whoever watches the file. */
   WS_(out_flush)();
   return True;
}

/* Returns True if |req| was a ws command (answered, even if refused),
   False if it is none of ours (e.g. a core command such as v.clo). */
Bool WS_(handle_monitor_command)(const HChar* req)
{
   SizeT  len = VG_(strnlen)(req, WS_COMMAND_MAX + 1);
   HChar  s[WS_COMMAND_MAX + 1];
   HChar* word;
   Words  w;
   Bool   prefixed, internal, ours, done;

   if (len > WS_COMMAND_MAX) {
      /* Valgrind's stack is small: the command is not copied onto it.
         Whether it is ours shows in its first word. */
      internal = VG_(strncmp)(req, "WS ", 3) == 0;
      if (VG_(strncmp)(req, "ws ", 3) != 0 && !internal)
         return False;
      VG_(gdb_printf)("ws: the command is longer than %d characters; "
                      "nothing done\n", WS_COMMAND_MAX);
      if (internal)
         VG_(gdb_printf)("ws-reply refused\n");
      return True;
   }
   VG_(strcpy)(s, req);
   word = VG_(strtok_r)(s, " ", &w.save);
   if (word == NULL)
      return False;
   internal = VG_STREQ(word, "WS");
   prefixed = internal || VG_STREQ(word, "ws");
   if (prefixed)
      word = next_word(&w);
   ours = dispatch(word, prefixed, &w, &done);
   if (internal)
      VG_(gdb_printf)("ws-reply %s\n", done ? "ok" : "refused");
   return ours;
}

/*--------------------------------------------------------------------*/
/*--- end                                             ws_monitor.c ---*/
/*--------------------------------------------------------------------*/

/*--------------------------------------------------------------------*/
/*--- ws: client requests and monitor commands.       ws_control.c ---*/
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

/* Owns the two doors through which a running measurement is steered:
   the client requests of include/valgrind/ws.h (the program scopes
   what is measured) and the "ws ..." monitor commands (a person
   steers from gdb, from vgdb in a shell, or the program itself through
   VALGRIND_MONITOR_COMMAND).  Both doors check what they are given and
   then call the sampler (start, stop, T, tau), the regions (labels)
   and the output (events); nothing here measures or counts.  The only
   thing computed here is a dump, a walk over the page tables that
   lists the pages of the current window.

   Rules both doors keep:
   - a request or command that is accepted and changes something is
     written to the output file as an event, at the time it happened;
   - one that is refused changes nothing: a monitor command answers a
     one-line reason, a client request gives one warning per kind of
     problem (a program may repeat the same mistake in a loop);
   - memory the client names (a label) is read only after the address
     space manager says it is readable client memory, and only up to
     WS_LABEL_MAX characters. */

#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_clreq.h"
#include "pub_tool_gdbserver.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_stacktrace.h"
#include "pub_tool_vki.h"

#include "valgrind/ws.h"      /* the request codes */
#include "ws_global.h"

/* Labels are at most this many characters (the NUL not counted). */
#define WS_LABEL_MAX  255

/* "ws series" shows at most this many samples (the sampler keeps as
   many). */
#define WS_SERIES_MAX 1024
#define WS_SERIES_DEFAULT 10

static const HChar* kind_name[2] = { "insn", "data" };

/*------------------------------------------------------------*/
/*--- Warnings about bad client requests, once per kind    ---*/
/*------------------------------------------------------------*/

typedef enum {
   Bad_Unreadable,      /* label pointer not readable client memory */
   Bad_TooLong,         /* no NUL within WS_LABEL_MAX + 1 bytes */
   Bad_Empty,           /* nothing but blanks */
   Bad_Control,         /* a newline, tab or other control character */
   Bad_StartWhileOn,    /* WS_START while measuring */
   Bad_StopWhileOff,    /* WS_STOP while not measuring */
   Bad_N
} BadKind;

static Bool warned[Bad_N];

/* One warning, with the client's stack, the first time a problem of
   kind |bad| occurs; silence after that. */
static void warn_once(ThreadId tid, BadKind bad, const HChar* format, ...)
   PRINTF_CHECK(3, 4);
static void warn_once(ThreadId tid, BadKind bad, const HChar* format, ...)
{
   va_list vargs;
   if (warned[bad])
      return;
   warned[bad] = True;
   va_start(vargs, format);
   VG_(vmessage)(Vg_UserMsg, format, vargs);
   va_end(vargs);
   VG_(get_and_pp_StackTrace)(tid, VG_(clo_backtrace_size));
   VG_(umsg)("(ws warns about this kind of request only once)\n");
}

/*------------------------------------------------------------*/
/*--- Labels                                               ---*/
/*------------------------------------------------------------*/

/* Labels go into event lines, whose words are separated by single
   spaces: leading and trailing blanks are dropped and each run of
   blanks inside becomes one space.  A label with a control character
   (it could break the line) or with nothing left is refused.  |s| is
   rewritten in place; returns Bad_N when the label is good. */
static BadKind tidy_label(HChar* s)
{
   HChar* out = s;
   const HChar* in;
   Bool blank = False;
   for (in = s; *in; in++) {
      UChar c = (UChar)*in;
      if (c < 0x20 || c == 0x7f)
         return Bad_Control;
      if (c == ' ') {
         blank = out != s;
         continue;
      }
      if (blank)
         *out++ = ' ';
      blank = False;
      *out++ = c;
   }
   *out = '\0';
   return out == s ? Bad_Empty : Bad_N;
}

/* Copies the client's NUL-terminated string at |a| into |buf| (of
   WS_LABEL_MAX + 1 bytes), checking each client page before reading
   from it.  Returns Bad_N if the whole string was copied. */
static BadKind copy_client_string(Addr a, HChar* buf)
{
   SizeT done = 0;
   if (a == 0)
      return Bad_Unreadable;
   while (done < WS_LABEL_MAX + 1) {
      Addr  p = a + done;
      SizeT n = VKI_PAGE_SIZE - (p & (VKI_PAGE_SIZE - 1));
      SizeT i;
      if (p < a)                                  /* wrapped around */
         return Bad_Unreadable;
      if (n > WS_LABEL_MAX + 1 - done)
         n = WS_LABEL_MAX + 1 - done;
      if (!VG_(am_is_valid_for_client)(p, n, VKI_PROT_READ))
         return Bad_Unreadable;
      for (i = 0; i < n; i++) {
         buf[done] = ((const HChar*)a)[done];
         if (buf[done] == '\0')
            return Bad_N;
         done++;
      }
   }
   return Bad_TooLong;
}

/* The label argument of client request |what| into |buf|, or False
   (with a warning, the first time) if it cannot be used. */
static Bool client_label(ThreadId tid, const HChar* what, Addr a,
                         HChar* buf)
{
   BadKind bad = copy_client_string(a, buf);
   if (bad == Bad_N)
      bad = tidy_label(buf);
   switch (bad) {
   case Bad_N:
      return True;
   case Bad_Unreadable:
      warn_once(tid, bad, "ws: %s ignored: its label pointer %#lx does not "
                "point to a string in readable memory\n", what, a);
      break;
   case Bad_TooLong:
      warn_once(tid, bad, "ws: %s ignored: its label at %#lx is longer than "
                "%d characters or not terminated by a NUL\n", what, a,
                WS_LABEL_MAX);
      break;
   case Bad_Empty:
      warn_once(tid, bad, "ws: %s ignored: its label at %#lx is empty\n",
                what, a);
      break;
   case Bad_Control:
      warn_once(tid, bad, "ws: %s ignored: its label at %#lx contains a "
                "control character (newline, tab, ...)\n", what, a);
      break;
   default:
      break;
   }
   return False;
}

/*------------------------------------------------------------*/
/*--- Sinks: where a dump goes                             ---*/
/*------------------------------------------------------------*/

/* A dump is written through a sink: the output file (whole records,
   so that a killed run leaves whole lines), a file of its own, or the
   gdb/vgdb output.  Text collects in |buf|, which is handed on at
   each newline (output file) or when full. */
typedef enum { To_Output, To_File, To_Monitor } SinkKind;

typedef struct {
   SinkKind kind;
   Int      fd;               /* To_File */
   Bool     failed;           /* a write to fd failed */
   UInt     used;
   HChar    buf[4096];
} Sink;

static void sink_drain(Sink* s)
{
   if (s->used == 0)
      return;
   s->buf[s->used] = '\0';
   switch (s->kind) {
   case To_Output:
      WS_(out_printf)("%s", s->buf);
      break;
   case To_Monitor:
      VG_(gdb_printf)("%s", s->buf);
      break;
   case To_File: {
      UInt done = 0;
      while (!s->failed && done < s->used) {
         Int n = VG_(write)(s->fd, s->buf + done, s->used - done);
         if (n <= 0)
            s->failed = True;
         else
            done += n;
      }
      break;
   }
   }
   s->used = 0;
}

static void sink_put(HChar c, void* opaque)
{
   Sink* s = opaque;
   if (c == '\n' && s->kind == To_Output) {
      sink_drain(s);
      WS_(out_end_line)();
      return;
   }
   if (s->used == sizeof s->buf - 1)
      sink_drain(s);
   s->buf[s->used++] = c;
}

static void sink_printf(Sink* s, const HChar* format, ...)
   PRINTF_CHECK(2, 3);
static void sink_printf(Sink* s, const HChar* format, ...)
{
   va_list vargs;
   va_start(vargs, format);
   VG_(vcbprintf)(sink_put, s, format, vargs);
   va_end(vargs);
}

/*------------------------------------------------------------*/
/*--- Dumps                                                ---*/
/*------------------------------------------------------------*/

/* A dump lists every page of the current window (the pages whose
   stamp is at or after the window's first epoch: what
   WS_(current_sizes) counts), instruction pages first, each kind in
   increasing address order, with the time at which the epoch of the
   page's last access began: the page was last accessed at or after
   that time.  Two layouts: "dump-page" lines for files
   (docs/output-format.md), and an indented list for people. */

typedef struct {
   Sink*   sink;
   WS_Kind kind;
   Stamp   first;       /* the window's first epoch */
   Bool    for_people;
   ULong   n;           /* pages listed */
} DumpWalk;

static void dump_slot(Stamp* slot, Addr page, void* opaque)
{
   DumpWalk* w = opaque;
   Stamp s = *slot & WS_STAMP_MASK;
   if (s == WS_STAMP_NEVER || s < w->first)
      return;
   w->n++;
   if (w->for_people)
      sink_printf(w->sink, "  %s 0x%016lx  last access at or after t=%llu\n",
                  kind_name[w->kind], page << WS_(page_shift),
                  WS_(stamp_start_time)(s));
   else
      sink_printf(w->sink, "dump-page %s 0x%lx %llu\n", kind_name[w->kind],
                  page << WS_(page_shift), WS_(stamp_start_time)(s));
}

/* Lists the window's pages into |sink|; |n| gets the count per kind. */
static void dump_pages(Sink* sink, Bool for_people, ULong n[2])
{
   Addr last_page = ((Addr)1 << (WS_ADDR_BITS - WS_(page_shift))) - 1;
   Int  kind;
   for (kind = 0; kind < 2; kind++) {
      DumpWalk w;
      w.sink = sink;
      w.kind = kind;
      w.first = WS_(window_first_stamp)();
      w.for_people = for_people;
      w.n = 0;
      WS_(pt_for_range)(&WS_(tables)[kind], 0, last_page, dump_slot, &w);
      n[kind] = w.n;
   }
}

/* The block of lines a dump adds to a file. */
static void dump_block(Sink* sink)
{
   ULong n[2];
   sink_printf(sink, "dump-begin %llu\n", WS_(now)());
   dump_pages(sink, False, n);
   sink_printf(sink, "dump-end %llu %llu\n", n[WS_Insn], n[WS_Data]);
}

/* WS_DUMP(label): an event, then the block, in the output file. */
static void dump_to_output(const HChar* label)
{
   Sink sink;
   sink.kind = To_Output;
   sink.used = 0;
   sink.failed = False;
   WS_(out_event)("dump label %s", label);
   dump_block(&sink);
   sink_drain(&sink);
   WS_(out_maybe_flush)();
}

/* "ws dump": the window's pages, for people, to the gdb/vgdb output. */
static void dump_to_monitor(void)
{
   Sink  sink;
   ULong sizes[2], n[2];
   sink.kind = To_Monitor;
   sink.used = 0;
   sink.failed = False;
   WS_(out_event)("dump monitor");
   WS_(current_sizes)(sizes);
   VG_(gdb_printf)("ws dump at t=%llu: %llu insn pages, %llu data pages "
                   "in the window\n", WS_(now)(), sizes[WS_Insn],
                   sizes[WS_Data]);
   VG_(gdb_printf)("  (pages of %u bytes; t is when the epoch of the "
                   "page's last access began)\n", WS_(clo_pagesize));
   dump_pages(&sink, True, n);
   sink_drain(&sink);
}

/* Whether VG_(expand_file_name) would accept |name|: it ends the whole
   process on a bad one, which a typing mistake at a gdb prompt must
   not do.  Returns the reason it is refused, or NULL. */
static const HChar* bad_file_name(const HChar* name)
{
   const HChar* p;
   if (name[0] == '~')
      return "'~' is not expanded; give the full path";
   for (p = name; *p; p++) {
      if ((UChar)*p < 0x20 || *p == 0x7f)
         return "it contains a control character";
      if (*p != '%')
         continue;
      p++;
      if (*p == '%' || *p == 'p' || *p == 'n')
         continue;
      if (*p == 'q' && p[1] == '{') {
         const HChar* close = VG_(strchr)(p + 2, '}');
         SizeT len;
         if (close == NULL)
            return "'}' is missing after %q{";
         len = close - (p + 2);
         {
            HChar var[len + 1];
            VG_(strncpy)(var, p + 2, len);
            var[len] = '\0';
            if (VG_(getenv)(var) == NULL)
               return "a %q{VAR} names an environment variable that "
                      "is not set";
         }
         p = close;
         continue;
      }
      return "'%' must be followed by p, n, q{VAR} or %";
   }
   if (name[0] != '/' && VG_(get_startup_wd)() == NULL)
      return "the start-up directory is gone; give an absolute path";
   return NULL;
}

/* "ws dump <file>": the block, with a small header, in a file of its
   own.  Returns False (having said why) if the file cannot be made. */
static Bool dump_to_file(const HChar* name)
{
   const HChar* why = bad_file_name(name);
   HChar* path;
   SysRes sres;
   Sink   sink;
   ULong  n[2];
   if (why != NULL) {
      VG_(gdb_printf)("ws dump: cannot use the file name '%s': %s\n",
                      name, why);
      return False;
   }
   path = VG_(expand_file_name)("ws dump", name);
   if (WS_(out_name)() && VG_STREQ(path, WS_(out_name)())) {
      VG_(gdb_printf)("ws dump: '%s' is the output file; give another "
                      "name\n", path);
      VG_(free)(path);
      return False;
   }
   sres = VG_(open)(path, VKI_O_CREAT | VKI_O_TRUNC | VKI_O_WRONLY,
                    VKI_S_IRUSR | VKI_S_IWUSR | VKI_S_IRGRP | VKI_S_IROTH);
   if (sr_isError(sres)) {
      VG_(gdb_printf)("ws dump: cannot create '%s'\n", path);
      VG_(free)(path);
      return False;
   }
   sink.kind = To_File;
   sink.fd = (Int)sr_Res(sres);
   sink.used = 0;
   sink.failed = False;
   sink_printf(&sink, "ws-dump-format: %d\n", WS_FORMAT_VERSION);
   sink_printf(&sink, "pid: %d\n", VG_(getpid)());
   sink_printf(&sink, "output-file: %s\n",
               WS_(out_name)() ? WS_(out_name)() : "(none)");
   sink_printf(&sink, "time-unit: %s\n",
               WS_(clo_time_unit) == WS_TimeMillis ? "ms" : "i");
   sink_printf(&sink, "every: %llu\n", WS_(clo_every));
   sink_printf(&sink, "tau: %llu\n", WS_(clo_tau));
   sink_printf(&sink, "pagesize: %u\n", WS_(clo_pagesize));
   sink_printf(&sink, "dump-begin %llu\n", WS_(now)());
   dump_pages(&sink, False, n);
   sink_printf(&sink, "dump-end %llu %llu\n", n[WS_Insn], n[WS_Data]);
   sink_drain(&sink);
   VG_(close)(sink.fd);
   if (sink.failed) {
      VG_(gdb_printf)("ws dump: writing '%s' failed; the file is "
                      "incomplete\n", path);
      VG_(free)(path);
      return False;
   }
   WS_(out_event)("dump file %s", path);
   VG_(gdb_printf)("ws dump: %llu insn pages, %llu data pages written to "
                   "%s\n", n[WS_Insn], n[WS_Data], path);
   VG_(free)(path);
   return True;
}

/*------------------------------------------------------------*/
/*--- Actions shared by both doors                         ---*/
/*------------------------------------------------------------*/

static void mark(const HChar* label)
{
   WS_(out_event)("mark %s", label);
   WS_(region_mark)(label);
}

/*------------------------------------------------------------*/
/*--- Client requests                                      ---*/
/*------------------------------------------------------------*/

static void client_start(ThreadId tid)
{
   if (WS_(measuring))
      warn_once(tid, Bad_StartWhileOn, "ws: WS_START while measurement is "
                "already on: ignored (to measure only from WS_START on, "
                "run with --ws-instr-atstart=no)\n");
   else
      WS_(measure_start)();
}

static void client_stop(ThreadId tid)
{
   if (!WS_(measuring))
      warn_once(tid, Bad_StopWhileOff, "ws: WS_STOP while measurement is "
                "already off: ignored\n");
   else
      WS_(measure_stop)();
}

static Bool handle_monitor_command(const HChar* req);

Bool WS_(handle_client_request)(ThreadId tid, UWord* arg, UWord* ret)
{
   HChar label[WS_LABEL_MAX + 1];
   ULong sizes[2];

   if (arg[0] == VG_USERREQ__GDB_MONITOR_COMMAND) {
      Bool handled = handle_monitor_command((const HChar*)arg[1]);
      *ret = handled ? 1 : 0;
      return handled;
   }
   if (!VG_IS_TOOL_USERREQ('W', 'S', arg[0]))
      return False;

   switch (arg[0]) {
   case VG_USERREQ__WS_START:
      client_start(tid);
      *ret = 0;
      break;
   case VG_USERREQ__WS_STOP:
      client_stop(tid);
      *ret = 0;
      break;
   case VG_USERREQ__WS_MARK:
      if (client_label(tid, "WS_MARK", arg[1], label))
         mark(label);
      *ret = 0;
      break;
   case VG_USERREQ__WS_DUMP:
      if (client_label(tid, "WS_DUMP", arg[1], label))
         dump_to_output(label);
      *ret = 0;
      break;
   case VG_USERREQ__WS_CURRENT_DATA_PAGES:
      WS_(current_sizes)(sizes);
      *ret = sizes[WS_Data];
      break;
   case VG_USERREQ__WS_CURRENT_INSN_PAGES:
      WS_(current_sizes)(sizes);
      *ret = sizes[WS_Insn];
      break;
   default:
      /* A request from a newer ws.h than this tool knows. */
      return False;
   }
   return True;
}

/*------------------------------------------------------------*/
/*--- Monitor commands                                     ---*/
/*------------------------------------------------------------*/

static void print_monitor_help(void)
{
   VG_(gdb_printf)(
"\n"
"ws monitor commands (the leading \"ws\" may be left out):\n"
"  ws help\n"
"        this list\n"
"  ws status\n"
"        time, tau, T, page size, measurement on or off, current\n"
"        working-set sizes, samples so far and the output file\n"
"  ws dump [<filename>]\n"
"        lists every page in the current window and when it was last\n"
"        accessed, here or into <filename> (%%p, %%q{VAR}, %%n expanded)\n"
"  ws series [<n>]\n"
"        shows the last <n> samples (default %d, at most %d)\n"
"  ws set tau <n>\n"
"  ws set every <n>\n"
"        sets the window tau or the sampling interval T from now on\n"
"        (<n>: a whole number from 1 to %llu)\n"
"  ws start\n"
"  ws stop\n"
"        switches measurement on (with a fresh window) or off\n"
"  ws mark <label>\n"
"        records a labelled event now; it names the current region\n"
"  (ws hot, ws peaks and ws set peak-thresh are not available in this\n"
"   version of ws)\n"
"\n", WS_SERIES_DEFAULT, WS_SERIES_MAX, WS_MAX_INTERVAL);
}

/* Commands, in the order of the cases below.  "hot" and "peaks" are
   recognised so that they can say they are not available. */
static const HChar commands[] =
   "help status dump series set start stop mark hot peaks";
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
   VG_(gdb_printf)("  output file: %s\n",
                   WS_(out_name)() ? WS_(out_name)() : "(none)");
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

static void set_param(Words* w)
{
   HChar* param = next_word(w);
   HChar* value;
   Int    which;
   ULong  n, old;
   if (param == NULL) {
      VG_(gdb_printf)("ws set: say what to set: ws set tau <n> or "
                      "ws set every <n>\n");
      return;
   }
   which = VG_(keyword_id)(set_params, param, kwd_report_all);
   if (which < 0)
      return;                        /* keyword_id said why */
   if (which == 2) {
      VG_(gdb_printf)("ws set peak-thresh: not available in this version "
                      "of ws (it has no peak detector yet)\n");
      return;
   }
   w->cmd = which == 0 ? "ws set tau" : "ws set every";
   value = next_word(w);
   if (value == NULL) {
      VG_(gdb_printf)("%s: the value is missing (a whole number from 1 to "
                      "%llu)\n", w->cmd, WS_MAX_INTERVAL);
      return;
   }
   if (!WS_(interval_value)(value, &n)) {
      VG_(gdb_printf)("%s: '%s' is not a whole number from 1 to %llu; "
                      "nothing changed\n", w->cmd, value, WS_MAX_INTERVAL);
      return;
   }
   if (!no_more_words(w))
      return;
   if (which == 0) {
      old = WS_(clo_tau);
      WS_(set_tau)(n);
   } else {
      old = WS_(clo_every);
      WS_(set_every)(n);
   }
   VG_(gdb_printf)("%s: %s is now %llu (was %llu) from t=%llu\n", w->cmd,
                   which == 0 ? "tau" : "every", n, old, WS_(now)());
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
   switch (tidy_label(label)) {
   case Bad_Empty:
      VG_(gdb_printf)("ws mark: the label is missing (ws mark <label>)\n");
      return;
   case Bad_Control:
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
   mark(label);
   VG_(gdb_printf)("ws mark: '%s' at t=%llu\n", label, WS_(now)());
}

/* Returns True if |req| was a ws command (answered, even if refused),
   False if it is none of ours (e.g. a core command such as v.clo). */
static Bool handle_monitor_command(const HChar* req)
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
         dump_to_monitor();
      else
         dump_to_file(file);
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
      VG_(gdb_printf)("ws hot: not available in this version of ws (hot "
                      "pages are not recorded yet)\n");
      break;
   case 9:  /* peaks */
      VG_(gdb_printf)("ws peaks: not available in this version of ws (it "
                      "has no peak detector yet)\n");
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
/*--- end                                             ws_control.c ---*/
/*--------------------------------------------------------------------*/

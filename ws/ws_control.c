/*--------------------------------------------------------------------*/
/*--- ws: steering actions shared by both doors.      ws_control.c ---*/
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

/* Owns what a running measurement can be asked to do, whichever door
   the request came in by: client requests (ws_clientreq.c) and monitor
   commands (ws_monitor.c) check their arguments and call these.  Here:
   labels (made safe for event lines), marks, and dumps of the current
   window to the output file, a file of its own, or the gdb/vgdb
   output.  A dump is the one thing computed here: a walk over the page
   tables listing the pages of the current window. */

#include "pub_tool_basics.h"
#include "pub_tool_gdbserver.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_vki.h"

#include "ws_global.h"

static const HChar* kind_name[2] = { "insn", "data" };

/*------------------------------------------------------------*/
/*--- Labels and marks                                     ---*/
/*------------------------------------------------------------*/

/* Labels go into event lines, whose words are separated by single
   spaces: leading and trailing blanks are dropped and each run of
   blanks inside becomes one space.  A label with a control character
   (it could break the line) or with nothing left is refused.  |s| is
   rewritten in place. */
WS_LabelCheck WS_(tidy_label)(HChar* s)
{
   HChar* out = s;
   const HChar* in;
   Bool blank = False;
   for (in = s; *in; in++) {
      UChar c = (UChar)*in;
      if (c < 0x20 || c == 0x7f)
         return WS_Label_Control;
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
   return out == s ? WS_Label_Empty : WS_Label_OK;
}

void WS_(mark)(const HChar* label)
{
   WS_(out_event)("mark %s", label);
   WS_(region_mark)(label);
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
   page's last access began (the page was last accessed at or after
   that time), its access count, its first access and, for data, its
   owner.  Two layouts: "dump-page" lines for files
   (docs/output-format.md), and an indented list for people. */

typedef struct {
   Sink*   sink;
   WS_StackFile* stacks;   /* where owners' stacks go; NULL: the list
                              for people, which names no stack by id */
   WS_Kind kind;
   Stamp   first;       /* the window's first epoch */
   ULong   n;           /* pages listed */
} DumpWalk;

static Bool in_window(const Stamp* slot, Stamp first)
{
   Stamp s = *slot & WS_STAMP_MASK;
   return s != WS_STAMP_NEVER && s >= first;
}

static void dump_slot(Stamp* slot, Addr page, void* opaque)
{
   DumpWalk* w = opaque;
   Addr  a = page << WS_(page_shift);
   ULong since, accesses = WS_(page_accesses)(w->kind, page);
   Addr  first_ip = WS_(page_first_ip)(w->kind, page);
   WS_Owner owner;
   HChar text[WS_TEXT_MAX];
   if (!in_window(slot, w->first))
      return;
   w->n++;
   since = WS_(stamp_start_time)(*slot & WS_STAMP_MASK);
   if (w->kind == WS_Data)
      WS_(owner_of)(a, &owner);
   if (w->stacks == NULL) {
      sink_printf(w->sink, "  %s 0x%016lx  last access at or after t=%llu, "
                  "%llu accesses, first at", kind_name[w->kind], a, since,
                  accesses);
      sink_drain(w->sink);
      WS_(monitor_where)(first_ip);
      VG_(gdb_printf)("\n");
      if (w->kind == WS_Data)
         WS_(monitor_owner)(&owner);
      return;
   }
   WS_(where_text)(first_ip, text, sizeof text);
   sink_printf(w->sink, "dump-page %s 0x%lx %llu %llu %s\n",
               kind_name[w->kind], a, since, accesses, text);
   if (w->kind == WS_Data) {
      WS_(owner_text)(&owner, True, w->stacks, text, sizeof text);
      sink_printf(w->sink, "dump-owner %s\n", text);
   }
}

/* The stacks that the data pages' owners name are written to the
   output file before a dump starts, so that none falls inside it. */
static void write_owner_stack(Stamp* slot, Addr page, void* opaque)
{
   WS_Owner owner;
   if (!in_window(slot, *(Stamp*)opaque))
      return;
   WS_(owner_of)(page << WS_(page_shift), &owner);
   if (WS_(owner_stack)(&owner) != NULL)
      WS_(out_stack)(WS_(owner_stack)(&owner));
}

/* Lists the window's pages into |sink|; |n| gets the count per kind.
   The owners' stacks go to |stacks|: in the output file, written before
   the dump's event (dump_to_output); in a dump file, which names its
   own, each in front of the first dump-owner line that refers to it;
   NULL lists the pages for people. */
static void dump_pages(Sink* sink, WS_StackFile* stacks, ULong n[2])
{
   Int  kind;
   Stamp first = WS_(window_first_stamp)();
   WS_(flush_access_counts)();
   for (kind = 0; kind < 2; kind++) {
      DumpWalk w;
      w.sink = sink;
      w.stacks = stacks;
      w.kind = kind;
      w.first = first;
      w.n = 0;
      WS_(pt_for_window)(&WS_(tables)[kind], first, dump_slot, &w);
      n[kind] = w.n;
   }
}

/* The block of lines a dump adds to a file. */
static void dump_block(Sink* sink)
{
   ULong n[2];
   sink_printf(sink, "dump-begin %llu\n", WS_(now)());
   dump_pages(sink, WS_(out_stacks)(), n);
   sink_printf(sink, "dump-end %llu %llu\n", n[WS_Insn], n[WS_Data]);
}

/* WS_DUMP(label): an event, then the block, in the output file. */
void WS_(dump_to_output)(const HChar* label)
{
   Sink sink;
   Stamp first = WS_(window_first_stamp)();
   sink.kind = To_Output;
   sink.used = 0;
   sink.failed = False;
   /* no stack block may come between the event and its block */
   WS_(pt_for_window)(&WS_(tables)[WS_Data], first, write_owner_stack,
                      &first);
   WS_(out_event)("dump label %s", label);
   dump_block(&sink);
   sink_drain(&sink);
   WS_(out_maybe_flush)();
}

/* "ws dump": the window's pages, for people, to the gdb/vgdb output. */
void WS_(dump_to_monitor)(void)
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
   dump_pages(&sink, NULL, n);
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
Bool WS_(dump_to_file)(const HChar* name)
{
   const HChar* why = bad_file_name(name);
   HChar* path;
   SysRes sres;
   Sink   sink;
   WS_StackFile stacks = { NULL, 1, sink_put, &sink };
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
   dump_pages(&sink, &stacks, n);
   sink_printf(&sink, "dump-end %llu %llu\n", n[WS_Insn], n[WS_Data]);
   sink_drain(&sink);
   WS_(stack_file_forget)(&stacks);
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

/*--------------------------------------------------------------------*/
/*--- end                                             ws_control.c ---*/
/*--------------------------------------------------------------------*/

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

/* The one control API: what a running measurement can be asked to do,
   whichever door the request came in by.  The doors (client requests
   in ws_clientreq.c, monitor commands in ws_monitor.c, "v.clo" and
   VALGRIND_CLO_CHANGE in ws_options.c) call these and turn the results
   into warnings, replies or messages; nothing here prints to a person
   and no door checks again what is checked here.  Here: starting and
   stopping, the settable parameters (one table, also used by the
   option parser), labels and marks, the queries, and dumps of the
   current window to a destination the caller gives.  A dump is the
   one thing computed here: a walk over the page tables listing the
   pages of the current window. */

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_vki.h"

#include "ws_control.h"

/*------------------------------------------------------------*/
/*--- Starting and stopping                                ---*/
/*------------------------------------------------------------*/

/* A start while measurement is already on (from start-up, or after
   an exec that failed) leaves the window alone, but still begins the
   region that the next stop ends: the region is what the program
   brackets, whether or not measurement was on before
   (docs/control.md, "Regions"). */
WS_CtlResult WS_(ctl_start)(ULong* at)
{
   ULong t;
   WS_CtlResult result = WS_Ctl_OK;
   if (WS_(measuring) && WS_(region_first) != 0)
      return WS_Ctl_AlreadyOn;
   if (WS_(measuring)) {
      t = WS_(measure_region_begin)();
      result = WS_Ctl_RegionBegun;
   } else {
      t = WS_(measure_start)();
   }
   if (at != NULL)
      *at = t;
   return result;
}

WS_CtlResult WS_(ctl_stop)(ULong* at)
{
   ULong t;
   if (!WS_(measuring))
      return WS_Ctl_AlreadyOff;
   t = WS_(measure_stop)();
   if (at != NULL)
      *at = t;
   return WS_Ctl_OK;
}

/*------------------------------------------------------------*/
/*--- Settable parameters                                  ---*/
/*------------------------------------------------------------*/

/* The parameters that may change while the program runs: their names
   for "ws set" and as options, the values accepted, and the getter and
   setter of the module that owns each; a change is an event in the
   output file ("set <name> <n>").  tau's description is every's (NULL:
   the next one's). */
const WS_Param WS_(params)[] = {
   { "tau", "--ws-tau", 1, WS_MAX_INTERVAL, WS_(tau), WS_(set_tau), NULL },
   { "every", "--ws-every", 1, WS_MAX_INTERVAL, WS_(every), WS_(set_every),
     "sets the window tau or the sampling interval T from now on\n"
     "(<n>: a whole number from %llu to %llu)" },
   { "peak-thresh", "--ws-peak-thresh", 1, WS_MAX_PEAK_THRESH,
     WS_(peak_thresh), WS_(set_peak_thresh),
     "sets the peak detector's threshold from now on; lower is more\n"
     "sensitive (<n>: a whole number from %llu to %llu)" },
};
const UInt WS_(n_params) = sizeof WS_(params) / sizeof WS_(params)[0];

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

Bool WS_(param_value)(const WS_Param* p, const HChar* text, ULong* out)
{
   return WS_(whole_number)(text, p->lo, p->hi, out);
}

WS_CtlResult WS_(ctl_set)(const WS_Param* p, const HChar* text,
                          ULong* old, ULong* now)
{
   ULong n;
   if (!WS_(param_value)(p, text, &n))
      return WS_Ctl_BadValue;
   *old = p->get();
   p->set(n);
   WS_(out_event)("set %s %llu", p->name, n);
   *now = n;
   return WS_Ctl_OK;
}

/*------------------------------------------------------------*/
/*--- Labels and marks                                     ---*/
/*------------------------------------------------------------*/

/* Labels go into event lines, whose words are separated by single
   spaces: leading and trailing blanks are dropped and each run of
   blanks inside becomes one space.  A label with a control character
   (it could break the line), with nothing left or, once tidied, longer
   than WS_LABEL_MAX is refused.  |s| is rewritten in place. */
WS_LabelCheck WS_(ctl_label)(HChar* s)
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
   if (out == s)
      return WS_Label_Empty;
   return out - s > WS_LABEL_MAX ? WS_Label_TooLong : WS_Label_OK;
}

WS_LabelCheck WS_(ctl_mark)(HChar* label)
{
   WS_LabelCheck check = WS_(ctl_label)(label);
   if (check != WS_Label_OK)
      return check;
   WS_(out_printf)("event %llu mark ", WS_(now)());
   WS_(out_text)(label);
   WS_(out_end_line)();
   WS_(out_maybe_flush)();
   WS_(region_mark)(label);
   return WS_Label_OK;
}

/*------------------------------------------------------------*/
/*--- Queries                                              ---*/
/*------------------------------------------------------------*/

void WS_(ctl_status)(WS_CtlStatus* st)
{
   st->measuring = WS_(measuring);
   st->now = WS_(now)();
   st->unit = WS_(clo).time_unit;
   st->tau = WS_(tau)();
   st->every = WS_(every)();
   st->pagesize = WS_(page_size)();
   WS_(current_sizes)(st->sizes);
   st->linesize = WS_(clo).linesize;
   WS_(settle_lines)();
   WS_(current_line_sizes)(st->lines);
   st->samples = WS_(stats).samples;
   st->peaks = WS_(peaks_count)();
   st->out_name = WS_(out_name)();
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
   owner.  Each page goes to a visitor: the one below writes
   "dump-page" lines into a file (docs/output-format.md); a door may
   give its own (the list "ws dump" shows people). */

typedef struct {
   WS_DumpVisitor visit;
   void*   opaque;
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
   WS_DumpPage p;
   WS_Owner    owner;
   if (!in_window(slot, w->first))
      return;
   w->n++;
   p.kind = w->kind;
   p.addr = page << WS_(page_shift)();
   p.since = WS_(stamp_start_time)(*slot & WS_STAMP_MASK);
   p.accesses = WS_(page_accesses)(w->kind, page);
   p.first_ip = WS_(page_first_ip)(w->kind, page);
   p.owner = NULL;
   if (w->kind == WS_Data) {
      WS_(owner_of)(p.addr, &owner);
      p.owner = &owner;
   }
   w->visit(&p, w->opaque);
}

/* Gives the window's pages to |visit|; |n| gets the count per kind. */
static void dump_pages(WS_DumpVisitor visit, void* opaque, ULong n[2])
{
   Int  kind;
   Stamp first = WS_(window_first_stamp)();
   WS_(flush_access_counts)();
   for (kind = 0; kind < 2; kind++) {
      DumpWalk w;
      w.visit = visit;
      w.opaque = opaque;
      w.kind = kind;
      w.first = first;
      w.n = 0;
      WS_(pt_for_window)(&WS_(tables)[kind], first, dump_slot, &w);
      n[kind] = w.n;
   }
}

/* A file's dump lines, into the file of |opaque| (a WS_StackFile),
   which holds the stacks the owners name: a dump file names its own,
   each in front of the first dump-owner line that refers to it; the
   output file's are written before the dump (write_owner_stack). */
static void dump_page_line(const WS_DumpPage* p, void* opaque)
{
   WS_StackFile* sf = opaque;
   WS_(file_printf)(sf->file, "dump-page %s 0x%lx %llu %llu",
                    WS_(kind_name)(p->kind), p->addr, p->since, p->accesses);
   WS_(write_where)(sf->file, p->first_ip);
   WS_(file_put_char)('\n', sf->file);
   if (p->kind == WS_Data)
      WS_(write_owner_line)(sf, "dump-owner", p->owner, True);
}

/* The stacks that the data pages' owners name are written to the
   output file before a dump starts, so that none falls inside it. */
static void write_owner_stack(Stamp* slot, Addr page, void* opaque)
{
   WS_Owner owner;
   if (!in_window(slot, *(Stamp*)opaque))
      return;
   WS_(owner_of)(page << WS_(page_shift)(), &owner);
   if (WS_(owner_stack)(&owner) != NULL)
      WS_(out_stack)(WS_(owner_stack)(&owner));
}

/* The block of lines a dump adds to |sf|'s file. */
static void dump_block(WS_StackFile* sf, ULong n[2])
{
   WS_(file_printf)(sf->file, "dump-begin %llu\n", WS_(now)());
   dump_pages(dump_page_line, sf, n);
   WS_(file_printf)(sf->file, "dump-end %llu %llu", n[WS_Insn], n[WS_Data]);
   if (WS_(lines_on)()) {
      ULong lines[2];
      WS_(settle_lines)();
      WS_(current_line_sizes)(lines);
      WS_(file_printf)(sf->file, " lines %llu %llu", lines[WS_Insn],
                       lines[WS_Data]);
   }
   WS_(file_put_char)('\n', sf->file);
}

/* WS_DUMP(label): the stacks its owners name, then an event and the
   block, in the output file (docs/output-format.md: the event is
   followed by its block, the stacks come before both). */
WS_LabelCheck WS_(ctl_dump_label)(HChar* label)
{
   WS_LabelCheck check = WS_(ctl_label)(label);
   Stamp first = WS_(window_first_stamp)();
   ULong n[2];
   if (check != WS_Label_OK)
      return check;
   WS_(pt_for_window)(&WS_(tables)[WS_Data], first, write_owner_stack,
                      &first);
   WS_(out_printf)("event %llu dump label ", WS_(now)());
   WS_(out_text)(label);
   WS_(out_end_line)();
   dump_block(WS_(out_stacks)(), n);
   WS_(out_maybe_flush)();
   return WS_Label_OK;
}

void WS_(ctl_dump_to)(WS_DumpVisitor visit, void* opaque, ULong n[2])
{
   WS_(out_event)("dump monitor");
   dump_pages(visit, opaque, n);
}

WS_DumpResult WS_(ctl_dump_file)(const HChar* name, WS_DumpFile* d)
{
   HChar*  template = WS_(name_template)(name, &d->why);
   WS_File file = WS_FILE("dump file");
   WS_StackFile stacks = { NULL, 1, &file };
   Bool    ok;
   d->path = NULL;
   d->reason[0] = '\0';
   if (template == NULL)
      return WS_Dump_BadName;
   d->path = VG_(expand_file_name)("ws dump", template);
   VG_(free)(template);
   if (!WS_(file_create)(&file, d->path, d->reason, sizeof d->reason))
      return WS_Dump_CannotCreate;
   WS_(write_header)(&file, True);
   dump_block(&stacks, d->n);
   WS_(stack_file_forget)(&stacks);
   ok = WS_(file_close)(&file);
   VG_(free)(file.name);
   if (file.buf)
      VG_(free)(file.buf);
   if (!ok)
      return WS_Dump_Incomplete;
   WS_(out_printf)("event %llu dump file ", WS_(now)());
   WS_(out_text)(d->path);
   WS_(out_end_line)();
   WS_(out_maybe_flush)();
   return WS_Dump_OK;
}

/*--------------------------------------------------------------------*/
/*--- end                                             ws_control.c ---*/
/*--------------------------------------------------------------------*/

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
   WS_(out_printf)("event %llu mark ", WS_(now)());
   WS_(out_text)(label);
   WS_(out_end_line)();
   WS_(out_maybe_flush)();
   WS_(region_mark)(label);
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
   WS_File* file;
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
      WS_(file_printf)(w->file, "  %s 0x%016lx  last access at or after "
                       "t=%llu, %llu accesses, first at",
                       WS_(kind_name)(w->kind), a, since, accesses);
      WS_(monitor_where)(first_ip);
      VG_(gdb_printf)("\n");
      if (w->kind == WS_Data)
         WS_(monitor_owner)(&owner);
      return;
   }
   WS_(where_text)(first_ip, text, sizeof text);
   WS_(file_printf)(w->file, "dump-page %s 0x%lx %llu %llu %s\n",
                    WS_(kind_name)(w->kind), a, since, accesses, text);
   if (w->kind == WS_Data) {
      WS_(owner_text)(&owner, True, w->stacks, text, sizeof text);
      WS_(file_printf)(w->file, "dump-owner %s\n", text);
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

/* Lists the window's pages into |file|; |n| gets the count per kind.
   The owners' stacks go to |stacks|: a dump file names its own, each in
   front of the first dump-owner line that refers to it; the output
   file's are written before the dump (write_owner_stacks); NULL lists
   the pages for people. */
static void dump_pages(WS_File* file, WS_StackFile* stacks, ULong n[2])
{
   Int  kind;
   Stamp first = WS_(window_first_stamp)();
   for (kind = 0; kind < 2; kind++) {
      DumpWalk w;
      w.file = file;
      w.stacks = stacks;
      w.kind = kind;
      w.first = first;
      w.n = 0;
      WS_(pt_for_window)(&WS_(tables)[kind], first, dump_slot, &w);
      n[kind] = w.n;
   }
}

/* The block of lines a dump adds to a file. */
static void dump_block(WS_File* file, WS_StackFile* stacks, ULong n[2])
{
   WS_(file_printf)(file, "dump-begin %llu\n", WS_(now)());
   dump_pages(file, stacks, n);
   WS_(file_printf)(file, "dump-end %llu %llu\n", n[WS_Insn], n[WS_Data]);
}

/* WS_DUMP(label): the stacks its owners name, then an event and the
   block, in the output file (docs/output-format.md: the event is
   followed by its block, the stacks come before both). */
void WS_(dump_to_output)(const HChar* label)
{
   Stamp first = WS_(window_first_stamp)();
   ULong n[2];
   WS_(flush_access_counts)();
   WS_(pt_for_window)(&WS_(tables)[WS_Data], first, write_owner_stack,
                      &first);
   WS_(out_printf)("event %llu dump label ", WS_(now)());
   WS_(out_text)(label);
   WS_(out_end_line)();
   dump_block(WS_(out_file)(), WS_(out_stacks)(), n);
   WS_(out_maybe_flush)();
}

/* "ws dump": the window's pages, for people, to the gdb/vgdb output. */
void WS_(dump_to_monitor)(void)
{
   WS_File to_gdb = WS_MONITOR_FILE;
   ULong   sizes[2], n[2];
   WS_(out_event)("dump monitor");
   WS_(current_sizes)(sizes);
   VG_(gdb_printf)("ws dump at t=%llu: %llu insn pages, %llu data pages "
                   "in the window\n", WS_(now)(), sizes[WS_Insn],
                   sizes[WS_Data]);
   VG_(gdb_printf)("  (pages of %u bytes; t is when the epoch of the "
                   "page's last access began)\n", WS_(clo_pagesize));
   WS_(flush_access_counts)();
   dump_pages(&to_gdb, NULL, n);
   if (to_gdb.buf)
      VG_(free)(to_gdb.buf);
}

/* "ws dump <file>": the block, with a small header, in a file of its
   own.  Returns False (having said why) if the file cannot be made. */
Bool WS_(dump_to_file)(const HChar* name)
{
   const HChar* why;
   HChar*  template = WS_(name_template)(name, &why);
   HChar*  path;
   HChar   reason[512];
   WS_File file = WS_FILE("dump file");
   WS_StackFile stacks = { NULL, 1, WS_(file_put_char), &file };
   ULong   n[2];
   Bool    ok;
   if (template == NULL) {
      VG_(gdb_printf)("ws dump: cannot use the file name '%s': %s\n",
                      name, why);
      return False;
   }
   path = VG_(expand_file_name)("ws dump", template);
   VG_(free)(template);
   if (!WS_(file_create)(&file, path, reason, sizeof reason)) {
      VG_(gdb_printf)("ws dump: cannot create '%s': %s\n", path, reason);
      VG_(free)(path);
      return False;
   }
   WS_(write_header)(&file, True);
   WS_(flush_access_counts)();
   dump_block(&file, &stacks, n);
   WS_(stack_file_forget)(&stacks);
   ok = WS_(file_close)(&file);
   VG_(free)(file.name);
   if (file.buf)
      VG_(free)(file.buf);
   if (!ok) {
      VG_(gdb_printf)("ws dump: writing '%s' failed; the file is "
                      "incomplete\n", path);
      VG_(free)(path);
      return False;
   }
   WS_(out_printf)("event %llu dump file ", WS_(now)());
   WS_(out_text)(path);
   WS_(out_end_line)();
   WS_(out_maybe_flush)();
   VG_(gdb_printf)("ws dump: %llu insn pages, %llu data pages written to "
                   "%s\n", n[WS_Insn], n[WS_Data], path);
   VG_(free)(path);
   return True;
}

/*--------------------------------------------------------------------*/
/*--- end                                             ws_control.c ---*/
/*--------------------------------------------------------------------*/

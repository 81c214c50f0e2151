/*--------------------------------------------------------------------*/
/*--- ws: what lives in a data page.                 ws_owners.c ---*/
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

/* Owns the answer to "whose memory is this?" (docs/output-format.md,
   Owners): a live heap block and the stack that allocated it (from
   ws_heap.c), heap memory in no live block, a global variable, a
   thread's stack, a mapped file, other anonymous memory, or nothing
   known. */

#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_machine.h"

#include "ws_heap.h"

/* Whether segment |seg| holds the stack whose highest byte is
   |stack_max|: a thread's current stack bounds begin at the lowest
   stack pointer it has now, but the stack has been deeper before, in
   the same mapping. */
static Bool in_stack_segment(NSegment const* seg, Addr stack_max)
{
   return seg != NULL && seg->kind == SkAnonC
          && seg->start <= stack_max && stack_max <= seg->end;
}

/* What lives at |a|, in the order of the table in output-format.md: a
   page can hold several things and the first found names it.  The
   heap block is the one containing |a| or, failing that, the first
   block that starts further on in a's page, so that the owner of a
   page of small blocks is one of them rather than the allocator's
   header before the first.  A thread's stack is named for any
   address in its page.  o->name is the debug info's or the address
   space manager's string: use it before asking them anything else. */
void WS_(owner_of)(Addr a, WS_Owner* o)
{
   Addr page_end = (a | (WS_(clo_pagesize) - 1)) + 1;
   const HChar* name;
   PtrdiffT offset;
   ThreadId tid;
   Addr stack_min, stack_max;
   NSegment const* seg;

   VG_(memset)(o, 0, sizeof *o);
   if (WS_(heap_block_of)(a, &o->block, &o->size, &o->site)
       || (page_end > a
           && WS_(heap_first_block_in)(a, page_end, &o->block, &o->size,
                                       &o->site))) {
      o->kind = WS_OwnHeap;
      return;
   }
   if (WS_(heap_arena_contains)(a)) {
      o->kind = WS_OwnHeapOther;
      return;
   }
   if (VG_(get_datasym_and_offset)(VG_(current_DiEpoch)(), a, &name,
                                   &offset)) {
      o->kind = WS_OwnGlobal;
      o->name = name;
      return;
   }
   seg = VG_(am_find_nsegment)(a);
   VG_(thread_stack_reset_iter)(&tid);
   while (VG_(thread_stack_next)(&tid, &stack_min, &stack_max)) {
      if (a <= stack_max && (page_end - 1 >= stack_min
                             || in_stack_segment(seg, stack_max))) {
         o->kind = WS_OwnStack;
         o->tid = tid;
         return;
      }
   }
   if (seg != NULL && seg->kind == SkFileC
       && (name = VG_(am_get_filename)(seg)) != NULL) {
      o->kind = WS_OwnFile;
      o->name = name;
   } else if (seg != NULL && (seg->kind == SkAnonC
                              || seg->kind == SkShmC)) {
      o->kind = WS_OwnAnon;
   } else {
      o->kind = WS_OwnUnknown;
   }
}

/*--------------------------------------------------------------------*/
/*--- end                                              ws_owners.c ---*/
/*--------------------------------------------------------------------*/

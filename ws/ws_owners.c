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
   known; how an owner is written (in the output file, for gdb); and
   the breakdown of the data working set by owner at each peak. */

#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_gdbserver.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_oset.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_vki.h"

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

/* The highest stack byte of threads that have exited, so that their
   stacks keep their names in the hot pages written at exit (the main
   thread's above all: it has exited by then).  Indexed by tid. */
static Addr* exited_stack_max = NULL;

void WS_(owners_thread_exited)(ThreadId tid)
{
   ThreadId t;
   Addr stack_min, stack_max;
   if (exited_stack_max == NULL)
      exited_stack_max = VG_(calloc)("ws.owners.stacks", VG_N_THREADS,
                                     sizeof(Addr));
   VG_(thread_stack_reset_iter)(&t);
   while (VG_(thread_stack_next)(&t, &stack_min, &stack_max))
      if (t == tid && tid < VG_N_THREADS)
         exited_stack_max[tid] = stack_max;
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
   for (tid = 1; exited_stack_max != NULL && tid < VG_N_THREADS; tid++)
      if (exited_stack_max[tid] != 0 && a <= exited_stack_max[tid]
          && in_stack_segment(seg, exited_stack_max[tid])) {
         o->kind = WS_OwnStack;
         o->tid = tid;
         return;
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

/*------------------------------------------------------------*/
/*--- Writing owners                                       ---*/
/*------------------------------------------------------------*/

/* Copies a symbol or path, which ends its line, into |buf| of |size|
   bytes: control characters would break the line and a blank next to
   another blank or at an end would break the grammar's single spaces,
   so these become '?' and '_'.  Returns the characters written. */
static SizeT tidy_name(const HChar* s, HChar* buf, SizeT size)
{
   SizeT i, len = VG_(strlen)(s);
   if (len == 0) {
      s = "???";
      len = 3;
   }
   for (i = 0; i < len && i + 1 < size; i++) {
      HChar c = s[i];
      if ((UChar)c < 0x20 || c == 0x7f)
         c = '?';
      else if (c == ' ' && (i == 0 || i == len - 1 || s[i - 1] == ' '))
         c = '_';
      buf[i] = c;
   }
   if (size > 0)
      buf[i] = '\0';
   return i;
}

void WS_(owner_text)(const WS_Owner* o, Bool with_block,
                     WS_StackFile* stacks, HChar* buf, SizeT size)
{
   SizeT n;
   switch (o->kind) {
   case WS_OwnHeap:
      if (with_block)
         VG_(snprintf)(buf, size, "heap %u %#lx %lu",
                       WS_(stack_id)(stacks, o->site), o->block, o->size);
      else
         VG_(snprintf)(buf, size, "heap %u", WS_(stack_id)(stacks, o->site));
      return;
   case WS_OwnGlobal:
   case WS_OwnFile:
      n = VG_(snprintf)(buf, size, o->kind == WS_OwnGlobal ? "global "
                                                           : "file ");
      if (n < size)
         tidy_name(o->name, buf + n, size - n);
      return;
   case WS_OwnStack:
      VG_(snprintf)(buf, size, "stack %u", o->tid);
      return;
   case WS_OwnHeapOther:
      VG_(snprintf)(buf, size, "heap-other");
      return;
   case WS_OwnAnon:
      VG_(snprintf)(buf, size, "anon");
      return;
   case WS_OwnUnknown:
      VG_(snprintf)(buf, size, "unknown");
      return;
   }
}

/* Room for the longest owner: "file " and a path. */
#define WS_OWNER_TEXT_MAX (VKI_PATH_MAX + 16)

void WS_(out_owner_line)(const HChar* prefix, const WS_Owner* o,
                         Bool with_block)
{
   HChar text[WS_OWNER_TEXT_MAX];
   /* the stack block, if any, first */
   WS_(owner_text)(o, with_block, WS_(out_stacks)(), text, sizeof text);
   WS_(out_printf)("%s %s", prefix, text);
   WS_(out_end_line)();
}

/* For people, under a page's line: one "owner:" line indented by four
   blanks, and for a heap block the allocating stack below it. */
void WS_(monitor_owner)(const WS_Owner* o)
{
   switch (o->kind) {
   case WS_OwnHeap:
      VG_(gdb_printf)("    owner: heap block %#lx of %lu bytes, "
                      "allocated at\n", o->block, o->size);
      WS_(monitor_stack)(o->site, "      ");
      break;
   case WS_OwnHeapOther:
      VG_(gdb_printf)("    owner: heap memory in no live block\n");
      break;
   case WS_OwnGlobal:
      VG_(gdb_printf)("    owner: global variable %s\n", o->name);
      break;
   case WS_OwnStack:
      VG_(gdb_printf)("    owner: stack of thread %u\n", o->tid);
      break;
   case WS_OwnFile:
      VG_(gdb_printf)("    owner: mapping of %s\n", o->name);
      break;
   case WS_OwnAnon:
      VG_(gdb_printf)("    owner: anonymous memory\n");
      break;
   case WS_OwnUnknown:
      VG_(gdb_printf)("    owner: unknown\n");
      break;
   }
}

/*------------------------------------------------------------*/
/*--- The breakdown at a peak                              ---*/
/*------------------------------------------------------------*/

/* The pages of one owner, as the breakdown sums them: heap blocks by
   allocating stack, globals by symbol, stacks by thread, files by
   path. */
typedef struct {
   WS_OwnerKind kind;
   UWord        key;      /* heap: the stack; stack: the tid */
   HChar*       name;     /* global, file: a copy */
   ULong        pages;
} Group;

static Word cmp_group(const void* keyV, const void* elemV)
{
   const Group* k = keyV;
   const Group* e = elemV;
   if (k->kind != e->kind)
      return k->kind < e->kind ? -1 : 1;
   if (k->key != e->key)
      return k->key < e->key ? -1 : 1;
   if (k->name == NULL || e->name == NULL)
      return 0;
   return VG_(strcmp)(k->name, e->name);
}

typedef struct {
   OSet* groups;
   Stamp first;          /* the window's first epoch */
   /* The heap block of the last page counted: pages are visited in
      address order, and every page that starts inside that block is
      the block's (owner_of would say so), so a big block costs one
      lookup rather than one per page. */
   Group* block_group;
   Addr   block, block_end;
} BreakdownWalk;

static void count_page(Stamp* slot, Addr page, void* opaque)
{
   BreakdownWalk* w = opaque;
   Stamp s = *slot & WS_STAMP_MASK;
   WS_Owner o;
   Group key;
   Group* g;
   Addr a = page << WS_(page_shift);
   if (s == WS_STAMP_NEVER || s < w->first)
      return;
   if (w->block_group != NULL && a >= w->block && a < w->block_end) {
      w->block_group->pages++;
      return;
   }
   WS_(owner_of)(a, &o);
   key.kind = o.kind;
   key.key = o.kind == WS_OwnHeap ? (UWord)o.site
           : o.kind == WS_OwnStack ? o.tid : 0;
   key.name = o.kind == WS_OwnGlobal || o.kind == WS_OwnFile
            ? (HChar*)o.name : NULL;
   g = VG_(OSetGen_Lookup)(w->groups, &key);
   if (g == NULL) {
      g = VG_(OSetGen_AllocNode)(w->groups, sizeof(Group));
      *g = key;
      if (key.name != NULL)
         g->name = VG_(strdup)("ws.owners.name", key.name);
      g->pages = 0;
      VG_(OSetGen_Insert)(w->groups, g);
   }
   g->pages++;
   w->block_group = NULL;
   if (o.kind == WS_OwnHeap && o.block <= a) {
      w->block_group = g;
      w->block = o.block;
      w->block_end = o.block + o.size;
   }
}

/* Largest first; ties in the order of the owner table, then by stack
   number, thread or name, so that a run's output does not depend on
   where ws's own memory lies. */
static Int cmp_pages_down(const void* aV, const void* bV)
{
   const Group* a = *(const Group* const*)aV;
   const Group* b = *(const Group* const*)bV;
   if (a->pages != b->pages)
      return a->pages > b->pages ? -1 : 1;
   if (a->kind != b->kind)
      return a->kind < b->kind ? -1 : 1;
   if (a->kind == WS_OwnHeap) {
      UInt ua = VG_(get_ECU_from_ExeContext)((ExeContext*)a->key);
      UInt ub = VG_(get_ECU_from_ExeContext)((ExeContext*)b->key);
      return ua < ub ? -1 : ua > ub ? 1 : 0;
   }
   if (a->key != b->key)
      return a->key < b->key ? -1 : 1;
   if (a->name != NULL && b->name != NULL)
      return VG_(strcmp)(a->name, b->name);
   return 0;
}

/* At most this many owner lines, the last one "rest" when there are
   more owners. */
#define WS_BREAKDOWN_LINES 10

void WS_(out_breakdown)(ULong n)
{
   BreakdownWalk w;
   Group** sorted;
   Group* g;
   UInt n_groups, i, n_heap = 0;
   ULong rest = 0;
   HChar prefix[64];
   ExeContext* heap_sites[WS_BREAKDOWN_LINES];

   w.groups = VG_(OSetGen_Create)(0, cmp_group, VG_(malloc),
                                  "ws.owners.groups", VG_(free));
   w.block_group = NULL;
   w.first = WS_(window_first_stamp)();
   WS_(pt_for_window)(&WS_(tables)[WS_Data], w.first, count_page, &w);

   n_groups = VG_(OSetGen_Size)(w.groups);
   sorted = VG_(malloc)("ws.owners.sorted", (n_groups + 1) * sizeof *sorted);
   i = 0;
   VG_(OSetGen_ResetIter)(w.groups);
   while ((g = VG_(OSetGen_Next)(w.groups)) != NULL)
      sorted[i++] = g;
   VG_(ssort)(sorted, n_groups, sizeof *sorted, cmp_pages_down);

   for (i = 0; i < n_groups; i++) {
      WS_Owner o;
      g = sorted[i];
      if (n_groups > WS_BREAKDOWN_LINES && i >= WS_BREAKDOWN_LINES - 1) {
         rest += g->pages;
         continue;
      }
      VG_(memset)(&o, 0, sizeof o);
      o.kind = g->kind;
      o.site = g->kind == WS_OwnHeap ? (ExeContext*)g->key : NULL;
      o.tid = g->kind == WS_OwnStack ? (ThreadId)g->key : 0;
      o.name = g->name;
      VG_(snprintf)(prefix, sizeof prefix, "owner %llu %llu", n, g->pages);
      WS_(out_owner_line)(prefix, &o, False);
      if (o.kind == WS_OwnHeap)
         heap_sites[n_heap++] = o.site;
   }
   if (n_groups > WS_BREAKDOWN_LINES) {
      WS_(out_printf)("owner %llu %llu rest", n, rest);
      WS_(out_end_line)();
   }
   WS_(heapsites_window)(n, heap_sites, n_heap);

   for (i = 0; i < n_groups; i++) {
      if (sorted[i]->name != NULL)
         VG_(free)(sorted[i]->name);
   }
   VG_(free)(sorted);
   VG_(OSetGen_Destroy)(w.groups);
}

/*--------------------------------------------------------------------*/
/*--- end                                              ws_owners.c ---*/
/*--------------------------------------------------------------------*/

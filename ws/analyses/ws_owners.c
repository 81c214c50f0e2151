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
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_oset.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_vki.h"
#include "pub_tool_xarray.h"

#include "ws_analyses.h"

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

static void thread_exited(const WS_Event* ev)
{
   ThreadId tid = ev->tid;
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

void WS_(owners_init)(void)
{
   WS_(listen)(WS_EvThreadExit, thread_exited);
}

/* What lived at |a| at the sample of sequence number |sample|, in the
   order of the table in output-format.md (a page can hold several
   things; the bytes at |a| name it): a heap block as it was then (live,
   or freed by then), the rest as it is now.  A thread's stack is named
   for any address in its page.  Names are interned (WS_(intern)): they
   stay valid. */
static void data_owner_at(Addr a, ULong sample, WS_Owner* o)
{
   Addr page_end = (a | (WS_(page_size)() - 1)) + 1;
   const HChar* name;
   PtrdiffT offset;
   ThreadId tid;
   Addr stack_min, stack_max;
   NSegment const* seg;

   VG_(memset)(o, 0, sizeof *o);
   if (WS_(heap_owner_at)(a, sample, o))
      return;
   /* The allocator's own bytes (a chunk's header, the top chunk) are
      what a page of blocks is often first touched through, by the
      malloc that made them: a block in the page names it better. */
   if (WS_(heap_block_in)(a & ~(Addr)(WS_(page_size)() - 1), page_end,
                          sample, o))
      return;
   if (WS_(heap_arena_contains)(a)) {
      o->kind = WS_OwnHeapOther;
      return;
   }
   if (VG_(get_datasym_and_offset)(VG_(current_DiEpoch)(), a, &name,
                                   &offset)) {
      o->kind = WS_OwnGlobal;
      o->name = WS_(demangled)(name);
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
      o->name = WS_(intern)(name);
   } else if (seg != NULL && (seg->kind == SkAnonC
                              || seg->kind == SkShmC)) {
      o->kind = WS_OwnAnon;
   } else {
      o->kind = WS_OwnUnknown;
   }
}

/* A code page: the object file and the function of the instruction
   through which it entered the window. */
static void code_owner(Addr a, WS_Owner* o)
{
   DiEpoch ep = VG_(current_DiEpoch)();
   const HChar* s;
   VG_(memset)(o, 0, sizeof *o);
   o->kind = WS_OwnCode;
   o->object = WS_(intern)(VG_(get_objname)(ep, a, &s) ? s : "???");
   o->name = WS_(intern)(VG_(get_fnname)(ep, a, &s) ? s : "???");
}

/* The byte that names |page|'s owner. */
static Addr naming_byte(WS_Kind kind, Addr page)
{
   Addr a = WS_(entry_byte)(kind, page);
   return a != 0 && a >> WS_(page_shift)() == page ? a
                                                 : page << WS_(page_shift)();
}

ExeContext* WS_(owner_stack)(const WS_Owner* o)
{
   return o->kind == WS_OwnHeap || o->kind == WS_OwnFreed ? o->site : NULL;
}

void WS_(owner_of)(Addr a, WS_Owner* o)
{
   Addr page = a >> WS_(page_shift)();
   Addr named = WS_(entry_byte)(WS_Data, page);
   if (named == 0 || named >> WS_(page_shift)() != page)
      named = a;
   /* now: as if a sample were taken */
   data_owner_at(named, WS_(sample_seq) + 1, o);
}

/*------------------------------------------------------------*/
/*--- Writing owners                                       ---*/
/*------------------------------------------------------------*/

/* Copies a symbol or path, which ends its line, escaped into |buf| of
   |size| bytes (docs/output-format.md, "Escaping"). */
static void tidy_name(const HChar* s, HChar* buf, SizeT size)
{
   WS_(escape_into)(s[0] ? s : "???", WS_EscText, buf, size);
}

/* An object file's base name as one word (blanks and control
   characters as '_'), as output-format.md's locations write it. */
static SizeT location_word(const HChar* path, HChar* buf, SizeT size)
{
   const HChar* slash = VG_(strrchr)(path, '/');
   SizeT i = 0;
   for (path = slash ? slash + 1 : path; *path && i + 1 < size; path++)
      buf[i++] = (UChar)*path <= ' ' || *path == 0x7f ? '_' : *path;
   if (i == 0 && size > 3) {
      VG_(strcpy)(buf, "???");
      return 3;
   }
   if (size > 0)
      buf[i] = '\0';
   return i;
}

/* |o| as the output grammar spells it, into |buf| (a heap owner's
   stack is written to |stacks| first, if it is not there). */
static void owner_text(const WS_Owner* o, Bool with_block,
                       WS_StackFile* stacks, HChar* buf, SizeT size)
{
   SizeT n;
   switch (o->kind) {
   case WS_OwnHeap:
   case WS_OwnFreed:
      n = VG_(snprintf)(buf, size, "%s %u",
                        o->kind == WS_OwnHeap ? "heap" : "freed",
                        WS_(stack_id)(stacks, o->site));
      if (with_block && n < size)
         VG_(snprintf)(buf + n, size - n, " %#lx %lu", o->block, o->size);
      return;
   case WS_OwnCode:
      n = VG_(snprintf)(buf, size, "code ");
      n += location_word(o->object, buf + n, size - n);
      if (n + 1 < size) {
         buf[n++] = ' ';
         tidy_name(o->name, buf + n, size - n);
      }
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

/* Room for the longest owner: "file " and a path, escaped. */
#define WS_OWNER_TEXT_MAX (4 * VKI_PATH_MAX + 16)

void WS_(write_owner_line)(WS_StackFile* sf, const HChar* prefix,
                           const WS_Owner* o, Bool with_block)
{
   HChar text[WS_OWNER_TEXT_MAX];
   /* the stack block, if any, first */
   owner_text(o, with_block, sf, text, sizeof text);
   WS_(file_printf)(sf->file, "%s %s\n", prefix, text);
}

/* An owner for people, ending the line: what lives there; a heap
   block, live or freed, is left to the caller (False). */
static Bool show_owner_name(WS_File* f, const WS_Owner* o)
{
   switch (o->kind) {
   case WS_OwnHeap:
   case WS_OwnFreed:
      return False;
   case WS_OwnHeapOther:
      WS_(file_printf)(f, "heap outside live blocks (allocator data, "
                       "free memory)\n");
      break;
   case WS_OwnGlobal:
      WS_(file_printf)(f, "global %s\n", o->name);
      break;
   case WS_OwnStack:
      WS_(file_printf)(f, "stack of thread %u\n", o->tid);
      break;
   case WS_OwnFile:
      WS_(file_printf)(f, "file %s\n", o->name);
      break;
   case WS_OwnAnon:
      WS_(file_printf)(f, "anonymous memory\n");
      break;
   case WS_OwnUnknown:
      WS_(file_printf)(f, "unknown\n");
      break;
   case WS_OwnCode:
      if (VG_STREQ(o->name, "???"))
         WS_(file_printf)(f, "code without symbols in %s\n", o->object);
      else
         WS_(file_printf)(f, "%s in %s\n", o->name, o->object);
      break;
   }
   return True;
}

void WS_(show_owner_line)(WS_File* f, const WS_Owner* o, Bool with_block)
{
   const HChar* what = o->kind == WS_OwnHeap ? "heap" : "freed";
   if (show_owner_name(f, o))
      return;
   if (with_block)
      WS_(file_printf)(f, "%s block %#lx (%lu bytes) from %s\n", what,
                       o->block, o->size, WS_(site_line)(o->site));
   else
      WS_(file_printf)(f, "%s blocks from %s\n", what,
                       WS_(site_line)(o->site));
}

/* For people, under a page's line: one "owner:" line indented by four
   blanks, and for a heap block the allocating stack below it. */
void WS_(show_owner)(WS_File* f, const WS_Owner* o)
{
   WS_(file_printf)(f, "    owner: ");
   if (show_owner_name(f, o))
      return;
   WS_(file_printf)(f, "%s block %#lx (%lu bytes), allocated at\n",
                    o->kind == WS_OwnHeap ? "heap" : "freed", o->block,
                    o->size);
   WS_(show_stack)(f, o->site, "      ", WS_(own_level)(o->site));
}

/*------------------------------------------------------------*/
/*--- The breakdown at a peak                              ---*/
/*------------------------------------------------------------*/

/* The pages of one owner, as the breakdown sums them: heap blocks
   (live or freed) by allocating stack, globals by symbol, stacks by
   thread, files by path, code by object and function.  Names are
   interned, so pointers compare. */
typedef struct {
   WS_Owner owner;
   ULong    pages;
   UInt     line;      /* its line in the breakdown, once sorted */
} Group;

static UWord group_key(const WS_Owner* o)
{
   return o->kind == WS_OwnHeap || o->kind == WS_OwnFreed ? (UWord)o->site
        : o->kind == WS_OwnStack ? o->tid : 0;
}

static Word cmp_group(const void* keyV, const void* elemV)
{
   const WS_Owner* k = &((const Group*)keyV)->owner;
   const WS_Owner* e = &((const Group*)elemV)->owner;
   UWord kk = group_key(k), ek = group_key(e);
   if (k->kind != e->kind)
      return k->kind < e->kind ? -1 : 1;
   if (kk != ek)
      return kk < ek ? -1 : 1;
   if (k->name != e->name)
      return (UWord)k->name < (UWord)e->name ? -1 : 1;
   if (k->object != e->object)
      return (UWord)k->object < (UWord)e->object ? -1 : 1;
   return 0;
}

typedef struct {
   OSet*   groups;
   WS_Kind kind;
   ULong   sample;
   /* The heap block of the last page counted: pages come in address
      order, and every later page that starts inside that block is the
      block's whatever byte names it (no other block overlaps it), so a
      big block costs one lookup rather than one per page. */
   Group*  block_group;
   Addr    block, block_end;
} BreakdownWalk;

static Group* count_page(BreakdownWalk* w, Addr page)
{
   Addr a = page << WS_(page_shift)();
   Group key;
   Group* g;
   if (w->block_group != NULL && a >= w->block && a < w->block_end) {
      w->block_group->pages++;
      return w->block_group;
   }
   if (w->kind == WS_Insn)
      code_owner(naming_byte(WS_Insn, page), &key.owner);
   else
      data_owner_at(naming_byte(WS_Data, page), w->sample, &key.owner);
   g = VG_(OSetGen_Lookup)(w->groups, &key);
   if (g == NULL) {
      g = VG_(OSetGen_AllocNode)(w->groups, sizeof(Group));
      *g = key;
      g->pages = 0;
      VG_(OSetGen_Insert)(w->groups, g);
   }
   g->pages++;
   w->block_group = NULL;
   if ((key.owner.kind == WS_OwnHeap || key.owner.kind == WS_OwnFreed)
       && key.owner.block <= a) {
      w->block_group = g;
      w->block = key.owner.block;
      w->block_end = key.owner.block + key.owner.size;
   }
   return g;
}

static UInt site_number(const WS_Owner* o)
{
   return VG_(get_ECU_from_ExeContext)(o->site);
}

/* Largest first; ties in the order of the owner table, then by stack
   number, thread or name, so that a run's output does not depend on
   where ws's own memory lies. */
static Int cmp_pages_down(const void* aV, const void* bV)
{
   const Group* a = *(const Group* const*)aV;
   const Group* b = *(const Group* const*)bV;
   const WS_Owner* oa = &a->owner;
   const WS_Owner* ob = &b->owner;
   Int c;
   if (a->pages != b->pages)
      return a->pages > b->pages ? -1 : 1;
   if (oa->kind != ob->kind)
      return oa->kind < ob->kind ? -1 : 1;
   if (oa->kind == WS_OwnHeap || oa->kind == WS_OwnFreed)
      return site_number(oa) < site_number(ob) ? -1
             : site_number(oa) > site_number(ob) ? 1 : 0;
   if (oa->tid != ob->tid)
      return oa->tid < ob->tid ? -1 : 1;
   if (oa->object != ob->object
       && (c = VG_(strcmp)(oa->object, ob->object)) != 0)
      return c;
   if (oa->name != ob->name && oa->name != NULL && ob->name != NULL)
      return VG_(strcmp)(oa->name, ob->name);
   return 0;
}

/* For the live heap owners of a data breakdown: the site's live bytes
   and how many of them lie on the window's |pages| (docs/manual.md,
   "Heap usage"; ws_heapsites.c counts them). */
static void heap_lines_in_window(WS_Breakdown* b, const XArray* pages)
{
   ExeContext* sites[WS_BREAKDOWN_LINES];
   ULong live[WS_BREAKDOWN_LINES], window[WS_BREAKDOWN_LINES];
   UInt i, n_sites = 0;
   for (i = 0; i < b->n; i++)
      if (!b->lines[i].rest && b->lines[i].owner.kind == WS_OwnHeap)
         sites[n_sites++] = b->lines[i].owner.site;
   if (!WS_(heapsites_window)(pages, sites, n_sites, live, window))
      return;
   for (i = 0, n_sites = 0; i < b->n; i++)
      if (!b->lines[i].rest && b->lines[i].owner.kind == WS_OwnHeap) {
         b->lines[i].heap_window = True;
         b->lines[i].live_bytes = live[n_sites];
         b->lines[i].window_bytes = window[n_sites++];
      }
}

WS_Breakdown* WS_(breakdown_pages)(WS_Kind kind, const XArray* pages,
                                   ULong sample, UInt* page_line)
{
   BreakdownWalk w;
   WS_Breakdown* b = VG_(calloc)("ws.owners.breakdown", 1, sizeof *b);
   Group** sorted;
   Group** page_group = NULL;
   Group* g;
   Word i, n_pages = VG_(sizeXA)(pages);
   UInt n_groups;

   w.groups = VG_(OSetGen_Create)(0, cmp_group, VG_(malloc),
                                  "ws.owners.groups", VG_(free));
   w.kind = kind;
   w.sample = sample;
   w.block_group = NULL;
   if (page_line != NULL)
      page_group = VG_(malloc)("ws.owners.pagegroup",
                               (n_pages + 1) * sizeof *page_group);
   for (i = 0; i < n_pages; i++) {
      g = count_page(&w, *(const Addr*)VG_(indexXA)(pages, i));
      if (page_group != NULL)
         page_group[i] = g;
   }

   n_groups = VG_(OSetGen_Size)(w.groups);
   sorted = VG_(malloc)("ws.owners.sorted", (n_groups + 1) * sizeof *sorted);
   i = 0;
   VG_(OSetGen_ResetIter)(w.groups);
   while ((g = VG_(OSetGen_Next)(w.groups)) != NULL)
      sorted[i++] = g;
   VG_(ssort)(sorted, n_groups, sizeof *sorted, cmp_pages_down);
   for (i = 0; i < n_groups; i++) {
      WS_OwnerPages* line = &b->lines[b->n];
      sorted[i]->line = b->n;
      if (n_groups > WS_BREAKDOWN_LINES && i >= WS_BREAKDOWN_LINES - 1) {
         line->rest = True;
         line->pages += sorted[i]->pages;
         continue;
      }
      line->owner = sorted[i]->owner;
      line->pages = sorted[i]->pages;
      b->n++;
   }
   if (n_groups > WS_BREAKDOWN_LINES)
      b->n++;
   for (i = 0; page_group != NULL && i < n_pages; i++)
      page_line[i] = page_group[i]->line;
   if (page_group != NULL)
      VG_(free)(page_group);
   VG_(free)(sorted);
   VG_(OSetGen_Destroy)(w.groups);
   if (kind == WS_Data)
      heap_lines_in_window(b, pages);
   return b;
}

WS_Breakdown* WS_(breakdown)(WS_Kind kind, const XArray* pages,
                             ULong sample)
{
   return WS_(breakdown_pages)(kind, pages, sample, NULL);
}

void WS_(breakdown_free)(WS_Breakdown* b)
{
   VG_(free)(b);
}

void WS_(write_breakdown)(WS_StackFile* sf, ULong n, const WS_Breakdown* b)
{
   HChar prefix[64];
   UInt i;
   for (i = 0; i < b->n; i++) {
      const WS_OwnerPages* line = &b->lines[i];
      if (line->rest) {
         WS_(file_printf)(sf->file, "owner %llu %llu rest\n", n,
                          line->pages);
         continue;
      }
      VG_(snprintf)(prefix, sizeof prefix, "owner %llu %llu", n,
                    line->pages);
      WS_(write_owner_line)(sf, prefix, &line->owner, False);
   }
   for (i = 0; i < b->n; i++)
      if (b->lines[i].heap_window) {
         /* the stack block, if any, first */
         UInt stack = WS_(stack_id)(sf, b->lines[i].owner.site);
         WS_(file_printf)(sf->file, "heap-window %llu %u live %llu window "
                          "%llu\n", n, stack, b->lines[i].live_bytes,
                          b->lines[i].window_bytes);
      }
}

/* "  2000 pages (97.4%): heap blocks allocated at" and the stack, for
   people. */
void WS_(show_breakdown)(WS_File* f, const WS_Breakdown* b, ULong total,
                         const HChar* indent)
{
   UInt i;
   HChar deeper[VG_(strlen)(indent) + 3];
   VG_(sprintf)(deeper, "%s  ", indent);
   for (i = 0; i < b->n; i++) {
      const WS_OwnerPages* line = &b->lines[i];
      const WS_Owner* o = &line->owner;
      ULong tenths = total ? (line->pages * 1000 + total / 2) / total : 0;
      WS_(file_printf)(f, "%s%llu page%s (%llu.%llu%%): ", indent,
                       line->pages, line->pages == 1 ? "" : "s",
                       tenths / 10, tenths % 10);
      if (line->rest) {
         WS_(file_printf)(f, "other owners\n");
         continue;
      }
      if (show_owner_name(f, o))
         continue;
      WS_(file_printf)(f, "%s allocated at\n", o->kind == WS_OwnHeap
                       ? "heap blocks" : "freed blocks");
      WS_(show_stack)(f, o->site, deeper, WS_(own_level)(o->site));
   }
}

/*--------------------------------------------------------------------*/
/*--- end                                              ws_owners.c ---*/
/*--------------------------------------------------------------------*/

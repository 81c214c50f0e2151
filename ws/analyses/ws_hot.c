/*--------------------------------------------------------------------*/
/*--- ws: per-page access counts and hot pages.          ws_hot.c ---*/
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

/* Owns the hot pages (--ws-hot, "ws hot") and the list of every page
   (--ws-list-pages): the pages of each kind ranked by the access
   counts of their records (ws_records.c), with their first access and,
   for data, their owner. */

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"

#include "ws_analyses.h"

/*------------------------------------------------------------*/
/*--- The hottest pages                                    ---*/
/*------------------------------------------------------------*/

typedef struct {
   Addr  page;
   ULong accesses;
   Addr  first_ip;
} Hot;

/* The n hottest pages of a kind, found in one pass over the records
   with a min-heap of n entries: the scan costs the pages touched,
   the memory n entries. */
typedef struct {
   Hot*  heap;
   ULong n, cap;
   ULong touched;       /* pages with a record */
} HotList;

/* Whether |a| ranks below |b|: fewer accesses, or as many at a higher
   address (ties go to the lower address). */
static Bool colder(const Hot* a, const Hot* b)
{
   return a->accesses < b->accesses
          || (a->accesses == b->accesses && a->page > b->page);
}

static void swap_hot(Hot* a, Hot* b)
{
   Hot t = *a;
   *a = *b;
   *b = t;
}

static void sift_down(HotList* l, ULong i)
{
   for (;;) {
      ULong c = 2 * i + 1, m = i;
      if (c < l->n && colder(&l->heap[c], &l->heap[m]))
         m = c;
      if (c + 1 < l->n && colder(&l->heap[c + 1], &l->heap[m]))
         m = c + 1;
      if (m == i)
         return;
      swap_hot(&l->heap[i], &l->heap[m]);
      i = m;
   }
}

static void consider(const WS_PageRecord* r, Addr page, void* opaque)
{
   HotList* l = opaque;
   Hot h;
   if (r->first_ip == 0)
      return;
   l->touched++;
   if (r->accesses == 0 || l->cap == 0)
      return;
   h.page = page;
   h.accesses = r->accesses;
   h.first_ip = r->first_ip;
   if (l->n < l->cap) {
      ULong i = l->n++;
      l->heap[i] = h;
      while (i > 0 && colder(&l->heap[i], &l->heap[(i - 1) / 2])) {
         swap_hot(&l->heap[i], &l->heap[(i - 1) / 2]);
         i = (i - 1) / 2;
      }
   } else if (colder(&l->heap[0], &h)) {
      l->heap[0] = h;
      sift_down(l, 0);
   }
}

/* Fills |l| with the |n| hottest pages of |kind|, hottest first. */
static void find_hot(WS_Kind kind, ULong n, HotList* l)
{
   ULong found;
   l->cap = n;
   l->n = 0;
   l->touched = 0;
   l->heap = n ? VG_(malloc)("ws.hot.heap", n * sizeof(Hot)) : NULL;
   WS_(flush_access_counts)();
   WS_(for_each_record)(kind, consider, l);
   /* Heap order to hottest-first: move the coldest to the back. */
   found = l->n;
   while (l->n > 1) {
      swap_hot(&l->heap[0], &l->heap[l->n - 1]);
      l->n--;
      sift_down(l, 0);
   }
   l->n = found;
}

static void free_hot(HotList* l)
{
   if (l->heap)
      VG_(free)(l->heap);
}

static void out_where(Addr ip)
{
   if (WS_(clo).locations)
      WS_(write_where)(WS_(out_file)(), ip);
   else
      WS_(out_printf)(" 0x%lx ??? ???", ip);
}

/*------------------------------------------------------------*/
/*--- In the output file                                   ---*/
/*------------------------------------------------------------*/

static HotList at_exit[2];
static WS_Owner* at_exit_owners = NULL;

void WS_(hot_prepare)(void)
{
   Int kind;
   ULong i;
   for (kind = 0; kind < 2; kind++)
      find_hot(kind, WS_(clo).hot, &at_exit[kind]);
   /* Owners are looked up now, and the stacks they name written, so
      that no stack block falls among the trailer's lines. */
   if (at_exit[WS_Data].n > 0)
      at_exit_owners = VG_(malloc)("ws.hot.owners",
                                   at_exit[WS_Data].n * sizeof(WS_Owner));
   for (i = 0; i < at_exit[WS_Data].n; i++) {
      WS_Owner* o = &at_exit_owners[i];
      WS_(owner_of)(at_exit[WS_Data].heap[i].page << WS_(page_shift)(), o);
      if (WS_(owner_stack)(o) != NULL)
         WS_(out_stack)(WS_(owner_stack)(o));
   }
}

static void list_page(const WS_PageRecord* r, Addr page, void* opaque)
{
   if (r->first_ip == 0)
      return;
   WS_(out_printf)("page %s 0x%lx %llu",
                   WS_(kind_name)(*(WS_Kind*)opaque),
                   page << WS_(page_shift)(), r->accesses);
   out_where(r->first_ip);
   WS_(out_end_line)();
}

void WS_(hot_trailer)(void)
{
   Int kind;
   ULong i;
   for (kind = 0; kind < 2; kind++) {
      HotList* l = &at_exit[kind];
      for (i = 0; i < l->n; i++) {
         const Hot* h = &l->heap[i];
         WS_(out_printf)("hot %s %llu %llu 0x%lx", WS_(kind_name)(kind),
                         i + 1, h->accesses, h->page << WS_(page_shift)());
         out_where(h->first_ip);
         WS_(out_end_line)();
         if (kind == WS_Data)
            WS_(write_owner_line)(WS_(out_stacks)(), "hot-owner",
                                  &at_exit_owners[i], True);
      }
      free_hot(l);
   }
   if (at_exit_owners)
      VG_(free)(at_exit_owners);
   at_exit_owners = NULL;
   if (WS_(clo).list_pages)
      for (kind = 0; kind < 2; kind++)
         WS_(for_each_record)(kind, list_page, &kind);
}

/*------------------------------------------------------------*/
/*--- For "ws hot"                                         ---*/
/*------------------------------------------------------------*/

void WS_(show_hot)(WS_File* f, ULong n, UInt kinds)
{
   Int kind;
   ULong i;
   for (kind = 0; kind < 2; kind++) {
      HotList l;
      if (!(kinds & (1u << kind)))
         continue;
      find_hot(kind, n, &l);
      WS_(file_printf)(f, "Hot %s pages: the %llu hottest of %llu touched "
                       "(accesses so far; pages of %u bytes)\n",
                       kind == WS_Insn ? "instruction" : "data", l.n,
                       l.touched, WS_(page_size)());
      for (i = 0; i < l.n; i++) {
         const Hot* h = &l.heap[i];
         WS_(file_printf)(f, "%4llu %14llu  0x%lx  first at", i + 1,
                          h->accesses, h->page << WS_(page_shift)());
         WS_(write_where)(f, h->first_ip);
         WS_(file_printf)(f, "\n");
         if (kind == WS_Data) {
            WS_Owner o;
            WS_(owner_of)(h->page << WS_(page_shift)(), &o);
            WS_(show_owner)(f, &o);
         }
      }
      free_hot(&l);
   }
}

/*--------------------------------------------------------------------*/
/*--- end                                                  ws_hot.c ---*/
/*--------------------------------------------------------------------*/

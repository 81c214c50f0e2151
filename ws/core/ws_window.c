/*--------------------------------------------------------------------*/
/*--- ws: windows and the pages in them.              ws_window.c ---*/
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

/* Owns the two page tables (a stamp per page, instruction and data),
   the window counters, and what a touch of a page does to them.  It
   never scans the page tables for a sample: a sample costs the same
   whether the program touched ten pages or ten million.

   For each set of pages (instruction, data, and per thread) a WS_Window
   counts how many pages have their latest stamp in each epoch still in
   the window, and keeps the sum: moving a page to the current epoch is
   O(1), and dropping the epochs that left the window at a sample is
   O(epochs dropped), which is bounded by the number of epochs per
   window, not by the number of pages. */

#include "pub_tool_basics.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_xarray.h"

#include "ws_core.h"
#include "ws_control.h"   /* until the core has its events */

WS_PageTable     WS_(tables)[2];
static Stamp*    table_l1[2][WS_L1_ENTRIES];
static WS_Window windows[2];
static Stamp     window_first = 1;   /* oldest stamp in the window */

/*------------------------------------------------------------*/
/*--- Window counters                                      ---*/
/*------------------------------------------------------------*/

#define WS_INITIAL_RING 16

void WS_(win_init)(WS_Window* w)
{
   w->cap    = WS_INITIAL_RING;
   w->counts = VG_(calloc)("ws.window.counts", w->cap, sizeof(UInt));
   w->first  = window_first;
   w->size   = 0;
}

void WS_(win_free)(WS_Window* w)
{
   VG_(free)(w->counts);
   w->counts = NULL;
}

/* Invariant: every non-zero counter belongs to a stamp in
   [first, first + cap), so each ring slot names one stamp. */
static void win_grow(WS_Window* w, Stamp upto)
{
   UInt   new_cap = w->cap;
   UInt*  ring;
   Stamp  s;
   while (upto - w->first >= new_cap)
      new_cap *= 2;
   ring = VG_(calloc)("ws.window.counts", new_cap, sizeof(UInt));
   for (s = w->first; s - w->first < w->cap; s++)
      ring[s & (new_cap - 1)] = w->counts[s & (w->cap - 1)];
   VG_(free)(w->counts);
   w->counts = ring;
   w->cap = new_cap;
}

void WS_(win_set)(WS_Window* w, Stamp old, Stamp new)
{
   Bool old_in = old != WS_STAMP_NEVER && old >= w->first;
   Bool new_in = new != WS_STAMP_NEVER && new >= w->first;
   if (new_in && new - w->first >= w->cap)
      win_grow(w, new);
   if (old_in)
      w->counts[old & (w->cap - 1)]--;
   if (new_in)
      w->counts[new & (w->cap - 1)]++;
   w->size = w->size + new_in - old_in;
}

void WS_(win_advance)(WS_Window* w, Stamp first)
{
   Stamp s;
   if (first <= w->first)
      return;
   for (s = w->first; s < first && s - w->first < w->cap; s++) {
      UInt* c = &w->counts[s & (w->cap - 1)];
      w->size -= *c;
      *c = 0;
   }
   w->first = first;
}

void WS_(windows_advance)(Stamp first)
{
   Int kind;
   window_first = first;
   for (kind = 0; kind < 2; kind++)
      WS_(win_advance)(&windows[kind], first);
   if (WS_(clo_per_thread))
      WS_(threads_advance)(first);
}

/*------------------------------------------------------------*/
/*--- Touching pages                                       ---*/
/*------------------------------------------------------------*/

/* |a|: a byte of the page that the access reaches (for code, the
   instruction's first byte on it). */
void WS_(touch_page)(WS_Kind kind, Addr page, Addr ip, Addr a)
{
   Stamp* slot = WS_(pt_slot)(&WS_(tables)[kind], page);
   Stamp  old  = *slot;
   if (old == WS_(cur_stamp))
      return;
   if (old == WS_STAMP_NEVER)
      WS_(first_touch)(kind, page, ip);
   /* A page that enters the window (or is a new mapping) is named by
      the bytes this access reaches: what it holds may have changed
      since it was last in the window. */
   if ((old & WS_STAMP_MASK) < windows[kind].first || (old & WS_STAMP_DEAD))
      WS_(entered_window)(kind, page, kind == WS_Insn ? ip : a);
   if (old == WS_STAMP_NEVER || (old & WS_STAMP_DEAD))
      WS_(stats).total[kind]++;
   if (WS_(cur_stamp) >= WS_(miss_first)
       && (old & WS_STAMP_MASK) < WS_(miss_first)) {
      if (WS_(clo_miss_file))
         WS_(miss_at)(kind, ip);
      if (++WS_(rising)[kind] >= WS_(rise_mark)[kind])
         WS_(window_rose)(kind, ip);
   }
   /* Stamps only grow, so a page is new to the open region exactly
      when its stamp is older than the region's first epoch. */
   if ((old & WS_STAMP_MASK) < WS_(region_first) || (old & WS_STAMP_DEAD))
      WS_(region_total)[kind]++;
   WS_(win_set)(&windows[kind], old & WS_STAMP_MASK, WS_(cur_stamp));
   WS_(pt_stamp)(&WS_(tables)[kind], slot, page, WS_(cur_stamp));
   if (kind == WS_Insn)
      WS_(code_slot_stamp)(page, WS_(cur_stamp));
   if (WS_(clo_per_thread))
      WS_(thread_touch)(VG_(get_running_tid)(), kind, page, old);
}

void WS_(touch_range)(WS_Kind kind, Addr a, SizeT size, Addr ip)
{
   Addr page, last;
   if (size == 0 || !WS_(measuring))
      return;
   last = (a + size - 1) >> WS_(page_shift);
   if (last < (a >> WS_(page_shift))    /* wraps the address space */
       || last >= WS_(beyond_user_space)())
      last = WS_(beyond_user_space)() - 1;
   for (page = a >> WS_(page_shift); page <= last; page++) {
      WS_(touch_page)(kind, page, ip, page == a >> WS_(page_shift)
                                      ? a : page << WS_(page_shift));
      if (page == last)
         break;
   }
}

static void mark_dead(Stamp* slot, Addr page, void* opaque)
{
   if (*slot != WS_STAMP_NEVER)
      *slot |= WS_STAMP_DEAD;
}

/* A code page's slot (ws_codeslots.c) follows its page-table stamp. */
static void mark_code_dead(Stamp* slot, Addr page, void* opaque)
{
   mark_dead(slot, page, opaque);
   if (*slot != WS_STAMP_NEVER)
      WS_(code_slot_stamp)(page, *slot);
}

void WS_(unmapped)(Addr a, SizeT len)
{
   /* Only pages wholly inside the range are gone: with pages larger
      than the kernel's, the rest of a partly unmapped page lives on. */
   Addr first = (a + (1UL << WS_(page_shift)) - 1) >> WS_(page_shift);
   Addr end   = (a + len) >> WS_(page_shift);
   Int  kind;
   if (len == 0 || end <= first)
      return;
   /* The next touch of these pages must reach touch_page. */
   WS_(dtlb_flush)();
   for (kind = 0; kind < 2; kind++)
      WS_(pt_for_range)(&WS_(tables)[kind], first, end - 1,
                        kind == WS_Insn ? mark_code_dead : mark_dead, NULL);
}

/*------------------------------------------------------------*/
/*--- What is in the window                                ---*/
/*------------------------------------------------------------*/

void WS_(current_sizes)(ULong sizes[2])
{
   sizes[WS_Insn] = windows[WS_Insn].size;
   sizes[WS_Data] = windows[WS_Data].size;
}

Stamp WS_(window_first_stamp)(void)
{
   return window_first;
}

static void collect_page(Stamp* slot, Addr page, void* opaque)
{
   VG_(addToXA)((XArray*)opaque, &page);
}

XArray* WS_(window_pages)(WS_Kind kind)
{
   XArray* pages = VG_(newXA)(VG_(malloc), "ws.window.pages", VG_(free),
                              sizeof(Addr));
   WS_(pt_for_window)(&WS_(tables)[kind], window_first, collect_page,
                      pages);
   return pages;
}

void WS_(windows_init)(void)
{
   Int kind;
   for (kind = 0; kind < 2; kind++) {
      WS_(pt_init)(&WS_(tables)[kind], False, table_l1[kind]);
      WS_(pt_track_windows)(&WS_(tables)[kind]);
      WS_(win_init)(&windows[kind]);
   }
}

/*--------------------------------------------------------------------*/
/*--- end                                               ws_window.c ---*/
/*--------------------------------------------------------------------*/

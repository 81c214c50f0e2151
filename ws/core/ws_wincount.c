/*--------------------------------------------------------------------*/
/*--- ws: window counters.                           ws_wincount.c ---*/
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

/* Owns the window counters (WS_Window, ws_core.h): for one set of
   pages (instruction, data, a thread's, the shared pages), how many
   pages have their latest stamp in each epoch still in the window, and
   the sum, which is the working-set size.  Moving a page to the current
   epoch is O(1), and dropping the epochs that left the window at a
   sample is O(epochs dropped), which is bounded by the number of epochs
   per window, not by the number of pages.  It knows nothing of which
   pages they count (ws_window.c and ws_perthread.c do). */

#include "pub_tool_basics.h"
#include "pub_tool_mallocfree.h"

#include "ws_core.h"

#define WS_INITIAL_RING 16

void WS_(win_init)(WS_Window* w, Stamp first)
{
   w->cap    = WS_INITIAL_RING;
   w->counts = VG_(calloc)("ws.window.counts", w->cap, sizeof(UInt));
   w->first  = first;
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

void WS_(win_move)(WS_Window* w, Stamp old, Stamp new, UInt n)
{
   Bool old_in = old != WS_STAMP_NEVER && old >= w->first;
   Bool new_in = new != WS_STAMP_NEVER && new >= w->first;
   if (new_in && new - w->first >= w->cap)
      win_grow(w, new);
   if (old_in)
      w->counts[old & (w->cap - 1)] -= n;
   if (new_in)
      w->counts[new & (w->cap - 1)] += n;
   w->size = w->size + (ULong)new_in * n - (ULong)old_in * n;
}

void WS_(win_set)(WS_Window* w, Stamp old, Stamp new)
{
   WS_(win_move)(w, old, new, 1);
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

/*--------------------------------------------------------------------*/
/*--- end                                             ws_wincount.c ---*/
/*--------------------------------------------------------------------*/

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
   their windows, the open region's count, and what a touch of a page
   does to them and tells (a page entering the next sample's window,
   the mark of its rise).  It never scans the page tables for a sample:
   a sample costs the same whether the program touched ten pages or ten
   million (the windows' counters, ws_wincount.c, say why). */

#include "pub_tool_basics.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_xarray.h"

#include "ws_core.h"

WS_PageTable     WS_(tables)[2];
static Stamp*    table_l1[2][WS_L1_ENTRIES];
static WS_Window windows[2];
static Stamp     window_first = 1;   /* oldest stamp in the window */

Stamp WS_(region_first) = 0;         /* 0: no region is open */
ULong WS_(region_pages)[2];

/* Cache lines, when smaller than pages (WS_(lines_apart)): a stamp
   table and a window per kind as for pages.  Lines reach them in bulk,
   from the data TLB's and the code slots' line flags, when those are
   settled (WS_(settle_lines)), never from the IR. */
WS_PageTable     WS_(line_tables)[2];
static Stamp*    line_l1[2][WS_L1_ENTRIES];
static WS_Window line_windows[2];
ULong WS_(region_lines)[2];

/* WS_EvRose is told when WS_(rising) reaches these. */
static ULong rise_mark[2] = { ~0ULL, ~0ULL };

void WS_(windows_advance)(Stamp first)
{
   Int kind;
   window_first = first;
   for (kind = 0; kind < 2; kind++) {
      WS_(win_advance)(&windows[kind], first);
      if (WS_(lines_apart)())
         WS_(win_advance)(&line_windows[kind], first);
   }
   if (WS_(clo).per_thread)
      WS_(threads_advance)(first);
}

/*------------------------------------------------------------*/
/*--- Touching pages                                       ---*/
/*------------------------------------------------------------*/

void WS_(notify_rise)(WS_Kind kind, ULong pages)
{
   rise_mark[kind] = pages;
}

static void tell_entered(WS_Kind kind, Addr page, Addr ip)
{
   WS_Event ev = { .what = WS_EvEntered, .kind = kind, .page = page,
                   .ip = ip };
   WS_(tell)(&ev);
}

static void tell_rose(WS_Kind kind, Addr ip)
{
   WS_Event ev = { .what = WS_EvRose, .kind = kind, .ip = ip };
   WS_(tell)(&ev);
}

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
      WS_(entered_window)(kind, page, ip, kind == WS_Insn ? ip : a);
   if (old == WS_STAMP_NEVER || (old & WS_STAMP_DEAD))
      WS_(stats).total[kind]++;
   if (WS_(cur_stamp) >= WS_(miss_first)
       && (old & WS_STAMP_MASK) < WS_(miss_first)) {
      if (WS_(heard)(WS_EvEntered))
         tell_entered(kind, page, ip);
      if (++WS_(rising)[kind] >= rise_mark[kind])
         tell_rose(kind, ip);
   }
   /* Stamps only grow, so a page is new to the open region exactly
      when its stamp is older than the region's first epoch. */
   if ((old & WS_STAMP_MASK) < WS_(region_first) || (old & WS_STAMP_DEAD))
      WS_(region_pages)[kind]++;
   WS_(win_set)(&windows[kind], old & WS_STAMP_MASK, WS_(cur_stamp));
   WS_(pt_stamp)(&WS_(tables)[kind], slot, page, WS_(cur_stamp));
   if (kind == WS_Insn)
      WS_(code_slot_stamp)(page, WS_(cur_stamp));
   if (WS_(clo).per_thread)
      WS_(thread_touch)(VG_(get_running_tid)(), kind, page, old);
}

void WS_(touch_line)(WS_Kind kind, Addr line)
{
   WS_(touch_line_at)(kind, WS_(pt_slot)(&WS_(line_tables)[kind], line));
}

void WS_(touch_line_at)(WS_Kind kind, Stamp* slot)
{
   Stamp  old  = *slot;
   if (old == WS_(cur_stamp))
      return;
   if (old == WS_STAMP_NEVER || (old & WS_STAMP_DEAD))
      WS_(stats).total_lines[kind]++;
   if ((old & WS_STAMP_MASK) < WS_(region_first) || (old & WS_STAMP_DEAD))
      WS_(region_lines)[kind]++;
   WS_(win_set)(&line_windows[kind], old & WS_STAMP_MASK, WS_(cur_stamp));
   *slot = WS_(cur_stamp);
}

void WS_(touch_line_range)(WS_Kind kind, Addr a, SizeT size)
{
   Addr line, last;
   if (size == 0 || !WS_(lines_apart)())
      return;
   last = (a + size - 1) >> WS_(line_shift)();
   if (last < (a >> WS_(line_shift)())
       || last >= (WS_(beyond_user_space)() << WS_(lpp_shift)()))
      last = (WS_(beyond_user_space)() << WS_(lpp_shift)()) - 1;
   for (line = a >> WS_(line_shift)(); line <= last; line++) {
      WS_(touch_line)(kind, line);
      if (line == last)
         break;
   }
}

void WS_(touch_range)(WS_Kind kind, Addr a, SizeT size, Addr ip)
{
   Addr page, last;
   if (size == 0 || !WS_(measuring))
      return;
   last = (a + size - 1) >> WS_(page_shift)();
   if (last < (a >> WS_(page_shift)())    /* wraps the address space */
       || last >= WS_(beyond_user_space)())
      last = WS_(beyond_user_space)() - 1;
   for (page = a >> WS_(page_shift)(); page <= last; page++) {
      WS_(touch_page)(kind, page, ip, page == a >> WS_(page_shift)()
                                      ? a : page << WS_(page_shift)());
      if (page == last)
         break;
   }
}

/*------------------------------------------------------------*/
/*--- What is in the window                                ---*/
/*------------------------------------------------------------*/

void WS_(current_sizes)(ULong sizes[2])
{
   sizes[WS_Insn] = windows[WS_Insn].size;
   sizes[WS_Data] = windows[WS_Data].size;
}

void WS_(current_line_sizes)(ULong sizes[2])
{
   if (!WS_(lines_apart)()) {
      WS_(current_sizes)(sizes);
      if (!WS_(lines_on)())
         sizes[WS_Insn] = sizes[WS_Data] = 0;
      return;
   }
   sizes[WS_Insn] = line_windows[WS_Insn].size;
   sizes[WS_Data] = line_windows[WS_Data].size;
}

Stamp WS_(window_first_stamp)(void)
{
   return window_first;
}

void WS_(region_open)(void)
{
   WS_(region_pages)[WS_Insn] = WS_(region_pages)[WS_Data] = 0;
   WS_(region_lines)[WS_Insn] = WS_(region_lines)[WS_Data] = 0;
   WS_(region_first) = WS_(cur_stamp);
}

void WS_(region_close)(void)
{
   WS_(region_first) = 0;
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
      WS_(win_init)(&windows[kind], window_first);
      if (WS_(lines_apart)()) {
         WS_(pt_init_at)(&WS_(line_tables)[kind], False, line_l1[kind],
                         WS_(line_shift)());
         WS_(win_init)(&line_windows[kind], window_first);
      }
   }
}

/*--------------------------------------------------------------------*/
/*--- end                                               ws_window.c ---*/
/*--------------------------------------------------------------------*/

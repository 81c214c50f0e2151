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

/* With lines inline (at most 64 a page), a page's lines touched in the
   latest epoch any of them was are a mask beside that epoch, and their
   own stamps in the line table are written only when they leave the
   mask: a page that touches the same lines epoch after epoch moves them
   in the window by a count, without reading or writing a line's stamp
   (on xz, reading them was a cache miss per 16 lines, 11 % of the
   run).  A line's stamp is its mark's epoch if its bit is set, else its
   slot's. */
typedef struct {
   Stamp epoch;
   UInt  unused;
   ULong mask;
} LineMark;
static WS_PageTable line_marks[2];

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
   if (WS_(heard)(WS_EvTouched)) {
      WS_Event ev = { .what = WS_EvTouched, .kind = kind, .page = page,
                      .stamp = old };
      WS_(tell)(&ev);
   }
   WS_(win_set)(&windows[kind], old & WS_STAMP_MASK, WS_(cur_stamp));
   WS_(pt_stamp)(&WS_(tables)[kind], slot, page, WS_(cur_stamp));
   if (kind == WS_Insn)
      WS_(code_slot_stamp)(page, WS_(cur_stamp));
   if (WS_(clo).per_thread)
      WS_(thread_touch)(VG_(get_running_tid)(), kind, page, old);
}

/* The lines of the bits of |lines| whose stamps are |slots| (up to 64,
   from the first) move to the current epoch: the window once for each
   run of lines that had the same stamp. */
static void touch_lines_of(WS_Kind kind, Stamp* slots, ULong lines)
{
   Stamp now = WS_(cur_stamp), run_old = WS_STAMP_NEVER;
   UInt  run = 0, fresh = 0, region = 0;
   for (; lines != 0; lines &= lines - 1) {
      Stamp* slot = &slots[__builtin_ctzll(lines)];
      Stamp  old  = *slot;
      if (old == now)
         continue;
      *slot = now;
      fresh += old == WS_STAMP_NEVER || (old & WS_STAMP_DEAD);
      region += (old & WS_STAMP_MASK) < WS_(region_first)
                || (old & WS_STAMP_DEAD);
      if ((old & WS_STAMP_MASK) != run_old) {
         if (run != 0)
            WS_(win_move)(&line_windows[kind], run_old, now, run);
         run_old = old & WS_STAMP_MASK;
         run = 0;
      }
      run++;
   }
   if (run != 0)
      WS_(win_move)(&line_windows[kind], run_old, now, run);
   WS_(stats).total_lines[kind] += fresh;
   WS_(region_lines)[kind] += region;
}

static Stamp* line_slots(WS_Kind kind, Addr page)
{
   return WS_(pt_slot)(&WS_(line_tables)[kind], page << WS_(lpp_shift)());
}

/* The lines of |m| get their stamps in the line table. */
static void unmark(WS_Kind kind, Addr page, LineMark* m)
{
   ULong  bits;
   Stamp* slots;
   if (m->mask == 0)
      return;
   slots = line_slots(kind, page);
   for (bits = m->mask; bits != 0; bits &= bits - 1)
      slots[__builtin_ctzll(bits)] = m->epoch;
   m->mask = 0;
}

void WS_(touch_lines)(WS_Kind kind, Addr page, ULong lines)
{
   LineMark* m = WS_(pt_record)(&line_marks[kind], page);
   Stamp     now = WS_(cur_stamp);
   ULong     carried, others;
   if (m->epoch == now) {
      others = lines & ~m->mask;
      if (others != 0)
         touch_lines_of(kind, line_slots(kind, page), others);
      m->mask |= lines;
      return;
   }
   /* lines in the mask have their stamp there; the others' are in the
      table, where the mask's lines that are not touched now go */
   carried = lines & m->mask;
   others = lines & ~m->mask;
   m->mask &= ~lines;
   unmark(kind, page, m);
   if (carried != 0) {
      UInt n = (UInt)__builtin_popcountll(carried);
      WS_(win_move)(&line_windows[kind], m->epoch, now, n);
      if (m->epoch < WS_(region_first))
         WS_(region_lines)[kind] += n;
   }
   if (others != 0)
      touch_lines_of(kind, line_slots(kind, page), others);
   m->epoch = now;
   m->mask = lines;
}

void WS_(touch_line)(WS_Kind kind, Addr line)
{
   if (WS_(lines_inline)())
      WS_(touch_lines)(kind, line >> WS_(lpp_shift)(),
                       1ULL << (line & ((1u << WS_(lpp_shift)()) - 1)));
   else
      touch_lines_of(kind, WS_(pt_slot)(&WS_(line_tables)[kind], line), 1);
}

static void unmark_slot(Stamp* slot, Addr page, void* kind)
{
   unmark((WS_Kind)(HWord)kind, page, (LineMark*)slot);
}

void WS_(lines_unmapping)(WS_Kind kind, Addr first, Addr last)
{
   if (WS_(lines_inline)())
      WS_(pt_for_range)(&line_marks[kind], first, last, unmark_slot,
                        (void*)(HWord)kind);
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
         if (WS_(lines_inline)())
            WS_(pt_init_records)(&line_marks[kind], sizeof(LineMark));
         WS_(win_init)(&line_windows[kind], window_first);
      }
   }
}

/*--------------------------------------------------------------------*/
/*--- end                                               ws_window.c ---*/
/*--------------------------------------------------------------------*/

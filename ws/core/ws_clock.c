/*--------------------------------------------------------------------*/
/*--- ws: the clock and the epochs.                    ws_clock.c ---*/
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

/* Owns time: the instruction clock and the guest state's shadow area
   through which the IR counts it down, the millisecond timer of
   --ws-time-unit=ms, the epochs (their stamps and when each began) and
   the first epoch of the next sample's window, which tells a
   working-set miss.

   Time is cut into epochs, each with a stamp (1, 2, 3, ...).  A new
   epoch begins at the first superblock boundary at or after every
   window start k*T - tau (ws_sampler.c plans them), so that the window
   of the sample taken at the first boundary at or after k*T is exactly
   "the epochs that began at or after k*T - tau".  Each page remembers
   the stamp of the epoch of its latest access; the inline check in the
   instrumented code compares that with the current stamp and calls
   the slow path (ws_dtlb.c) only when they differ, i.e. at most once
   per page per epoch. */

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_threadstate.h"

#include "ws_core.h"

Stamp WS_(cur_stamp) = 1;

/* The clock: instructions executed so far.  Outside translations it
   is |clock|.  While thread |clock_thread| runs them, the IR counts
   the instructions left before |next_event| down in that thread's
   shadow area (WS_SHADOW_LEFT; Valgrind runs one thread at a time),
   where an offset off the guest state pointer reaches it in one
   instruction; |clock| is brought up to date when the thread stops.
   The countdown is a signed word (ws_core.h) and runs out at
   |countdown_end|: at |next_event|, or earlier when that is more than
   WS_COUNTDOWN_MAX away (on x86), where the boundary finds nothing due
   and plans the next again. */
static ULong    clock        = 0;
static ULong    next_event   = 0;     /* clock value of the next boundary */
static ULong    countdown_end = 0;
static ThreadId clock_thread = VG_INVALID_THREADID;

/* While measurement is off the clock stands still at |frozen_at|.
   Code instrumented while on may go on running then (ws_sampler.c,
   "Starting and stopping"): it counts on in the shadow area, and
   those instructions are not time. */
static Bool     frozen       = False;
static ULong    frozen_at;

static ULong clock_now(void)
{
   Word left;
   if (clock_thread == VG_INVALID_THREADID)
      return clock;
   VG_(get_shadow_regs_area)(clock_thread, (UChar*)&left, 1,
                             WS_SHADOW_LEFT, sizeof left);
   return countdown_end - left;
}

/* Tells the running thread's IR the current stamp (none while every
   access is observed: ws_core.h), or the clock and the stamp (and the
   zero its code-slot addresses are added to). */
static void stamp_to_shadow(void)
{
   ULong stamp = WS_(observing) ? WS_OBSERVE_STAMP : WS_(cur_stamp);
   if (clock_thread != VG_INVALID_THREADID)
      VG_(set_shadow_regs_area)(clock_thread, 1, WS_SHADOW_STAMP,
                                sizeof stamp, (const UChar*)&stamp);
}

static void clock_to_shadow(ULong now)
{
   Word  left;
   ULong zero = 0;
   if (clock_thread == VG_INVALID_THREADID)
      return;
   /* (an event already past leaves a countdown at or below 0) */
   countdown_end = next_event > now
                   && next_event - now > (ULong)WS_COUNTDOWN_MAX
                   ? now + WS_COUNTDOWN_MAX : next_event;
   left = (Word)(countdown_end - now);
   VG_(set_shadow_regs_area)(clock_thread, 1, WS_SHADOW_LEFT, sizeof left,
                             (const UChar*)&left);
   VG_(set_shadow_regs_area)(clock_thread, 1, WS_SHADOW_ZERO, sizeof zero,
                             (const UChar*)&zero);
   stamp_to_shadow();
}

void WS_(clock_to_thread)(ThreadId tid)
{
   clock_thread = tid;
   clock_to_shadow(clock);
}

void WS_(clock_from_thread)(ThreadId tid)
{
   tl_assert(tid == clock_thread);
   clock = clock_now();
   clock_thread = VG_INVALID_THREADID;
}

ULong WS_(clock_insns)(void)
{
   return frozen ? frozen_at : clock_now();
}

ULong WS_(clock_at_countdown)(Word left)
{
   return frozen ? frozen_at : countdown_end - left;
}

void WS_(clock_next_event)(ULong at)
{
   ULong now = clock_now();
   next_event = at;
   clock_to_shadow(now);
}

Bool WS_(clock_due)(void)
{
   return clock_now() >= next_event;
}

/* Far enough that the countdown never runs out while off. */
#define WS_NEVER (1ULL << 62)

void WS_(clock_freeze)(void)
{
   ULong now = clock_now();
   if (!frozen)
      frozen_at = now;
   frozen = True;
   next_event = now + WS_NEVER;
   clock_to_shadow(now);
}

void WS_(clock_thaw)(void)
{
   if (!frozen)
      return;
   frozen = False;
   clock = frozen_at;
   clock_to_shadow(frozen_at);
}

/*------------------------------------------------------------*/
/*--- The millisecond timer                                ---*/
/*------------------------------------------------------------*/

static UInt  ms_origin;             /* timer value at start-up */
static UInt  ms_paused;             /* ms spent with measurement off */
static UInt  ms_stopped_at;         /* timer value at the last stop */
/* In ms mode a stop or a start happens at one instant: while one is
   being done (a final sample, events, discarding translations) the
   clock reads ms_stopped_at, so that its events, the reply and the
   time the clock stands at while off all agree. */
static Bool  ms_held;
/* The clock never reads less than this: a sample took the millisecond
   after the one before it (WS_(clock_not_before)). */
static ULong ms_floor;

ULong WS_(now)(void)
{
   if (WS_(clo).time_unit == WS_TimeMillis) {
      UInt  timer = WS_(measuring) && !ms_held
                    ? VG_(read_millisecond_timer)() : ms_stopped_at;
      ULong t = timer - ms_origin - ms_paused;
      return t > ms_floor ? t : ms_floor;
   }
   return WS_(clock_insns)();
}

void WS_(clock_not_before)(ULong t)
{
   if (t > ms_floor)
      ms_floor = t;
}

void WS_(clock_hold_start)(void)
{
   UInt timer = VG_(read_millisecond_timer)();
   ms_paused += timer - ms_stopped_at;
   ms_stopped_at = timer;
   ms_held = True;
}

void WS_(clock_hold_stop)(void)
{
   ms_stopped_at = VG_(read_millisecond_timer)();
   ms_held = True;
}

void WS_(clock_release)(void)
{
   ms_held = False;
}

/*------------------------------------------------------------*/
/*--- Epochs                                               ---*/
/*------------------------------------------------------------*/

#define WS_INITIAL_STAMP_RING 16

/* When each epoch still in the window began, in time units: a ring
   like the windows', indexed by stamp, from the window's first. */
static ULong* stamp_time     = NULL;
static UInt   stamp_time_cap = 0;

static void set_stamp_time(Stamp s, ULong t)
{
   Stamp first = WS_(window_first_stamp)();
   if (s - first >= stamp_time_cap) {
      UInt   new_cap = stamp_time_cap ? stamp_time_cap
                                      : WS_INITIAL_STAMP_RING;
      ULong* ring;
      Stamp  i;
      while (s - first >= new_cap)
         new_cap *= 2;
      ring = VG_(calloc)("ws.stamp_time", new_cap, sizeof(ULong));
      for (i = first; i < s && stamp_time_cap > 0; i++)
         ring[i & (new_cap - 1)] = stamp_time[i & (stamp_time_cap - 1)];
      if (stamp_time)
         VG_(free)(stamp_time);
      stamp_time = ring;
      stamp_time_cap = new_cap;
   }
   stamp_time[s & (stamp_time_cap - 1)] = t;
}

ULong WS_(stamp_time)(Stamp s)
{
   return stamp_time[s & (stamp_time_cap - 1)];
}

/* A working-set miss is an access that brings a page into the window
   of the next sample: the page's previous stamp is older than that
   window's first epoch, WS_(miss_first) (no epoch of it has begun yet:
   WS_STAMP_MASK).  With tau = T every page of every sample's working
   set was brought in by exactly one miss.  touch_page (ws_window.c)
   tells them. */
Stamp        WS_(miss_first) = WS_STAMP_MASK;
static ULong miss_bound = 0;         /* the next window starts here */
ULong        WS_(rising)[2];         /* misses since the next sample's
                                        window was planned or began */

void WS_(new_stamp)(void)
{
   if (WS_(cur_stamp) == WS_STAMP_MASK - 1) {
      /* 2^31 epochs: at the default T that is 10^14 instructions. */
      VG_(umsg)("ws: epoch counter exhausted; later accesses are counted "
                "in the last epoch\n");
      return;
   }
   /* The lines the IR flagged in the epoch that ends are its own. */
   WS_(settle_lines)();
   WS_(cur_stamp)++;
   stamp_to_shadow();
   set_stamp_time(WS_(cur_stamp), WS_(now)());
   if (WS_(miss_first) == WS_STAMP_MASK && WS_(now)() >= miss_bound) {
      WS_(miss_first) = WS_(cur_stamp);
      WS_(rising)[WS_Insn] = WS_(rising)[WS_Data] = 0;
   }
   if (WS_(heard)(WS_EvEpoch)) {
      WS_Event ev = { .what = WS_EvEpoch, .stamp = WS_(cur_stamp),
                      .t = WS_(stamp_time)(WS_(cur_stamp)) };
      WS_(tell)(&ev);
   }
   WS_(dtlb_empty)();
}

/* From a boundary (or before the program runs), as an epoch's start
   empties the TLB: the entries filled from now on trap, or no longer
   do, and so do the code checks (ws_core.h). */
void WS_(observe_all)(Bool on)
{
   WS_(observing) = on;
   WS_(dtlb_flush)();
   stamp_to_shadow();
}

void WS_(plan_miss_window)(ULong from)
{
   Stamp s;
   miss_bound = from;
   WS_(miss_first) = WS_STAMP_MASK;
   WS_(rising)[WS_Insn] = WS_(rising)[WS_Data] = 0;
   for (s = WS_(window_first_stamp)(); s <= WS_(cur_stamp); s++)
      if (WS_(stamp_time)(s) >= miss_bound) {
         WS_(miss_first) = s;
         break;
      }
}

ULong WS_(stamp_start_time)(Stamp s)
{
   return s >= WS_(window_first_stamp)() && s <= WS_(cur_stamp)
          ? WS_(stamp_time)(s) : 0;
}

void WS_(clock_init)(void)
{
   ms_origin = VG_(read_millisecond_timer)();
   if (!WS_(measuring))
      ms_stopped_at = ms_origin;
   set_stamp_time(WS_(cur_stamp), 0);
}

/*--------------------------------------------------------------------*/
/*--- end                                                ws_clock.c ---*/
/*--------------------------------------------------------------------*/

/*--------------------------------------------------------------------*/
/*--- ws: samples, and starting and stopping.      ws_sampler.c ---*/
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


/* Owns the samples and the schedule: when the next sample is due and
   when the next epoch must begin (the window starts k*T - tau), the
   boundary handler the IR calls when the clock reaches either, the
   ring of recent samples ("ws series"), the run-wide statistics, and
   the changes that reschedule: T and tau set, measurement started and
   stopped, with its final sample, and the open region they bracket.
   Time itself is ws_clock.c's, the windows' contents ws_window.c's.
   It writes nothing: each sample, start and stop is told (ws_core.h,
   "Events"), and the output layer writes the lines. */

#include "pub_tool_basics.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_transtab.h"

#include "ws_core.h"

WS_Stats     WS_(stats);
WS_Counters  WS_(counters);
Bool         WS_(measuring) = True;

/* In ms mode the IR cannot see the wall clock, so the boundary
   handler runs every this many instructions to look at it. */
#define WS_MS_POLL_INSNS  20000

/* T and tau (ws_core.h): the options' values, changed only by
   WS_(set_every) and WS_(set_tau); tau is 0 until start-up makes it T
   when it was not given. */
static ULong every = 100000;
static ULong tau = 0;
static Bool  started = False;       /* sampler_init has run */

ULong WS_(every)(void)
{
   return every;
}

ULong WS_(tau)(void)
{
   return tau;
}

static ULong next_sample_k;         /* next sample at k*T */
static ULong next_window_j;         /* next epoch at j*T - tau */

/* The last samples, for "ws series" (WS_SERIES_LEN of them). */
static WS_Sample series[WS_SERIES_LEN];
static ULong     series_count = 0;   /* samples ever put in the ring */

/*------------------------------------------------------------*/
/*--- Samples                                              ---*/
/*------------------------------------------------------------*/

static void remember_sample(ULong t, const ULong sizes[2],
                            const ULong lines[2])
{
   WS_Sample* r = &series[series_count % WS_SERIES_LEN];
   r->t = t;
   r->insn = sizes[WS_Insn];
   r->data = sizes[WS_Data];
   r->insn_lines = lines[WS_Insn];
   r->data_lines = lines[WS_Data];
   series_count++;
}

/* The last sample, if any: its time, and the instruction count then.
   A final sample with no instruction executed since would repeat it (in
   ms mode the time moves on all the same, say from the last thread's
   exit to ws_fini), also across a stop and a start with none between
   them (monitor commands while the program waits). */
static Bool  sampled = False;
static ULong last_sample_t;
static ULong last_sample_insns;

/* Counts and tells the sample at |t| over the current window; a final
   sample is marked as one, with its window's length.

   Sample times increase strictly, in both time units.  In instructions
   a sample comes after an instruction, or is not taken.  In ms mode a
   final sample (a stop, the end) may fall in the millisecond of the
   sample before it, all the more as time off does not count: a region
   shorter than a millisecond begins and ends in one.  Such a sample is
   dated the next millisecond, and the clock reads at least that from
   then on, so that nothing after it is dated before it: the clock moves
   on by a millisecond at least at every sample (docs/manual.md,
   section 1, "Time"). */
ULong WS_(sample_seq) = 0;

/* |t|, or the time just after the last sample when |t| is not later. */
static ULong after_last_sample(ULong t)
{
   if (sampled && t <= last_sample_t) {
      t = last_sample_t + 1;
      WS_(clock_not_before)(t);
   }
   return t;
}

static void record_sample(ULong t, Bool final, ULong window)
{
   WS_Event ev = { .what = WS_EvSample, .final = final,
                   .window = window };
   Int kind;
   ev.t = after_last_sample(t);
   WS_(current_sizes)(ev.sizes);
   WS_(settle_lines)();
   WS_(current_line_sizes)(ev.lines);
   WS_(sample_seq)++;
   WS_(stats).samples++;
   for (kind = 0; kind < 2; kind++) {
      ULong size = ev.sizes[kind], lines = ev.lines[kind];
      WS_(stats).sum[kind] += size;
      if (size > WS_(stats).peak[kind])
         WS_(stats).peak[kind] = size;
      WS_(stats).line_sum[kind] += lines;
      if (lines > WS_(stats).line_peak[kind])
         WS_(stats).line_peak[kind] = lines;
   }
   remember_sample(t, ev.sizes, ev.lines);
   last_sample_insns = WS_(clock_insns)();
   last_sample_t = t;
   sampled = True;
   WS_(tell)(&ev);
}

static void take_sample(ULong t, ULong k)
{
   ULong  w = k * every;
   Stamp  first = WS_(window_first_stamp)();

   /* The window is the epochs that began at or after k*T - tau. */
   if (w > tau) {
      w -= tau;
      /* boundary() opened an epoch when the clock passed w.  Only
         right after tau or T changed may none have begun since w;
         the window is then the current epoch alone. */
      while (first < WS_(cur_stamp) && WS_(stamp_time)(first) < w)
         first++;
   }
   WS_(windows_advance)(first);
   record_sample(t, False, tau);
}

/* WS_(sampler_call_at)'s. */
static ULong extra_at = ~0ULL;
static void (*extra_fn)(void) = NULL;

static void schedule_next(void)
{
   ULong at;
   if (WS_(clo).time_unit == WS_TimeMillis) {
      at = WS_(clock_insns)() + WS_MS_POLL_INSNS;
   } else {
      ULong sample_at = next_sample_k * every;
      ULong window_at = next_window_j * every - tau;
      at = sample_at < window_at ? sample_at : window_at;
   }
   WS_(clock_next_event)(extra_at < at ? extra_at : at);
}

/* The next sample's window, whose first touch of a page is a miss,
   begins at its time less tau. */
static void plan_misses(void)
{
   ULong sample_at = next_sample_k * every;
   WS_(plan_miss_window)(sample_at > tau ? sample_at - tau : 0);
}

/* The smallest j >= 1 with j*T - tau > t. */
static ULong first_window_after(ULong t)
{
   return (t + tau) / every + 1;
}

static void boundary(void)
{
   ULong t;

   WS_(counters).boundaries++;
   if (!WS_(measuring)) {
      /* Instrumented code running while off, in a thread whose
         countdown was handed out before the stop. */
      WS_(clock_freeze)();
      return;
   }
   t = WS_(now)();
   if (next_window_j * every - tau <= t) {
      WS_(new_stamp)();
      next_window_j = first_window_after(t);
   }
   if (next_sample_k * every <= t) {
      ULong k = t / every;
      take_sample(t, k);
      next_sample_k = k + 1;
      plan_misses();
   }
   if (extra_at <= WS_(clock_insns)()) {
      extra_at = ~0ULL;
      extra_fn();
   }
   schedule_next();
}

void WS_(sampler_call_at)(ULong at, void (*fn)(void))
{
   extra_at = at;
   extra_fn = fn;
   if (started && WS_(measuring))
      schedule_next();
}

/* The IR's call: once the sample or the epoch is done and the next
   one planned, the program stands between two superblocks with its
   registers in the guest state, where a listener may stop it. */
void WS_(boundary)(void)
{
   boundary();
   if (WS_(heard)(WS_EvSettled)) {
      WS_Event ev = { .what = WS_EvSettled, .t = WS_(now)() };
      WS_(tell)(&ev);
   }
}

ULong WS_(series)(ULong n, WS_Sample* out)
{
   ULong have = series_count < WS_SERIES_LEN ? series_count : WS_SERIES_LEN;
   ULong i;
   if (n > have)
      n = have;
   for (i = 0; i < n; i++)
      out[i] = series[(series_count - n + i) % WS_SERIES_LEN];
   return n;
}

/* Plans the next sample and the next epoch from the current time, for
   start-up and after T, tau or the measuring state changed. */
static void reschedule(void)
{
   ULong t = WS_(now)();
   next_sample_k = t / every + 1;
   next_window_j = first_window_after(t);
   plan_misses();
   schedule_next();
}

/* Steering (a monitor command, a client request) runs between two
   superblocks.  A sample or a window start that came due in the
   superblock that just ended would be taken at the next boundary; a
   change of T, tau or the measuring state must not skip it, so it is
   taken now, at the same time the next boundary would have had. */
static void catch_up(void)
{
   if (WS_(measuring) && WS_(clock_due)())
      boundary();
}

/* T or tau to |value| from now on: a new epoch, so that the windows
   from here are measured against the new value.  Before start-up it is
   the option's value. */
static void set_interval(ULong* param, ULong value)
{
   if (!started) {
      *param = value;
      return;
   }
   catch_up();
   *param = value;
   WS_(new_stamp)();
   if (WS_(measuring))
      reschedule();
}

void WS_(set_every)(ULong value)
{
   set_interval(&every, value);
}

void WS_(set_tau)(ULong value)
{
   set_interval(&tau, value);
}

/* Starting and stopping.  Code runs uninstrumented while measurement
   is off (as callgrind's does while collection is off), at
   --tool=none's speed, and every translation is made again when it
   changes.  That costs milliseconds (the discard, then a translation
   of every superblock the program runs next): a program that toggles
   thousands of times a second (regions around short calls, threads
   that start and stop at will) would do nothing else.  So a stop
   keeps the instrumented code when the previous stop that threw it
   away is less than WS_REPLAIN_MS ago: it runs on while off, its
   helpers and the clock told that nothing counts (the clock frozen,
   the counts made inline while off dropped: ws_dtlb.c,
   ws_codeslots.c), and the next start needs no retranslation either.
   Translations are then thrown away at most twice in WS_REPLAIN_MS
   (once at the stop, once at the start after it), whatever the rate
   of toggling, and a program that stops for long runs uninstrumented
   as before, unless it stopped within WS_REPLAIN_MS of the last such
   stop (it then runs as fast as measured code until the next start).

   Instrumented code may run while off only if it counts nothing
   directly in the pages' records: a code page with no slot left is
   counted there, so once the slots have run out every stop throws
   the translations away. */
#define WS_REPLAIN_MS 100

static Bool plain_code = False;     /* a translation may lack ws's IR */
static Bool replained_ever = False;
static UInt replained_at;           /* ms timer at the last stop that
                                       threw the translations away */

static void retranslate_all(void)
{
   WS_(counters).retranslations++;
   VG_(discard_translations_safely)((Addr)0x1000, ~(SizeT)0xfff, "ws");
}

Bool WS_(instrumenting)(void)
{
   return WS_(measuring) || !plain_code;
}

void WS_(instrumented_plain)(void)
{
   plain_code = True;
}

/* At a stop (measurement just went off): throw the instrumented code
   away, unless toggles come fast (above). */
static void stopped_code(void)
{
   UInt now = VG_(read_millisecond_timer)();
   if (WS_(counters).insn_unslotted == 0 && replained_ever
       && now - replained_at < WS_REPLAIN_MS)
      return;
   replained_ever = True;
   replained_at = now;
   plain_code = True;
   retranslate_all();
}

/* At a start (measurement just went on). */
static void started_code(void)
{
   if (!plain_code)
      return;
   plain_code = False;
   retranslate_all();
}

/* The window of a final sample at |t|: the epochs that began at or
   after t - tau, so that it is (s, t] for the time s the first of them
   began, at most tau long and exact.  When none did (tau < T, between
   two windows) an epoch begins now and the window is empty.  Returns
   its length, t - s. */
static ULong final_window(ULong t)
{
   ULong from  = t > tau ? t - tau : 0;
   Stamp first = WS_(window_first_stamp)();
   while (first <= WS_(cur_stamp) && WS_(stamp_time)(first) < from)
      first++;
   if (first > WS_(cur_stamp)) {
      WS_(new_stamp)();
      first = WS_(cur_stamp);
   }
   WS_(windows_advance)(first);
   /* (an epoch begun just now may be dated a millisecond after |t|) */
   return t > WS_(stamp_time)(first) ? t - WS_(stamp_time)(first) : 0;
}

/* When measurement stops (WS_STOP, "ws stop", exit, a fatal signal),
   the accesses since the last sample would otherwise go unseen: a
   final sample is taken now.  Its window is no longer than the
   others' (docs/manual.md, "Final samples"): ws knows of a page only
   the epoch of its latest access, so the window starts where an epoch
   did, at or after t - tau. */
void WS_(final_sample)(void)
{
   ULong t;
   if (!WS_(measuring))
      return;
   catch_up();
   if (sampled && last_sample_insns == WS_(clock_insns)())
      return;
   t = after_last_sample(WS_(now)());
   record_sample(t, True, final_window(t));
}

/* Tells a start or a stop (|ev|), at the time the clock reads now. */
static void tell_now(WS_Event* ev)
{
   ev->t = WS_(now)();
   WS_(tell)(ev);
}

/* The listeners of a start hear it before the region opens, those of
   a stop before it closes. */
ULong WS_(measure_start)(void)
{
   WS_Event ev = { .what = WS_EvStart, .fresh = True };
   ULong t;
   if (WS_(measuring))
      return WS_(now)();
   /* Discarding the translations made while off is part of the time
      off, and so are the counts that code made inline. */
   started_code();
   WS_(flush_access_counts)();
   WS_(clock_hold_start)();
   WS_(clock_thaw)();
   WS_(measuring) = True;
   /* A fresh window: pages touched before do not count. */
   WS_(new_stamp)();
   WS_(windows_advance)(WS_(cur_stamp));
   reschedule();
   tell_now(&ev);
   WS_(region_open)();
   t = WS_(now)();
   WS_(clock_release)();
   return t;
}

ULong WS_(measure_region_begin)(void)
{
   WS_Event ev = { .what = WS_EvStart, .fresh = False };
   catch_up();
   WS_(new_stamp)();
   tell_now(&ev);
   WS_(region_open)();
   return WS_(now)();
}

ULong WS_(measure_stop)(void)
{
   WS_Event ev = { .what = WS_EvStop, .end = False };
   if (!WS_(measuring))
      return WS_(now)();
   WS_(clock_hold_stop)();
   WS_(final_sample)();
   tell_now(&ev);
   WS_(region_close)();
   /* What was counted inline while on goes to the records now (the TLB
      emptied, which forgets the crossings too): from here on, inline
      counts are dropped. */
   WS_(dtlb_flush)();
   WS_(flush_code_counts)();
   WS_(measuring) = False;
   WS_(clock_freeze)();
   WS_(clock_release)();
   stopped_code();
   return WS_(now)();
}

void WS_(measure_end)(void)
{
   WS_Event ev = { .what = WS_EvStop, .end = True };
   WS_(final_sample)();
   tell_now(&ev);
   WS_(region_close)();
}

void WS_(sampler_init)(void)
{
   if (tau == 0)
      tau = every;
   started = True;
   WS_(clock_init)();
   WS_(windows_init)();
   WS_(dtlb_init)();
   reschedule();
   if (!WS_(measuring)) {
      plain_code = True;
      WS_(clock_freeze)();
   }
}

/* A forked child writes a file of its own, which holds none of the
   parent's samples: its sample statistics (and "ws series") start
   empty.  Windows and totals go on from the parent's, as its address
   space does. */
void WS_(sampler_after_fork)(void)
{
   Int kind;
   WS_(stats).samples = 0;
   for (kind = 0; kind < 2; kind++) {
      WS_(stats).sum[kind] = 0;
      WS_(stats).peak[kind] = 0;
      WS_(stats).line_sum[kind] = 0;
      WS_(stats).line_peak[kind] = 0;
   }
   series_count = 0;
}

void WS_(print_counters)(void)
{
   const WS_Counters* c = &WS_(counters);
   VG_(dmsg)("ws: superblocks instrumented: %'llu\n", c->sbs);
   VG_(dmsg)("ws: checks emitted: %'llu data (%'llu left out), "
             "%'llu code\n", c->data_checks, c->data_elided, c->insn_checks);
   VG_(dmsg)("ws: code pages: %'u in slots, %'llu without (none left)\n",
             WS_(code_slots_used)(), c->insn_unslotted);
   VG_(dmsg)("ws: slow-path calls: %'llu data, %'llu code, "
             "%'llu boundaries\n", c->data_refills, c->insn_restamps,
             c->boundaries);
   VG_(dmsg)("ws: epochs: %u\n", WS_(cur_stamp));
   VG_(dmsg)("ws: translations thrown away at a start or stop: %'llu "
             "times\n", c->retranslations);
}

/*--------------------------------------------------------------------*/
/*--- end                                              ws_sampler.c ---*/
/*--------------------------------------------------------------------*/

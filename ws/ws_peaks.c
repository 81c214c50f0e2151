/*--------------------------------------------------------------------*/
/*--- ws: the online peak detector.                   ws_peaks.c ---*/
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

/* Owns peak detection: which samples stand out, and what is recorded
   about them (the running thread's stack; the data window by owner is
   ws_owners.c's).  It runs once per sample and per kind, after the
   sample is written, and costs a few floating-point operations; it
   keeps no window of samples, only two moving statistics per kind.

   The detector is the valgrind-ws paper's (section 2.2), adapted
   because its formula cannot work as printed; docs/manual.md, "Peaks",
   gives the reasons and the constants.  For each kind, with x the
   sample's size in pages:

     mu, var   exponential moving average and variance of the samples,
               weight a = 2/(window+1) (the plain mean and variance of
               the samples so far while there are fewer than 1/a)
     F         = var/mu, the Fano factor
     c         = 1 - exp(-F/2), in [0, 1)
     E         = g * (c * sigma / 5 + (1 - c) * mu / 10), g = threshold
     flagged   x - mu > E and x - mu >= 16 KiB (4 pages of 4 KiB, at
               least 1 page), once 5 samples have been seen

   A wildly varying working set (F large) is judged by how many
   standard deviations it rises above its mean, a steady one (F small)
   by how far above its mean it rises relative to that mean.  Only
   rises count.  While samples are flagged they enter the statistics
   damped, as mu + (x - mu)/4, so that one huge peak does not blind the
   detector to the next one.

   A run of consecutive flagged samples is one peak.  It is recorded
   when its first sample is flagged, with the stack of the thread
   running at that moment, and recorded again (same number, new size,
   time and stack) whenever a later sample of the run is at least 1/16
   larger than the peak so far.  So a peak ends within 1/16 of the
   largest sample of its run, each record made online, at the sample it describes, with the stack
   of that moment.  Each record is an "event t peak n kind size stack"
   line right after its sample; the last one of a number is the peak
   (docs/output-format.md, "Peaks"). */

#include "pub_tool_basics.h"
#include "pub_tool_execontext.h"
#include "pub_tool_gdbserver.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_xarray.h"

#include "ws_global.h"

/* The detector's constants (docs/manual.md, "Peaks"). */
#define WS_PEAK_WARMUP      5     /* samples before anything is flagged */
#define WS_PEAK_MIN_RISE    16384 /* bytes above the mean, at least */
#define WS_PEAK_SIGMA_UNIT  5.0   /* threshold g: g/5 standard deviations */
#define WS_PEAK_MEAN_UNIT   10.0  /*  ... or g/10 of the mean */
#define WS_PEAK_DAMPING     0.25  /* weight of a flagged sample's rise */

/*------------------------------------------------------------*/
/*--- Arithmetic (a tool has no libm)                      ---*/
/*------------------------------------------------------------*/

/* The square root of |x| >= 0: Newton's iteration from above, which
   decreases monotonically to the root; it stops when it no longer
   decreases (within an ulp). */
static Double square_root(Double x)
{
   Double r = x > 1.0 ? x : 1.0;
   Int    i;
   if (x <= 0.0)
      return 0.0;
   for (i = 0; i < 2000; i++) {
      Double next = 0.5 * (r + x / r);
      if (next >= r)
         break;
      r = next;
   }
   return r;
}

/* exp(-y) for y >= 0, to about 1e-12 relative: halve y until it is at
   most 1/2, sum the Taylor series there, square back.  Beyond 700 the
   result is below the smallest Double anyway. */
static Double exp_minus(Double y)
{
   Double term = 1.0, sum = 1.0;
   Int    halvings = 0, i;
   if (y > 700.0)
      return 0.0;
   while (y > 0.5) {
      y /= 2.0;
      halvings++;
   }
   for (i = 1; i <= 16; i++) {
      term *= -y / i;
      sum += term;
   }
   for (i = 0; i < halvings; i++)
      sum *= sum;
   return sum;
}

/*------------------------------------------------------------*/
/*--- Peaks                                                ---*/
/*------------------------------------------------------------*/

typedef struct {
   ULong       t;        /* the sample the peak is at */
   ULong       size;     /* its size in pages */
   ExeContext* stack;    /* the running thread's stack then */
   WS_Kind     kind;
} Peak;

/* Every peak so far, numbered by position (the n of its events). */
static XArray* peaks = NULL;

/* The detector's state for one kind. */
typedef struct {
   Double mean;          /* moving average of the (damped) samples */
   Double var;           /* moving variance */
   ULong  seen;          /* samples so far */
   Bool   in_peak;       /* the last sample was flagged */
   Word   peak;          /* then: the index of its peak in |peaks| */
} Detector;

static Detector detectors[2];

ULong WS_(peaks_count)(void)
{
   return peaks ? VG_(sizeXA)(peaks) : 0;
}

/* Whether |x| stands out from what |d| has seen. */
static Bool stands_out(const Detector* d, Double x)
{
   Double rise = x - d->mean, fano, c, limit;
   ULong  min_rise = WS_PEAK_MIN_RISE >> WS_(page_shift);
   if (d->seen < WS_PEAK_WARMUP || rise < (Double)(min_rise ? min_rise : 1))
      return False;
   /* No mean yet (nothing was touched): only the spread can judge. */
   fano = d->mean > 0.0 ? d->var / d->mean : 1.0e9;
   c = 1.0 - exp_minus(fano / 2.0);
   limit = (Double)WS_(clo_peak_thresh)
           * (c * square_root(d->var) / WS_PEAK_SIGMA_UNIT
              + (1.0 - c) * d->mean / WS_PEAK_MEAN_UNIT);
   return rise > limit;
}

static void learn(Detector* d, Double x)
{
   Double alpha = 2.0 / ((Double)WS_(clo_peak_window) + 1.0);
   Double delta;
   d->seen++;
   /* Until there are 1/alpha samples, the plain mean and variance of
      those seen: the first sample alone (start-up) must not weigh as
      much as the many the average would otherwise assume. */
   if (alpha < 1.0 / (Double)d->seen)
      alpha = 1.0 / (Double)d->seen;
   delta = x - d->mean;
   d->mean += alpha * delta;
   d->var = (1.0 - alpha) * (d->var + alpha * delta * delta);
}

/* Writes peak |n|'s event (and its stack, the first time), then the
   data window broken down by owner, into the output file, at its sample's time (in ms mode the clock may have
   moved on since the sample was taken). */
static void write_peak(Word n)
{
   const Peak* p = VG_(indexXA)(peaks, n);
   UInt stack_id = WS_(out_stack)(p->stack);
   WS_(out_printf)("event %llu peak %ld %s %llu %u", p->t, n,
                   WS_(kind_name)(p->kind), p->size, stack_id);
   WS_(out_end_line)();
   WS_(out_breakdown)(n);
}

static void record(Peak* p, WS_Kind kind, ULong t, ULong size)
{
   p->t = t;
   p->size = size;
   p->kind = kind;
   p->stack = VG_(record_ExeContext)(VG_(get_running_tid)(), 0);
}

static void detect(WS_Kind kind, ULong t, ULong size)
{
   Detector* d = &detectors[kind];
   Double    x = (Double)size;
   Bool      flagged = stands_out(d, x);

   if (flagged && !d->in_peak) {
      Peak fresh;
      record(&fresh, kind, t, size);
      if (peaks == NULL)
         peaks = VG_(newXA)(VG_(malloc), "ws.peaks", VG_(free), sizeof(Peak));
      d->peak = VG_(addToXA)(peaks, &fresh);
      write_peak(d->peak);
   } else if (flagged) {
      Peak* p = VG_(indexXA)(peaks, d->peak);
      /* Only a clear rise moves the record: the samples that straddle
         the end of a spike hold the spike's pages and the next phase's,
         so they are often a little larger, while the stack then is the
         next phase's. */
      if (size >= p->size + (p->size + 15) / 16) {
         record(p, kind, t, size);
         write_peak(d->peak);
      }
   }
   d->in_peak = flagged;
   learn(d, flagged ? d->mean + WS_PEAK_DAMPING * (x - d->mean) : x);
}

void WS_(peaks_sample)(ULong t, ULong insn, ULong data)
{
   if (!WS_(clo_peak_detect))
      return;
   detect(WS_Insn, t, insn);
   detect(WS_Data, t, data);
}

/* The child's file numbers its peaks from 0 and counts only its own;
   the detector's statistics go on, as the working set does (the
   child's windows hold the parent's pages).  A peak the parent was in
   is not the child's: the child's next flagged sample begins one. */
void WS_(peaks_after_fork)(void)
{
   Int kind;
   if (peaks != NULL)
      VG_(deleteXA)(peaks);
   peaks = NULL;
   for (kind = 0; kind < 2; kind++)
      detectors[kind].in_peak = False;
}

void WS_(set_peak_thresh)(ULong thresh)
{
   WS_(clo_peak_thresh) = thresh;
   WS_(out_event)("set peak-thresh %llu", thresh);
}

void WS_(peaks_trailer)(void)
{
   WS_(out_printf)("peaks %llu", WS_(peaks_count)());
   WS_(out_end_line)();
}

/*------------------------------------------------------------*/
/*--- "ws peaks"                                           ---*/
/*------------------------------------------------------------*/

/* Peaks with the same stack are shown together, once per stack, in
   the order of each stack's first peak. */
static Int by_stack(const void* a, const void* b)
{
   const Peak* p = *(const Peak* const*)a;
   const Peak* q = *(const Peak* const*)b;
   UInt ep = VG_(get_ECU_from_ExeContext)(p->stack);
   UInt eq = VG_(get_ECU_from_ExeContext)(q->stack);
   if (ep != eq)
      return ep < eq ? -1 : 1;
   return p < q ? -1 : p > q ? 1 : 0;
}

static Int by_first_peak(const void* a, const void* b)
{
   const Peak* const* p = *(const Peak* const* const*)a;
   const Peak* const* q = *(const Peak* const* const*)b;
   return *p < *q ? -1 : *p > *q ? 1 : 0;
}

/* At most this many times are listed for one stack. */
#define WS_PEAK_TIMES_SHOWN 10

/* "3 peaks (data 512..514 pages) at t=..., ...:" and the stack, for
   the |n| peaks at |group| (pointers into |peaks|, in order). */
static void show_group(const Peak* const* group, Word n)
{
   Word  i;
   Int   kind;
   const Peak* first = VG_(indexXA)(peaks, 0);
   const HChar* sep = "";
   VG_(gdb_printf)("  %ld peak%s (", n, n == 1 ? "" : "s");
   for (kind = 0; kind < 2; kind++) {
      ULong lo = ~0ULL, hi = 0;
      Word  of_kind = 0;
      for (i = 0; i < n; i++)
         if (group[i]->kind == kind) {
            of_kind++;
            if (group[i]->size < lo) lo = group[i]->size;
            if (group[i]->size > hi) hi = group[i]->size;
         }
      if (of_kind == 0)
         continue;
      if (lo == hi)
         VG_(gdb_printf)("%s%s %llu page%s", sep, WS_(kind_name)(kind),
                         lo, lo == 1 ? "" : "s");
      else
         VG_(gdb_printf)("%s%s %llu..%llu pages", sep, WS_(kind_name)(kind),
                         lo, hi);
      sep = ", ";
   }
   VG_(gdb_printf)(") at");
   for (i = 0; i < n && i < WS_PEAK_TIMES_SHOWN; i++)
      VG_(gdb_printf)("%s t=%llu (#%ld %s)", i ? "," : "", group[i]->t,
                      (Word)(group[i] - first),
                      WS_(kind_name)(group[i]->kind));
   if (n > WS_PEAK_TIMES_SHOWN)
      VG_(gdb_printf)(" and %ld more", n - WS_PEAK_TIMES_SHOWN);
   VG_(gdb_printf)(":\n");
   WS_(monitor_stack)(group[0]->stack, "    ");
}

void WS_(peaks_to_monitor)(void)
{
   Word n = (Word)WS_(peaks_count)(), i, start, groups = 0;
   const Peak** order;
   const Peak*** heads;
   if (!WS_(clo_peak_detect)) {
      VG_(gdb_printf)("ws peaks: peak detection is off "
                      "(--ws-peak-detect=no)\n");
      return;
   }
   VG_(gdb_printf)("ws peaks at t=%llu: %ld peak%s\n", WS_(now)(), n,
                   n == 1 ? "" : "s");
   VG_(gdb_printf)("  (detector: window %llu samples, threshold %llu; "
                   "#n is the peak's number in the output file)\n",
                   WS_(clo_peak_window), WS_(clo_peak_thresh));
   if (n == 0)
      return;
   order = VG_(malloc)("ws.peaks.order", n * sizeof *order);
   heads = VG_(malloc)("ws.peaks.heads", n * sizeof *heads);
   for (i = 0; i < n; i++)
      order[i] = VG_(indexXA)(peaks, i);
   VG_(ssort)(order, n, sizeof *order, by_stack);
   for (start = 0; start < n; start = i) {
      for (i = start; i < n && order[i]->stack == order[start]->stack; i++)
         ;
      heads[groups++] = &order[start];
   }
   VG_(ssort)(heads, groups, sizeof *heads, by_first_peak);
   for (i = 0; i < groups; i++) {
      const Peak* const* g = heads[i];
      Word len = 1;
      while (g + len < order + n && g[len]->stack == g[0]->stack)
         len++;
      show_group(g, len);
   }
   VG_(free)(heads);
   VG_(free)(order);
}

/*--------------------------------------------------------------------*/
/*--- end                                                ws_peaks.c ---*/
/*--------------------------------------------------------------------*/

/*--------------------------------------------------------------------*/
/*--- ws: peaks: the detector, the largest samples, what   ws_peaks.c ---*/
/*--- is kept and reported.                                            ---*/
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

/* Owns the peaks (docs/manual.md, "Peaks"): which samples are
   reported as peaks, and what is recorded about them (a call stack,
   the window's pages by owner).  It runs once per sample and per kind.

   The detector is the valgrind-ws paper's (section 2.2), adapted
   because its formula cannot work as printed; docs/manual.md gives the
   reasons and the constants.  For each kind, with x the sample's size
   in pages:

     mu, var   exponential moving average and variance of the samples,
               weight a = 2/(window+1) (the plain mean and variance of
               the samples so far while there are fewer than 1/a)
     F         = var/mu, the Fano factor
     c         = 1 - exp(-F/2), in [0, 1)
     E         = g * (c * sigma / 5 + (1 - c) * mu / 10), g = threshold
     flagged   x - mu > E and x - mu >= 16 KiB (4 pages of 4 KiB, at
               least 1 page), once 5 samples have been seen

   Only rises count.  Flagged samples enter the statistics damped, as
   mu + (x - mu)/4.  A run of consecutive flagged samples is one
   detected peak, recorded at its first sample and again at each later
   sample of the run at least 1/16 larger than its record so far.

   What is reported, per kind: the largest sample of the run and of
   each named region (always), and the detected peaks that stand out
   most (prominence: size minus the mean it was compared with), up to
   --ws-peaks in all.  So the detector may flag thousands of samples of
   a real program and the report still holds a few, the largest first
   among them.  Only a record that may be reported gets a stack and a
   breakdown; a ramp of ever larger samples costs a list of pages per
   sample, not a breakdown (see "Breakdowns").

   The stack of a peak is where its window rose: while the window of
   the next sample fills, the core tells WS_EvRose (WS_(notify_rise))
   each time the window has grown by a step more than at the last sample
   (the first step a quarter of the mean, at least the minimum rise;
   each next step twice the last), and the stack of the access that
   crossed it is kept.  The last one kept when the sample is taken is
   where at least half of the interval's growth had come in: inside a
   burst, a memset, a container's copy, however long after it the
   sample is taken.  A sample whose window grew less than one step has
   the stack of the moment it was taken. */

#include "pub_tool_basics.h"
#include "pub_tool_execontext.h"
#include "pub_tool_gdbserver.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_xarray.h"

#include "ws_analyses.h"

/* The detector's constants (docs/manual.md, "Peaks"). */
#define WS_PEAK_WARMUP      5     /* samples before anything is flagged */
#define WS_PEAK_MIN_RISE    16384 /* bytes above the mean, at least */
#define WS_PEAK_SIGMA_UNIT  5.0   /* threshold g: g/5 standard deviations */
#define WS_PEAK_MEAN_UNIT   10.0  /*  ... or g/10 of the mean */
#define WS_PEAK_DAMPING     0.25  /* weight of a flagged sample's rise */
#define WS_PEAK_MOVE_DIV    16    /* a record moves at 1/16 larger */
#define WS_RISE_FIRST_DIV   4     /* the first rise step: mean / 4 */

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
/*--- Peak records                                         ---*/
/*------------------------------------------------------------*/

/* A sample that is, or may end up, reported as a peak of one kind.
   Its roles say why; it is freed when it has none left. */
typedef struct {
   WS_Kind       kind;
   ULong         t;
   ULong         seq;          /* the sample's WS_(sample_seq) */
   ULong         size;
   Double        baseline;     /* the mean the detector compared it with */
   ExeContext*   stack;        /* where the window rose, or at the sample */
   Bool          from_rise;
   Bool          detected;     /* in its kind's list of detected peaks */
   Bool          largest;      /* the largest sample of the run */
   Bool          open_region;  /* the largest of the open region */
   UInt          n_labels;     /* named regions whose largest it is */
   XArray*       pending;      /* its window's pages until its breakdown */
   WS_Breakdown* owners;
} PeakRec;

/* Per kind: the detector, the records, where the window rises. */
typedef struct {
   Double      mean;         /* moving average of the (damped) samples */
   Double      var;          /* moving variance */
   ULong       seen;         /* samples so far */
   Bool        in_peak;      /* the last sample was flagged */
   ULong       run_size;     /* the open run's record's size */
   PeakRec*    run_rec;      /* that record, while it is listed */
   ULong       found;        /* runs flagged */
   XArray*     listed;       /* PeakRec*: the most prominent detected
                                peaks, most prominent first, at most
                                --ws-peaks */
   PeakRec*    largest;
   PeakRec*    open_largest;
   ULong       rise_step;    /* pages coming in to the next mark */
   ExeContext* rise_stack;
   WS_PeakSample last;       /* what the last sample was to the detector */
} KindState;

static KindState kinds[2];

/* The detector's threshold g (--ws-peak-thresh), changed only through
   the control API's table of parameters. */
static ULong peak_thresh = 5;

/* For --stats=yes. */
static struct {
   ULong rises;            /* stacks taken where a window rose */
   ULong records;          /* peak records made (a window's page list) */
   ULong breakdowns;       /* of those, broken down by owner */
} stats;

/* Records made at the last sample, whose breakdown is due at the next
   one (or when measurement stops). */
static XArray* pending_recs = NULL;

/* The largest samples of named regions, in the order the names first
   closed. */
typedef struct {
   HChar*   label;
   PeakRec* rec[2];
} RegionPeaks;
static XArray* region_peaks = NULL;

static Bool unused(const PeakRec* r)
{
   return !r->detected && !r->largest && !r->open_region && r->n_labels == 0;
}

static void rec_free(PeakRec* r)
{
   if (r->pending)
      VG_(deleteXA)(r->pending);
   if (r->owners)
      WS_(breakdown_free)(r->owners);
   VG_(free)(r);
}

/* After a role of |r| is dropped.  A record whose breakdown is due is
   freed by the sweep that would have made it. */
static void release(PeakRec* r)
{
   if (r != NULL && unused(r) && r->pending == NULL)
      rec_free(r);
}

/* The roles a kind's record can be kept in besides its list. */
typedef enum { Role_Largest, Role_OpenRegion } Role;

static Bool* role_flag(PeakRec* r, Role role)
{
   return role == Role_Largest ? &r->largest : &r->open_region;
}

/* The record a kind keeps in |*slot| for |role| becomes |r| (NULL:
   none); the one before loses the role. */
static void hold(PeakRec** slot, Role role, PeakRec* r)
{
   if (*slot != NULL) {
      *role_flag(*slot, role) = False;
      release(*slot);
   }
   *slot = r;
   if (r != NULL)
      *role_flag(r, role) = True;
}

static Double prominence(const PeakRec* r)
{
   return (Double)r->size - r->baseline;
}

/* Whether |a| stands out more than |b|: by pages above its baseline,
   then relative to it, then the earlier sample (then insn first). */
static Bool more_prominent(const PeakRec* a, const PeakRec* b)
{
   Double pa = prominence(a), pb = prominence(b), ra, rb;
   if (pa != pb)
      return pa > pb;
   ra = pa / (a->baseline > 1.0 ? a->baseline : 1.0);
   rb = pb / (b->baseline > 1.0 ? b->baseline : 1.0);
   if (ra != rb)
      return ra > rb;
   if (a->t != b->t)
      return a->t < b->t;
   return a->kind < b->kind;
}

static void unlist(KindState* k, PeakRec* r)
{
   Word i, n = VG_(sizeXA)(k->listed);
   for (i = 0; i < n; i++)
      if (*(PeakRec**)VG_(indexXA)(k->listed, i) == r) {
         VG_(removeIndexXA)(k->listed, i);
         break;
      }
   r->detected = False;
   if (k->run_rec == r)
      k->run_rec = NULL;
   release(r);
}

/* Whether a detected peak like |probe| would be listed. */
static Bool would_list(const KindState* k, const PeakRec* probe)
{
   Word n = VG_(sizeXA)(k->listed);
   return n < (Word)WS_(clo).peaks
          || more_prominent(probe, *(PeakRec**)VG_(indexXA)(k->listed, n - 1));
}

static void list(KindState* k, PeakRec* r)
{
   Word i, n = VG_(sizeXA)(k->listed);
   for (i = 0; i < n; i++)
      if (more_prominent(r, *(PeakRec**)VG_(indexXA)(k->listed, i)))
         break;
   VG_(insertIndexXA)(k->listed, i, &r);
   r->detected = True;
   if (n + 1 > (Word)WS_(clo).peaks)
      unlist(k, *(PeakRec**)VG_(indexXA)(k->listed, n));
}

/*------------------------------------------------------------*/
/*--- The detector                                         ---*/
/*------------------------------------------------------------*/

static ULong min_rise_pages(void)
{
   ULong pages = WS_PEAK_MIN_RISE >> WS_(page_shift)();
   return pages ? pages : 1;
}

/* How far above the mean a sample must rise to stand out. */
static Double limit(const KindState* k)
{
   /* No mean yet (nothing was touched): only the spread can judge. */
   Double fano = k->mean > 0.0 ? k->var / k->mean : 1.0e9;
   Double c = 1.0 - exp_minus(fano / 2.0);
   return (Double)peak_thresh
          * (c * square_root(k->var) / WS_PEAK_SIGMA_UNIT
             + (1.0 - c) * k->mean / WS_PEAK_MEAN_UNIT);
}

/* Whether |x| stands out from what |k| has seen. */
static Bool stands_out(const KindState* k, Double x)
{
   Double rise = x - k->mean;
   if (k->seen < WS_PEAK_WARMUP || rise < (Double)min_rise_pages())
      return False;
   return rise > limit(k);
}

static void learn(KindState* k, Double x)
{
   Double alpha = 2.0 / ((Double)WS_(clo).peak_window + 1.0);
   Double delta;
   k->seen++;
   /* Until there are 1/alpha samples, the plain mean and variance of
      those seen: the first sample alone (start-up) must not weigh as
      much as the many the average would otherwise assume. */
   if (alpha < 1.0 / (Double)k->seen)
      alpha = 1.0 / (Double)k->seen;
   delta = x - k->mean;
   k->mean += alpha * delta;
   k->var = (1.0 - alpha) * (k->var + alpha * delta * delta);
}

/*------------------------------------------------------------*/
/*--- Where the window rises                               ---*/
/*------------------------------------------------------------*/

/* The smallest sample of |kind| that would be reported as things
   stand: flagged by the detector, or larger than the largest sample
   (of the run, or of the open region).  A window smaller than that
   needs no stack. */
static ULong candidate_size(WS_Kind kind)
{
   const KindState* k = &kinds[kind];
   Word   listed = VG_(sizeXA)(k->listed);
   Double flagged = k->mean + limit(k);
   ULong  least = k->largest ? k->largest->size + 1 : 0;
   if (flagged < k->mean + (Double)min_rise_pages())
      flagged = k->mean + (Double)min_rise_pages();
   /* with --ws-peaks listed, only one more prominent than the last */
   if (listed >= (Word)WS_(clo).peaks) {
      const PeakRec* last = *(PeakRec**)VG_(indexXA)(k->listed, listed - 1);
      if (flagged < k->mean + prominence(last))
         flagged = k->mean + prominence(last);
   }
   if (k->seen >= WS_PEAK_WARMUP && flagged < (Double)least)
      least = (ULong)flagged + 1;
   if (WS_(region_first) != 0 && k->open_largest != NULL
       && k->open_largest->size + 1 < least)
      least = k->open_largest->size + 1;
   if (WS_(region_first) != 0 && k->open_largest == NULL)
      least = 0;
   return least;
}

/* After a sample, for the next one's window: the first mark is a step
   of pages coming in (a quarter of the mean, at least the minimum
   rise), and no fewer than a window that could be reported holds;
   each later one doubles it. */
static void rise_from(WS_Kind kind)
{
   KindState* k = &kinds[kind];
   ULong step = (ULong)(k->mean / WS_RISE_FIRST_DIV);
   ULong least = candidate_size(kind);
   if (step < min_rise_pages())
      step = min_rise_pages();
   if (step < least)
      step = least;
   k->rise_step = step;
   k->rise_stack = NULL;
   WS_(notify_rise)(kind, WS_(clo).peak_detect ? step : ~0ULL);
}

static void window_rose(const WS_Event* ev)
{
   KindState* k = &kinds[ev->kind];
   ExeContext* ec = WS_(stack_here)(ev->ip);
   if (ec != NULL)
      k->rise_stack = ec;
   stats.rises++;
   k->rise_step *= 2;
   WS_(notify_rise)(ev->kind, k->rise_step);
}

/*------------------------------------------------------------*/
/*--- Samples                                              ---*/
/*------------------------------------------------------------*/

static PeakRec* new_rec(WS_Kind kind, ULong t, ULong size, Double baseline)
{
   KindState* k = &kinds[kind];
   PeakRec* r = VG_(calloc)("ws.peaks.rec", 1, sizeof *r);
   r->kind = kind;
   r->t = t;
   r->seq = WS_(sample_seq);
   r->size = size;
   r->baseline = baseline;
   r->from_rise = k->rise_stack != NULL;
   r->stack = r->from_rise ? k->rise_stack : WS_(stack_here)(0);
   r->pending = WS_(window_pages)(kind);
   stats.records++;
   return r;
}

/* The sample of |size| pages at |t|: its roles, if any, and the
   detector's statistics.  Returns the record made, or NULL. */
static PeakRec* sample_kind(WS_Kind kind, ULong t, ULong size)
{
   KindState* k = &kinds[kind];
   Double   x = (Double)size;
   Bool     flagged = stands_out(k, x);
   Bool     to_list = False, largest, region;
   PeakRec  probe;
   PeakRec* r = NULL;

   probe.kind = kind;
   probe.t = t;
   probe.size = size;
   probe.baseline = k->mean;
   if (flagged && !k->in_peak) {
      k->found++;
      k->run_size = size;
      k->run_rec = NULL;
      to_list = would_list(k, &probe);
   } else if (flagged
              && size >= k->run_size
                         + (k->run_size + WS_PEAK_MOVE_DIV - 1)
                           / WS_PEAK_MOVE_DIV) {
      /* Only a clear rise moves the record: the samples that straddle
         the end of a spike hold the spike's pages and the next
         phase's, so they are often a little larger. */
      k->run_size = size;
      if (k->run_rec != NULL)
         unlist(k, k->run_rec);
      to_list = would_list(k, &probe);
   }
   largest = k->largest == NULL || size > k->largest->size;
   region = WS_(region_first) != 0
            && (k->open_largest == NULL || size > k->open_largest->size);
   if (to_list || largest || region) {
      r = new_rec(kind, t, size, k->mean);
      if (largest)
         hold(&k->largest, Role_Largest, r);
      if (region)
         hold(&k->open_largest, Role_OpenRegion, r);
      if (to_list) {
         list(k, r);
         k->run_rec = r;
      }
   }
   k->last.flagged = flagged;
   k->last.baseline = k->mean;
   k->last.rise = k->rise_stack;
   k->in_peak = flagged;
   if (!flagged)
      k->run_rec = NULL;
   learn(k, flagged ? k->mean + WS_PEAK_DAMPING * (x - k->mean) : x);
   return r;
}

/* Breaks down the records made at the last sample that still have a
   role, as they were at their own time, and frees the others. */
static void sweep_pending(void)
{
   Word i;
   if (pending_recs == NULL)
      return;
   for (i = 0; i < VG_(sizeXA)(pending_recs); i++) {
      PeakRec* r = *(PeakRec**)VG_(indexXA)(pending_recs, i);
      if (unused(r)) {
         rec_free(r);
         continue;
      }
      r->owners = WS_(breakdown)(r->kind, r->pending, r->seq);
      stats.breakdowns++;
      VG_(deleteXA)(r->pending);
      r->pending = NULL;
   }
   VG_(deleteXA)(pending_recs);
   pending_recs = NULL;
}

static void peaks_sample(const WS_Event* ev)
{
   XArray* made;
   Int kind;
   if (!WS_(clo).peak_detect)
      return;
   made = VG_(newXA)(VG_(malloc), "ws.peaks.pending", VG_(free),
                     sizeof(PeakRec*));
   for (kind = 0; kind < 2; kind++) {
      PeakRec* r = sample_kind(kind, ev->t, ev->sizes[kind]);
      if (r != NULL)
         VG_(addToXA)(made, &r);
   }
   sweep_pending();
   pending_recs = made;
   rise_from(WS_Insn);
   rise_from(WS_Data);
   if (ev->final)
      sweep_pending();
}

/* A fresh window: the marks start from its first sample's. */
static void peaks_started(const WS_Event* ev)
{
   if (!ev->fresh)
      return;
   rise_from(WS_Insn);
   rise_from(WS_Data);
}

void WS_(peak_last_sample)(WS_Kind kind, WS_PeakSample* out)
{
   *out = kinds[kind].last;
}

/* The records of the final sample are broken down now. */
static void peaks_stopped(const WS_Event* ev)
{
   sweep_pending();
}

void WS_(peaks_region_closed)(const HChar* label)
{
   RegionPeaks* rp = NULL;
   Word i;
   Int kind;
   if (label != NULL) {
      if (region_peaks == NULL)
         region_peaks = VG_(newXA)(VG_(malloc), "ws.peaks.regions",
                                   VG_(free), sizeof(RegionPeaks));
      for (i = 0; i < VG_(sizeXA)(region_peaks) && rp == NULL; i++) {
         RegionPeaks* q = VG_(indexXA)(region_peaks, i);
         if (VG_STREQ(q->label, label))
            rp = q;
      }
      if (rp == NULL) {
         RegionPeaks fresh;
         fresh.label = VG_(strdup)("ws.peaks.label", label);
         fresh.rec[0] = fresh.rec[1] = NULL;
         VG_(addToXA)(region_peaks, &fresh);
         rp = VG_(indexXA)(region_peaks, VG_(sizeXA)(region_peaks) - 1);
      }
   }
   for (kind = 0; kind < 2; kind++) {
      KindState* k = &kinds[kind];
      PeakRec* r = k->open_largest;
      if (r == NULL)
         continue;
      k->open_largest = NULL;
      r->open_region = False;
      if (rp != NULL && (rp->rec[kind] == NULL
                         || r->size > rp->rec[kind]->size)) {
         if (rp->rec[kind] != NULL) {
            rp->rec[kind]->n_labels--;
            release(rp->rec[kind]);
         }
         rp->rec[kind] = r;
         r->n_labels++;
      }
      release(r);
   }
}

/* The child's file holds only its own peaks; the detector's statistics
   go on, as the working set does.  A peak the parent was in is not the
   child's: the child's next flagged sample begins one. */
void WS_(peaks_after_fork)(void)
{
   Int kind;
   Word i;
   for (kind = 0; kind < 2; kind++) {
      KindState* k = &kinds[kind];
      while (k->listed != NULL && VG_(sizeXA)(k->listed) > 0)
         unlist(k, *(PeakRec**)VG_(indexXA)(k->listed, 0));
      hold(&k->largest, Role_Largest, NULL);
      hold(&k->open_largest, Role_OpenRegion, NULL);
      k->in_peak = False;
      k->run_rec = NULL;
      k->found = 0;
   }
   for (i = 0; region_peaks != NULL && i < VG_(sizeXA)(region_peaks); i++) {
      RegionPeaks* rp = VG_(indexXA)(region_peaks, i);
      for (kind = 0; kind < 2; kind++)
         if (rp->rec[kind] != NULL) {
            rp->rec[kind]->n_labels--;
            release(rp->rec[kind]);
         }
      VG_(free)(rp->label);
   }
   if (region_peaks != NULL)
      VG_(deleteXA)(region_peaks);
   region_peaks = NULL;
   sweep_pending();
}

ULong WS_(peak_thresh)(void)
{
   return peak_thresh;
}

void WS_(set_peak_thresh)(ULong thresh)
{
   peak_thresh = thresh;
}

void WS_(peaks_init)(void)
{
   Int kind;
   for (kind = 0; kind < 2; kind++) {
      kinds[kind].listed = VG_(newXA)(VG_(malloc), "ws.peaks.listed",
                                      VG_(free), sizeof(PeakRec*));
      rise_from(kind);
   }
   WS_(listen)(WS_EvSample, peaks_sample);
   WS_(listen)(WS_EvStart, peaks_started);
   WS_(listen)(WS_EvStop, peaks_stopped);
   WS_(listen)(WS_EvRose, window_rose);
}

void WS_(peaks_print_stats)(void)
{
   VG_(dmsg)("ws: stacks taken where a window rose: %'llu\n", stats.rises);
   VG_(dmsg)("ws: peak records: %'llu, broken down by owner: %'llu\n",
             stats.records, stats.breakdowns);
}

/*------------------------------------------------------------*/
/*--- What is reported                                     ---*/
/*------------------------------------------------------------*/

static void add_once(XArray* out, PeakRec* r)
{
   Word i;
   if (r == NULL)
      return;
   for (i = 0; i < VG_(sizeXA)(out); i++)
      if (*(PeakRec**)VG_(indexXA)(out, i) == r)
         return;
   VG_(addToXA)(out, &r);
}

static Int cmp_prominence(const void* a, const void* b)
{
   const PeakRec* p = *(const PeakRec* const*)a;
   const PeakRec* q = *(const PeakRec* const*)b;
   return p == q ? 0 : more_prominent(p, q) ? -1 : 1;
}

/* The peaks of |kind| reported as things stand, most prominent first:
   the largest samples (of the run, of each named region and of the
   open one), then the listed detected peaks while there are fewer
   than --ws-peaks. */
static XArray* reported(WS_Kind kind)
{
   KindState* k = &kinds[kind];
   XArray* out = VG_(newXA)(VG_(malloc), "ws.peaks.reported", VG_(free),
                            sizeof(PeakRec*));
   Word i;
   add_once(out, k->largest);
   add_once(out, k->open_largest);
   for (i = 0; region_peaks != NULL && i < VG_(sizeXA)(region_peaks); i++)
      add_once(out, ((RegionPeaks*)VG_(indexXA)(region_peaks, i))->rec[kind]);
   for (i = 0; i < VG_(sizeXA)(k->listed)
               && VG_(sizeXA)(out) < (Word)WS_(clo).peaks; i++)
      add_once(out, *(PeakRec**)VG_(indexXA)(k->listed, i));
   if (VG_(sizeXA)(out) > 1)    /* (a run with no sample has none) */
      VG_(ssort)(VG_(indexXA)(out, 0), VG_(sizeXA)(out), sizeof(PeakRec*),
                 cmp_prominence);
   return out;
}

ULong WS_(peaks_count)(void)
{
   ULong n = 0;
   Int kind;
   if (!WS_(clo).peak_detect)
      return 0;
   for (kind = 0; kind < 2; kind++) {
      XArray* r = reported(kind);
      n += VG_(sizeXA)(r);
      VG_(deleteXA)(r);
   }
   return n;
}

ULong WS_(peaks_found)(void)
{
   return kinds[WS_Insn].found + kinds[WS_Data].found;
}

void WS_(peaks_summary)(void)
{
   VG_(umsg)("Peaks: %llu (the detector found %llu)\n", WS_(peaks_count)(),
             WS_(peaks_found)());
}

/* "largest,region,detected": why |r| is reported. */
static const HChar* why(const PeakRec* r)
{
   static HChar buf[40];
   buf[0] = '\0';
   if (r->largest)
      VG_(strcat)(buf, ",largest");
   if (r->n_labels > 0 || r->open_region)
      VG_(strcat)(buf, ",region");
   if (r->detected)
      VG_(strcat)(buf, ",detected");
   return buf + 1;
}

static ULong rounded(Double x)
{
   return x <= 0.0 ? 0 : (ULong)(x + 0.5);
}

static void write_peak(ULong n, const PeakRec* r)
{
   UInt  stack_id = r->stack ? WS_(out_stack)(r->stack) : 0;
   Int   own = r->stack ? WS_(own_level)(r->stack) : -1;
   Word  i;
   if (r->owners != NULL)       /* their stacks first */
      for (i = 0; i < r->owners->n; i++)
         if (WS_(owner_stack)(&r->owners->lines[i].owner) != NULL)
            WS_(out_stack)(WS_(owner_stack)(&r->owners->lines[i].owner));
   WS_(out_printf)("peak %llu %s %llu %llu %llu %s %s %u ", n,
                   WS_(kind_name)(r->kind), r->t, r->size, rounded(r->baseline),
                   why(r), r->from_rise ? "rise" : "sample", stack_id);
   if (own >= 0)
      WS_(out_printf)("%d", own);
   else
      WS_(out_printf)("-");
   WS_(out_end_line)();
   for (i = 0; region_peaks != NULL && i < VG_(sizeXA)(region_peaks); i++) {
      const RegionPeaks* rp = VG_(indexXA)(region_peaks, i);
      if (rp->rec[r->kind] == r) {
         WS_(out_printf)("peak-region %llu ", n);
         WS_(out_text)(rp->label);
         WS_(out_end_line)();
      }
   }
   if (r->owners != NULL)
      WS_(write_breakdown)(WS_(out_stacks)(), n, r->owners);
}

void WS_(peaks_trailer)(void)
{
   ULong n = 0;
   Int kind;
   Word i;
   if (WS_(clo).peak_detect) {
      sweep_pending();
      for (kind = 0; kind < 2; kind++) {
         XArray* r = reported(kind);
         for (i = 0; i < VG_(sizeXA)(r); i++)
            write_peak(n++, *(PeakRec**)VG_(indexXA)(r, i));
         VG_(deleteXA)(r);
      }
   }
   WS_(out_printf)("peaks %llu found %llu", n, WS_(peaks_found)());
   WS_(out_end_line)();
}

/*------------------------------------------------------------*/
/*--- "ws peaks"                                           ---*/
/*------------------------------------------------------------*/

static void show_peak(WS_File* f, ULong rank, ULong of, const PeakRec* r)
{
   Double prom = prominence(r);
   ULong  base = rounded(r->baseline);
   WS_(file_printf)(f, "  %s peak %llu of %llu: %llu page%s at t=%llu, %llu "
                    "above a baseline of %llu (%s)\n",
                    WS_(kind_name)(r->kind), rank, of, r->size,
                    r->size == 1 ? "" : "s", r->t, rounded(prom), base,
                    why(r));
   if (r->stack != NULL) {
      WS_(file_printf)(f, "    %s:\n", r->from_rise
                       ? "the working set rose here"
                       : "the program was here when the sample was taken");
      WS_(show_stack)(f, r->stack, "      ", WS_(own_level)(r->stack));
   }
   if (r->owners != NULL) {
      WS_(file_printf)(f, "    by owner:\n");
      WS_(show_breakdown)(f, r->owners, r->size, "      ");
   } else {
      WS_(file_printf)(f, "    by owner: known at the next sample\n");
   }
}

void WS_(show_peaks)(WS_File* f)
{
   Int kind;
   Word i;
   if (!WS_(clo).peak_detect) {
      WS_(file_printf)(f, "ws peaks: peak detection is off "
                       "(--ws-peak-detect=no)\n");
      return;
   }
   WS_(file_printf)(f, "ws peaks at t=%llu: %llu peak%s (the detector "
                    "found %llu)\n", WS_(now)(), WS_(peaks_count)(),
                    WS_(peaks_count)() == 1 ? "" : "s", WS_(peaks_found)());
   WS_(file_printf)(f, "  (of each kind the largest sample and the most "
                    "prominent, at most %llu; detector: window %llu "
                    "samples, threshold %llu)\n", WS_(clo).peaks,
                    WS_(clo).peak_window, peak_thresh);
   for (kind = 0; kind < 2; kind++) {
      XArray* r = reported(kind);
      for (i = 0; i < VG_(sizeXA)(r); i++)
         show_peak(f, i + 1, VG_(sizeXA)(r),
                   *(PeakRec**)VG_(indexXA)(r, i));
      VG_(deleteXA)(r);
   }
}

/*--------------------------------------------------------------------*/
/*--- end                                                ws_peaks.c ---*/
/*--------------------------------------------------------------------*/

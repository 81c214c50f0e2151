/*--------------------------------------------------------------------*/
/*--- ws: summaries of named measured regions.        ws_regions.c ---*/
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

/* Owns the regions: a region runs from a start of measurement
   (WS_START, "ws start") to the next stop; the most recent mark
   (WS_MARK, "ws mark") at the time it stops names it.  Regions with
   the same name are summed into one summary: average and peak over
   their samples, and the total of pages each of them touched.  A
   region that no mark names gets no summary.

   The distinct pages a region touches are counted without a scan: a
   region begins a new epoch, stamps only grow, so a page is new to
   the region exactly when its stamp is older than that epoch (see
   touch_page in ws_window.c). */

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_xarray.h"

#include "ws_analyses.h"

typedef struct {
   HChar* label;
   ULong  regions;     /* how many regions had this name */
   ULong  samples;
   WS_SizeSums z;      /* pages and lines */
} Region;

static XArray* regions = NULL;        /* of Region, in order of first close */
static HChar*  last_mark = NULL;      /* label of the most recent mark */
static Region  open_region;           /* what the open region saw so far */

void WS_(region_mark)(const HChar* label)
{
   if (last_mark)
      VG_(free)(last_mark);
   last_mark = VG_(strdup)("ws.region.label", label);
}

const HChar* WS_(region_label)(void)
{
   return last_mark;
}

/* A region opens with the start. */
static void region_started(const WS_Event* ev)
{
   VG_(memset)(&open_region, 0, sizeof open_region);
}

static void region_sample(const WS_Event* ev)
{
   Int kind;
   if (WS_(region_first) == 0)
      return;
   open_region.samples++;
   for (kind = 0; kind < 2; kind++) {
      WS_SizeSums* z = &open_region.z;
      z->sum[kind] += ev->sizes[kind];
      if (ev->sizes[kind] > z->peak[kind])
         z->peak[kind] = ev->sizes[kind];
      z->line_sum[kind] += ev->lines[kind];
      if (ev->lines[kind] > z->line_peak[kind])
         z->line_peak[kind] = ev->lines[kind];
   }
}

static Region* region_named(const HChar* label)
{
   Word i;
   Region fresh;
   if (regions == NULL)
      regions = VG_(newXA)(VG_(malloc), "ws.regions", VG_(free),
                           sizeof(Region));
   for (i = 0; i < VG_(sizeXA)(regions); i++) {
      Region* r = VG_(indexXA)(regions, i);
      if (VG_STREQ(r->label, label))
         return r;
   }
   VG_(memset)(&fresh, 0, sizeof fresh);
   fresh.label = VG_(strdup)("ws.region.label", label);
   VG_(addToXA)(regions, &fresh);
   return VG_(indexXA)(regions, VG_(sizeXA)(regions) - 1);
}

/* The open region closes with the stop (the core closes it after). */
static void region_stopped(const WS_Event* ev)
{
   Region* r;
   Int kind;
   if (WS_(region_first) == 0)
      return;
   WS_(peaks_region_closed)(last_mark);
   if (last_mark == NULL)
      return;
   r = region_named(last_mark);
   r->regions++;
   r->samples += open_region.samples;
   for (kind = 0; kind < 2; kind++) {
      const WS_SizeSums* o = &open_region.z;
      r->z.sum[kind] += o->sum[kind];
      if (o->peak[kind] > r->z.peak[kind])
         r->z.peak[kind] = o->peak[kind];
      r->z.total[kind] += WS_(region_pages)[kind];
      r->z.line_sum[kind] += o->line_sum[kind];
      if (o->line_peak[kind] > r->z.line_peak[kind])
         r->z.line_peak[kind] = o->line_peak[kind];
      r->z.line_total[kind] += WS_(total_lines)(WS_(region_lines),
                                                WS_(region_pages), kind);
   }
}

void WS_(regions_init)(void)
{
   WS_(listen)(WS_EvSample, region_sample);
   WS_(listen)(WS_EvStart, region_started);
   WS_(listen)(WS_EvStop, region_stopped);
}

/* A forked child's file holds none of the parent's samples, so the
   regions it reports are its own: those closed before the fork are
   forgotten, and an open one goes on (with its name and the pages it
   touched so far, as the window does) without the parent's samples. */
void WS_(regions_after_fork)(void)
{
   Word i;
   if (regions != NULL) {
      for (i = 0; i < VG_(sizeXA)(regions); i++)
         VG_(free)(((Region*)VG_(indexXA)(regions, i))->label);
      VG_(deleteXA)(regions);
      regions = NULL;
   }
   open_region.samples = 0;
   VG_(memset)(&open_region.z, 0, sizeof open_region.z);
}

/* The trailer's "region" lines and the summary's, one per name, in
   the order the names first closed. */
void WS_(regions_trailer)(void)
{
   Word i;
   Int  kind;
   HChar avg[32];
   for (i = 0; regions != NULL && i < VG_(sizeXA)(regions); i++) {
      const Region* r = VG_(indexXA)(regions, i);
      WS_(out_printf)("region %llu %llu", r->regions, r->samples);
      for (kind = 0; kind < 2; kind++) {
         WS_(format_avg)(avg, r->z.sum[kind], r->samples);
         WS_(out_printf)(" %s %s %llu %llu", WS_(kind_name)(kind), avg,
                         r->z.peak[kind], r->z.total[kind]);
      }
      for (kind = 0; WS_(lines_on)() && kind < 2; kind++) {
         WS_(format_avg)(avg, r->z.line_sum[kind], r->samples);
         WS_(out_printf)(" %s-lines %s %llu %llu", WS_(kind_name)(kind),
                         avg, r->z.line_peak[kind], r->z.line_total[kind]);
      }
      WS_(out_printf)(" label ");
      WS_(out_text)(r->label);
      WS_(out_end_line)();
   }
}

void WS_(regions_summary)(void)
{
   Word i;
   for (i = 0; regions != NULL && i < VG_(sizeXA)(regions); i++) {
      const Region* r = VG_(indexXA)(regions, i);
      VG_(umsg)("Region '%s' (%llu region%s, %llu sample%s):\n", r->label,
                r->regions, r->regions == 1 ? "" : "s",
                r->samples, r->samples == 1 ? "" : "s");
      WS_(print_sizes)("  ", &r->z, r->samples);
   }
}

/*--------------------------------------------------------------------*/
/*--- end                                              ws_regions.c ---*/
/*--------------------------------------------------------------------*/

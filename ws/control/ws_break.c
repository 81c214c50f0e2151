/*--------------------------------------------------------------------*/
/*--- ws: stopping in gdb where the working set jumps. ws_break.c ---*/
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

/* Owns the break conditions (--ws-break, "ws break"): data>=N,
   insn>=N, rise>=N and peak, numbered as they are added.  Each is
   looked at every sample but a final one (the samples' listener, after
   the peaks'), and fires when it is true there and was not at the
   sample before; a fired break writes "event t break n cond" to the
   output file.  The program is then stopped in gdb once the boundary
   handler is done (WS_EvSettled: the next sample planned, the program
   between two superblocks with its registers in the guest state), the
   way the core stops at an error for --vgdb-error: VG_(gdbserver) with
   the running thread, after a report on Valgrind's log (why, where the
   window rose, its largest owners, how to attach).  Nothing here runs
   on the hot path: a sample and a boundary's end, each a call and a
   test when no break is set.  docs/design.md, "Stopping at a spike",
   says why this way. */

#include "pub_tool_basics.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_execontext.h"
#include "pub_tool_gdbserver.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_options.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_xarray.h"

#include "ws_control.h"

typedef enum { Cond_Data, Cond_Insn, Cond_Rise, Cond_Peak } CondKind;

static const HChar* const cond_names[] = { "data>=", "insn>=", "rise>=",
                                           "peak" };

typedef struct {
   UInt     n;          /* its number; 0: the slot is free */
   CondKind kind;
   ULong    pages;      /* N */
   Bool     was_true;   /* at the last sample */
} Break;

static Break breaks[WS_MAX_BREAKS];
static UInt  next_number = 1;
static Bool  started = False;       /* breaks_init has run */

/* The last sample's data working set since measurement (re)started, for
   rise>=N (0 before the first). */
static ULong last_data = 0;

/* A break that fired at the last sample, until the program is stopped
   for it. */
static struct {
   Bool     due;
   Break    b;
   ULong    t, size, rise;
   ULong    t_before, entries_before;   /* at the sample before */
} fired;

/* The last sample's time and data entries (WS_(entries)), for the
   look a stop is (WS_(since_mark)). */
static ULong last_t = 0, last_entries = 0;

/*------------------------------------------------------------*/
/*--- Conditions                                           ---*/
/*------------------------------------------------------------*/

static void cond_text(const Break* b, HChar* buf, SizeT size)
{
   if (b->kind == Cond_Peak)
      VG_(snprintf)(buf, size, "peak");
   else
      VG_(snprintf)(buf, size, "%s%llu", cond_names[b->kind], b->pages);
}

/* Whether gdb could ever stop the program: the core's --vgdb is not in
   the public API, so it is read from the options as given (the last
   one wins, as for the core). */
static Bool gdbserver_on(void)
{
   Bool on = True;
   Word i;
   for (i = 0; i < VG_(sizeXA)(VG_(args_for_valgrind)); i++) {
      const HChar* arg = *(HChar**)VG_(indexXA)(VG_(args_for_valgrind), i);
      if (VG_STREQN(7, arg, "--vgdb="))
         on = !VG_STREQ(arg + 7, "no");
   }
   return on;
}

WS_BreakResult WS_(break_add)(const HChar* text, UInt* number)
{
   Break b = { 0 };
   UInt  i, free_slot = WS_MAX_BREAKS;
   for (i = 0; i < WS_MAX_BREAKS; i++)
      if (breaks[i].n == 0 && free_slot == WS_MAX_BREAKS)
         free_slot = i;
   if (text[0] == '\0')
      return WS_Break_Empty;
   if (VG_STREQ(text, "peak")) {
      b.kind = Cond_Peak;
   } else {
      for (b.kind = Cond_Data; b.kind < Cond_Peak; b.kind++)
         if (VG_STREQN(6, text, cond_names[b.kind]))
            break;
      if (b.kind == Cond_Peak)
         return WS_Break_Unknown;
      if (text[6] == '\0')
         return WS_Break_NoNumber;
      if (!WS_(whole_number)(text + 6, 1, WS_BREAK_MAX_PAGES, &b.pages))
         return WS_Break_BadNumber;
   }
   if (free_slot == WS_MAX_BREAKS)
      return WS_Break_TooMany;
   if (!gdbserver_on())
      return WS_Break_NoGdb;
   /* At start-up --ws-peak-detect may come later: checked then. */
   if (b.kind == Cond_Peak && !WS_(clo).peak_detect && started)
      return WS_Break_NoDetector;
   b.n = next_number++;
   breaks[free_slot] = b;
   if (number)
      *number = b.n;
   return WS_Break_OK;
}

Bool WS_(break_needs_detector)(void)
{
   UInt i;
   for (i = 0; i < WS_MAX_BREAKS; i++)
      if (breaks[i].n != 0 && breaks[i].kind == Cond_Peak)
         return True;
   return False;
}

Bool WS_(break_delete)(UInt n)
{
   UInt i;
   for (i = 0; i < WS_MAX_BREAKS; i++)
      if (breaks[i].n == n && n != 0) {
         breaks[i].n = 0;
         return True;
      }
   return False;
}

UInt WS_(break_delete_all)(void)
{
   UInt i, gone = 0;
   for (i = 0; i < WS_MAX_BREAKS; i++)
      if (breaks[i].n != 0) {
         breaks[i].n = 0;
         gone++;
      }
   return gone;
}

UInt WS_(break_list)(WS_File* f)
{
   UInt i, listed = 0;
   HChar text[64];
   for (i = 0; i < WS_MAX_BREAKS; i++)
      if (breaks[i].n != 0) {
         cond_text(&breaks[i], text, sizeof text);
         WS_(file_printf)(f, "  %u  %s\n", breaks[i].n, text);
         listed++;
      }
   return listed;
}

const HChar* WS_(break_why)(WS_BreakResult r)
{
   switch (r) {
   case WS_Break_OK:          return "";
   case WS_Break_Empty:       return "the condition is missing (data>=N, "
                                     "insn>=N, rise>=N or peak)";
   case WS_Break_Unknown:     return "it is no condition (data>=N, "
                                     "insn>=N, rise>=N or peak)";
   case WS_Break_NoNumber:    return "the number of pages is missing";
   case WS_Break_BadNumber:   return "the number of pages is not a whole "
                                     "number from 1 to 2199023255552";
   case WS_Break_TooMany:     return "at most 8 conditions can be set";
   case WS_Break_NoGdb:       return "with --vgdb=no no gdb can stop the "
                                     "program";
   case WS_Break_NoDetector:  return "the peak detector is off "
                                     "(--ws-peak-detect=no)";
   }
   return "?";
}

/*------------------------------------------------------------*/
/*--- At a sample                                          ---*/
/*------------------------------------------------------------*/

static Bool holds(const Break* b, const WS_Event* ev, ULong rise)
{
   WS_PeakSample ps;
   switch (b->kind) {
   case Cond_Data: return ev->sizes[WS_Data] >= b->pages;
   case Cond_Insn: return ev->sizes[WS_Insn] >= b->pages;
   case Cond_Rise: return rise >= b->pages;
   case Cond_Peak:
      WS_(peak_last_sample)(WS_Data, &ps);
      return ps.flagged;
   }
   return False;
}

static void breaks_sample(const WS_Event* ev)
{
   ULong rise = ev->sizes[WS_Data] > last_data
                ? ev->sizes[WS_Data] - last_data : 0;
   UInt  i;
   HChar text[64];
   if (ev->final)
      return;
   for (i = 0; i < WS_MAX_BREAKS; i++) {
      Break* b = &breaks[i];
      Bool   now;
      if (b->n == 0)
         continue;
      now = holds(b, ev, rise);
      if (now && !b->was_true) {
         cond_text(b, text, sizeof text);
         WS_(out_event)("break %u %s", b->n, text);
         if (!fired.due) {
            fired.due = True;
            fired.b = *b;
            fired.t = ev->t;
            fired.size = ev->sizes[b->kind == Cond_Insn ? WS_Insn : WS_Data];
            fired.rise = rise;
            fired.t_before = last_t;
            fired.entries_before = last_entries;
         }
      }
      b->was_true = now;
   }
   last_data = ev->sizes[WS_Data];
   last_t = ev->t;
   last_entries = WS_(entries)[WS_Data];
}

static void breaks_started(const WS_Event* ev)
{
   if (ev->fresh)
      last_data = 0;
}

/*------------------------------------------------------------*/
/*--- The stop                                             ---*/
/*------------------------------------------------------------*/

/* Why, where the window rose, its largest owners and how to attach,
   on Valgrind's log, as the core reports an error before it stops. */
static void report(void)
{
   WS_Kind       kind = fired.b.kind == Cond_Insn ? WS_Insn : WS_Data;
   WS_PeakSample ps;
   XArray*       pages;
   WS_Breakdown* owners;
   HChar         text[64], rise[64] = "", baseline[64] = "";

   WS_(peak_last_sample)(kind, &ps);
   cond_text(&fired.b, text, sizeof text);
   if (fired.b.kind == Cond_Rise)
      VG_(snprintf)(rise, sizeof rise, ", up %llu since the sample before",
                    fired.rise);
   if (WS_(clo).peak_detect)
      VG_(snprintf)(baseline, sizeof baseline, " (baseline %llu)",
                    (ULong)(ps.baseline + 0.5));
   VG_(umsg)("ws: break %u (%s): %s working set %llu pages at t=%llu%s%s\n",
             fired.b.n, text, kind == WS_Insn ? "instruction" : "data",
             fired.size, fired.t, rise, baseline);
   VG_(umsg)("%s\n", ps.rise ? "The window rose here:"
                             : "The sample was taken here:");
   WS_(show_stack)(WS_(log_file)(), ps.rise ? ps.rise : WS_(stack_here)(0),
                   "   ", -1);
   pages = WS_(window_pages)(kind);
   owners = WS_(breakdown)(kind, pages, WS_(sample_seq));
   VG_(umsg)("Largest owners of its %llu pages:\n", fired.size);
   WS_(show_breakdown)(WS_(log_file)(), owners, fired.size, "  ");
   WS_(file_flush)(WS_(log_file)());
   WS_(breakdown_free)(owners);
   VG_(deleteXA)(pages);
   VG_(umsg)("ws: the program is stopped for gdb; to attach one, start\n");
   VG_(umsg)("  gdb %s\n", VG_(args_the_exename));
   VG_(umsg)("and give it\n");
   VG_(umsg)("  target remote | vgdb%s%s --pid=%d\n",
             VG_(arg_vgdb_prefix) ? " " : "",
             VG_(arg_vgdb_prefix) ? VG_(arg_vgdb_prefix) : "",
             VG_(getpid)());
}

static void breaks_settled(const WS_Event* ev)
{
   ThreadId tid;
   HChar    what[48];
   if (!fired.due)
      return;
   fired.due = False;
   tid = VG_(get_running_tid)();
   /* What a user watching the output file sees is there when it stops. */
   WS_(out_flush)();
   report();
   /* "ws since" at the stop says what made the window jump: the stop
      is a look taken at the sample before the one that fired */
   VG_(snprintf)(what, sizeof what, "the sample before break %u",
                 fired.b.n);
   WS_(since_mark)(fired.entries_before, fired.t_before, what);
   VG_(gdbserver)(tid);
   VG_(umsg)("ws: continuing after break %u\n", fired.b.n);
}

void WS_(breaks_init)(void)
{
   started = True;
   WS_(listen)(WS_EvSample, breaks_sample);
   WS_(listen)(WS_EvStart, breaks_started);
   WS_(listen)(WS_EvSettled, breaks_settled);
}

/*--------------------------------------------------------------------*/
/*--- end                                                ws_break.c ---*/
/*--------------------------------------------------------------------*/

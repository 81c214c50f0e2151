/*--------------------------------------------------------------------*/
/*--- ws: the threads alive and the one running.     ws_threads.c ---*/
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

/* Owns the threads as the core sees them: which are alive (the exit of
   the last one takes the final sample), which one runs (with
   --ws-per-thread=yes another one begins an epoch, ws_perthread.c says
   why), and the events of their lives (WS_EvThreadStart,
   WS_EvThreadExit, WS_EvThreadRuns).  Valgrind's hooks call it
   (ws_main.c registers them). */

#include "pub_tool_basics.h"
#include "pub_tool_threadstate.h"

#include "ws_core.h"

static ThreadId running = VG_INVALID_THREADID;

void WS_(threads_init)(void)
{
   if (WS_(clo).per_thread)
      WS_(perthread_init)(WS_(window_first_stamp)());
}

static void tell_thread(WS_EventKind what, ThreadId tid, ThreadId parent)
{
   WS_Event ev = { .what = what, .tid = tid, .parent = parent };
   WS_(tell)(&ev);
}

/* Threads alive, per-thread mode or not: when the last one ends, the
   process does, and the final sample is taken while its columns (and
   its stack) are still there. */
static UInt n_alive = 0;

void WS_(thread_created)(ThreadId parent, ThreadId child)
{
   n_alive++;
   tell_thread(WS_EvThreadStart, child, parent);
   if (WS_(clo).per_thread)
      WS_(perthread_add)(child);
}

void WS_(thread_exited)(ThreadId tid)
{
   if (n_alive == 1)
      WS_(final_sample)();
   if (n_alive > 0)
      n_alive--;
   tell_thread(WS_EvThreadExit, tid, VG_INVALID_THREADID);
   if (WS_(clo).per_thread)
      WS_(perthread_drop)(tid);
}

/* A forked child has only the thread that called fork; Valgrind drops
   the others without telling the tool, so their columns go here (the
   child's file never had them: no thread-exit events).  Pages they
   shared in the window stay shared, as the window itself goes on. */
void WS_(threads_after_fork)(ThreadId tid)
{
   ThreadId t;
   n_alive = 1;
   if (!WS_(clo).per_thread)
      return;
   for (t = 1; t < VG_N_THREADS; t++)
      if (t != tid)
         WS_(perthread_drop)(t);
   running = tid;
}

/* Per-thread mode may begin an epoch as another thread starts, before
   the clock and the stamp pass to the thread. */
void WS_(thread_running)(ThreadId tid)
{
   if (WS_(clo).per_thread && tid != running)
      WS_(new_stamp)();
   running = tid;
   tell_thread(WS_EvThreadRuns, tid, VG_INVALID_THREADID);
   WS_(clock_to_thread)(tid);
}

/*--------------------------------------------------------------------*/
/*--- end                                              ws_threads.c ---*/
/*--------------------------------------------------------------------*/

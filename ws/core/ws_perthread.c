/*--------------------------------------------------------------------*/
/*--- ws: per-thread working sets and shared pages. ws_perthread.c ---*/
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

/* Owns what --ws-per-thread=yes adds: each thread's own working sets
   and the number of data pages in the window touched by more than one
   thread.  All of it runs on the slow path only; which threads live is
   ws_threads.c's.

   The inline check compares a page's stamp with the current epoch, so
   a second thread touching a page the first already touched in this
   epoch would go unseen.  With per-thread columns on, a new epoch
   therefore begins whenever a different thread starts running
   (ws_threads.c): the first touch of each page by each thread in each
   epoch then reaches thread_touch.

   Shared pages: a page is shared in the window if some thread other
   than its latest toucher touched it in the window.  Keeping, per
   page, the latest toucher's id and the stamp of the latest touch by
   any *other* thread is enough: when thread X touches a page last
   touched by Y != X, the latest touch by a thread other than X is
   Y's, i.e. the page's previous stamp; when X touches it again, that
   stamp is unchanged.  A window counter over those "other" stamps
   gives the shared count without a scan. */

#include "pub_tool_basics.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_threadstate.h"

#include "ws_core.h"

typedef struct {
   Bool         live;
   WS_PageTable tables[2];    /* this thread's stamps, sparse */
   WS_Window    windows[2];
} ThreadWS;

static ThreadWS*    threads = NULL;   /* VG_N_THREADS entries */

static WS_PageTable last_toucher;     /* data page -> tid, 0 = none */
static WS_PageTable other_stamp;      /* data page -> stamp, see above */
static WS_Window    shared;           /* counts other_stamp values; its
                                         first epoch is the windows' */

void WS_(perthread_init)(Stamp first)
{
   threads = VG_(calloc)("ws.threads", VG_N_THREADS, sizeof(ThreadWS));
   WS_(pt_init)(&last_toucher, True, NULL);
   WS_(pt_init)(&other_stamp, True, NULL);
   WS_(win_init)(&shared, first);
}

static ThreadWS* thread_state(ThreadId tid)
{
   ThreadWS* t = &threads[tid];
   Int kind;
   if (!t->live) {
      for (kind = 0; kind < 2; kind++) {
         WS_(pt_init)(&t->tables[kind], True, NULL);
         WS_(win_init)(&t->windows[kind], shared.first);
      }
      t->live = True;
   }
   return t;
}

void WS_(perthread_add)(ThreadId tid)
{
   thread_state(tid);
}

void WS_(perthread_drop)(ThreadId tid)
{
   Int kind;
   if (!threads[tid].live)
      return;
   for (kind = 0; kind < 2; kind++) {
      WS_(pt_free)(&threads[tid].tables[kind]);
      WS_(win_free)(&threads[tid].windows[kind]);
   }
   threads[tid].live = False;
}

void WS_(thread_touch)(ThreadId tid, WS_Kind kind, Addr page, Stamp prev)
{
   ThreadWS* t;
   Stamp*    slot;
   if (tid == VG_INVALID_THREADID || tid >= VG_N_THREADS)
      return;
   t = thread_state(tid);
   slot = WS_(pt_slot)(&t->tables[kind], page);
   WS_(win_set)(&t->windows[kind], *slot, WS_(cur_stamp));
   *slot = WS_(cur_stamp);

   if (kind == WS_Data) {
      Stamp* last  = WS_(pt_slot)(&last_toucher, page);
      Stamp* other = WS_(pt_slot)(&other_stamp, page);
      if (*last != WS_STAMP_NEVER && *last != tid) {
         WS_(win_set)(&shared, *other, prev & WS_STAMP_MASK);
         *other = prev & WS_STAMP_MASK;
      }
      *last = tid;
   }
}

void WS_(threads_advance)(Stamp first)
{
   ThreadId tid;
   Int kind;
   for (tid = 1; tid < VG_N_THREADS; tid++) {
      if (!threads[tid].live)
         continue;
      for (kind = 0; kind < 2; kind++)
         WS_(win_advance)(&threads[tid].windows[kind], first);
   }
   WS_(win_advance)(&shared, first);
}

ULong WS_(shared_pages)(void)
{
   return shared.size;
}

Bool WS_(thread_sizes)(ThreadId tid, ULong sizes[2])
{
   if (threads == NULL || !threads[tid].live)
      return False;
   sizes[WS_Insn] = threads[tid].windows[WS_Insn].size;
   sizes[WS_Data] = threads[tid].windows[WS_Data].size;
   return True;
}

/*--------------------------------------------------------------------*/
/*--- end                                            ws_perthread.c ---*/
/*--------------------------------------------------------------------*/

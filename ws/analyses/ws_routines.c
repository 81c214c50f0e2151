/*--------------------------------------------------------------------*/
/*--- ws: per-routine footprint.                     ws_routines.c ---*/
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

/* Owns --ws-routines=yes: for every activation of a routine its cost
   (instructions, callees included), its read memory size (rms) and its
   threaded read memory size (trms, with the thread-induced and the
   syscall-induced parts apart) at cache-line granularity, as the
   aprof-trms paper defines them; per routine the table of input size
   -> count, min, mean, max cost, the fit of max cost against size, the
   trailer's routine records and "ws routines".  The IR that feeds it
   is ws_routines_ir.c's.  The data structures are those of the
   reference model (tests/routine_model.py, WsCompact), which says why
   each is right:

   - a stamp counter |count|, even between events, up by 2 at each call
     and each time another thread starts running; a batch of kernel
     writes takes the odd stamp count + 1;
   - per 64-byte line one 32-bit entry (two levels, as the page
     tables): the stamp of the latest access by the line's owner << 1,
     and W, "the owner wrote it since it became its owner"; the inline
     check stores the current stamp and calls a helper only when the
     entry is below the thread's threshold (ws_routines_ir.c);
   - on the slow path only: each line's owner (a thread serial), each
     thread's side table (its latest access to lines it no longer
     owns), and each line's latest write by a thread that no longer
     owns it or by the kernel (odd);
   - per thread a stack of frames with partial sums (the paper's
     Invariant 2): an activation's rms is its partial plus its pending
     child's, added to its parent's at its return.

   Activations are bounded by the stack pointer, as callgrind's: a call
   pushes a frame holding the stack pointer after it; the first
   superblock that finds the stack pointer above the top frame's pops
   every frame below it (a return, a longjmp, an exception). */

#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_execontext.h"
#include "pub_tool_gdbserver.h"
#include "pub_tool_hashtable.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_vki.h"

#include "ws_analyses.h"

/*------------------------------------------------------------*/
/*--- The line table                                       ---*/
/*------------------------------------------------------------*/

UInt* WS_(rt_lines)[WS_RT_L1_ENTRIES];
/* The chunk of every 1-GiB region nothing was mapped in: only a
   faulting access reaches it. */
static UInt* unmapped_chunk;

static UInt* new_chunk(const HChar* cc)
{
   SizeT bytes = ((SizeT)1 << WS_RT_CHUNK_BITS) * sizeof(UInt);
   UInt* c = VG_(am_shadow_alloc)(bytes);
   if (c == NULL)
      VG_(out_of_memory_NORETURN)(cc, bytes);
   return c;
}

static UInt l1_index(Addr line)
{
   return (UInt)(line >> WS_RT_CHUNK_BITS) & (WS_RT_L1_ENTRIES - 1);
}

static UInt* entry_of(Addr line)
{
   UInt k = l1_index(line);
   if (WS_(rt_lines)[k] == unmapped_chunk)
      WS_(rt_lines)[k] = new_chunk("ws.routines.lines");
   return &WS_(rt_lines)[k][line & ((1u << WS_RT_CHUNK_BITS) - 1)];
}

/* Memory is given its chunks as it is mapped, so that the inline check
   never meets the shared one. */
static void cover(Addr a, SizeT len)
{
   Addr l;
   if (len == 0)
      return;
   for (l = a >> WS_RT_LINE_SHIFT; l <= (a + len - 1) >> WS_RT_LINE_SHIFT;
        l += (Addr)1 << WS_RT_CHUNK_BITS)
      entry_of(l);
   entry_of((a + len - 1) >> WS_RT_LINE_SHIFT);
}

static void new_mem_startup(Addr a, SizeT len, Bool rr, Bool ww, Bool xx,
                            ULong di_handle)
{
   cover(a, len);
}

static void new_mem_brk(Addr a, SizeT len, ThreadId tid)
{
   cover(a, len);
}

static void copy_mem_remap(Addr from, Addr to, SizeT len)
{
   cover(to, len);
}

/* The slow path's tables of 4 bytes per line, in chunks made as they
   are needed: each line's owner (a thread serial, Valgrind reuses
   thread ids; 0 for the first thread, so that the lines it had before a
   second one started need no entry), its latest write by a thread that
   no longer owns it or by the kernel (the kernel's stamps are odd), and
   the owner's stamp that a kernel write set aside (<< 1 | 1; 0: none),
   until the line's next access. */
typedef struct {
   UInt*        chunks[WS_RT_L1_ENTRIES];
   const HChar* cc;
} LineTable;

static LineTable owners = { { NULL }, "ws.routines.owners" };
static LineTable writes = { { NULL }, "ws.routines.writes" };
static LineTable held   = { { NULL }, "ws.routines.held" };

static UInt* slot_in(LineTable* t, Addr line)
{
   UInt k = l1_index(line);
   if (t->chunks[k] == NULL)
      t->chunks[k] = new_chunk(t->cc);
   return &t->chunks[k][line & ((1u << WS_RT_CHUNK_BITS) - 1)];
}

/* The same without making the chunk: NULL if the line has none. */
static UInt* peek(const LineTable* t, Addr line)
{
   UInt* c = t->chunks[l1_index(line)];
   return c ? &c[line & ((1u << WS_RT_CHUNK_BITS) - 1)] : NULL;
}

/* A thread's side table: its latest access to each line it lost. */
typedef struct _LineStamp {
   struct _LineStamp* next;
   UWord              key;     /* the line */
   UInt               stamp;
} LineStamp;

static UInt table_take(VgHashTable* t, Addr line)
{
   LineStamp* s = VG_(HT_remove)(t, line);
   UInt stamp = s ? s->stamp : 0;
   if (s)
      VG_(free)(s);
   return stamp;
}

static void table_put(VgHashTable* t, Addr line, UInt stamp)
{
   LineStamp* s = VG_(HT_lookup)(t, line);
   if (s == NULL) {
      s = VG_(malloc)("ws.routines.stamp", sizeof *s);
      s->key = line;
      VG_(HT_add_node)(t, s);
   }
   s->stamp = stamp;
}

/*------------------------------------------------------------*/
/*--- Routines and their rows                              ---*/
/*------------------------------------------------------------*/

typedef struct _Row {
   struct _Row* next;
   UWord        key;           /* the row's smallest size */
   ULong        count, min, max, sum;
} Row;

typedef struct _Routine {
   struct _Routine* next;
   UWord        key;           /* its entry */
   ULong        calls, cost, rms_max, trms_max, ti, si;
   UInt         pending;       /* activations pending, all threads */
   Addr         got;           /* a PLT stub's: the slot it jumps
                                  through (its calls are activations of
                                  the routine the slot holds); 0 */
   struct _Routine* via;       /* a PLT stub's: the routine its slot
                                  held at its latest call */
   VgHashTable* rows;
   struct _Row* last_row;      /* the row of its latest close: most
                                  routines close with few sizes */
} Routine;

static VgHashTable* routines;
static ULong closed;           /* activations closed */

/* The routines of recent calls by entry, in front of the hash table
   (every call looks its routine up). */
#define CACHE_ENTRIES 4096
static struct { Addr entry; Routine* r; } cache[CACHE_ENTRIES];

static Routine* routine_of(Addr entry)
{
   Routine* r = VG_(HT_lookup)(routines, entry);
   if (r == NULL) {
      r = VG_(calloc)("ws.routines.routine", 1, sizeof *r);
      r->key = entry;
      r->rows = VG_(HT_construct)("ws.routines.rows");
      r->got = WS_(plt_slot)(entry);
      VG_(HT_add_node)(routines, r);
   }
   return r;
}

/* The routine at |entry|, through the cache. */
static Routine* routine_at(Addr entry)
{
   UInt k = (entry >> 2) & (CACHE_ENTRIES - 1);
   if (cache[k].r == NULL || cache[k].entry != entry) {
      cache[k].r = routine_of(entry);
      cache[k].entry = entry;
   }
   return cache[k].r;
}

/* The row of input size |size|: its own below WS_RT_SIZE_EXACT, else
   one of 16 per power of two, named by its smallest size. */
static UWord size_key(ULong size)
{
   Int e;
   if (size < WS_RT_SIZE_EXACT)
      return size;
   e = 63 - __builtin_clzll(size);
   return (size >> (e - 4)) << (e - 4);
}

static void add_to_row(Routine* r, ULong size, ULong cost)
{
   UWord key = size_key(size);
   Row* row = r->last_row && r->last_row->key == key
                 ? r->last_row : VG_(HT_lookup)(r->rows, key);
   if (row == NULL) {
      row = VG_(calloc)("ws.routines.row", 1, sizeof *row);
      row->key = key;
      row->min = cost;
      VG_(HT_add_node)(r->rows, row);
   }
   r->last_row = row;
   row->count++;
   row->sum += cost;
   if (cost < row->min)
      row->min = cost;
   if (cost > row->max)
      row->max = cost;
}

/*------------------------------------------------------------*/
/*--- Threads and their frames                             ---*/
/*------------------------------------------------------------*/

typedef struct {
   Routine* r;
   Addr     sp;            /* the stack pointer right after the call */
   Bool     nested;        /* inside another activation of r */
   ULong    cost0;         /* the thread's instructions then */
   Long     rms, trms, ti, si;   /* partial sums */
} Frame;

typedef struct {
   Frame*       f;         /* f[0]: the root, never popped */
   UInt*        start;     /* each frame's stamp at its call: apart,
                              so that the search for an ancestor reads
                              a few cache lines */
   UInt         n, cap;
   UInt         found;     /* the frame ancestor() found last */
   UInt         serial;    /* 0: no thread */
   UInt         slice;     /* the stamp at which it last began running */
   ULong        insns;     /* before |resumed_at| */
   ULong        resumed_at;
   VgHashTable* side;      /* its latest access to lines it lost */
} RThread;

typedef struct _Serial {
   struct _Serial* next;
   UWord           key;
   ThreadId        tid;
} Serial;

static RThread*     threads;           /* by thread id */

/* For --stats=yes: how often each slow path ran. */
static struct {
   ULong calls, closes, reads, writes, kernel_lines, plt;
} stats;
static VgHashTable* by_serial;
static UInt         next_serial = 1;
static Bool         multi = False;     /* a second thread has run */
static ThreadId     running = VG_INVALID_THREADID;
static UInt         count = 2;
static Bool         exhausted = False;   /* the stamps ran out */
static Int          shadow_base;         /* the shadow area's offset */

/* Thread |tid|'s state, begun afresh for a thread not followed yet. */
static RThread* new_thread(ThreadId tid)
{
   RThread* t = &threads[tid];
   {
      Serial* s = VG_(malloc)("ws.routines.serial", sizeof *s);
      if (t->f == NULL) {
         t->cap = 64;
         t->f = VG_(malloc)("ws.routines.frames", t->cap * sizeof(Frame));
         t->start = VG_(malloc)("ws.routines.starts",
                                t->cap * sizeof(UInt));
      }
      VG_(memset)(&t->f[0], 0, sizeof(Frame));
      t->start[0] = 0;
      t->f[0].sp = ~(Addr)0;
      t->n = 1;
      t->serial = next_serial++;
      if (t->serial > 1)
         multi = True;
      t->slice = count;
      t->insns = 0;
      t->resumed_at = WS_(clock_insns)();
      t->side = VG_(HT_construct)("ws.routines.side");
      s->key = t->serial;
      s->tid = tid;
      VG_(HT_add_node)(by_serial, s);
   }
   return t;
}

static inline RThread* thread_of(ThreadId tid)
{
   RThread* t = &threads[tid];
   return t->serial != 0 ? t : new_thread(tid);
}

static ULong insns_of(ThreadId tid)
{
   RThread* t = &threads[tid];
   return tid == running ? t->insns + WS_(clock_insns)() - t->resumed_at
                         : t->insns;
}

/* The same in a helper the IR called with the guest state |gs|. */
static ULong insns_in(void* gs)
{
   RThread* t = &threads[running];
   Word left = *(Word*)((UChar*)gs + shadow_base + WS_SHADOW_LEFT);
   return t->insns + WS_(clock_at_countdown)(left) - t->resumed_at;
}

static UInt read_threshold(const RThread* t)
{
   UInt s = t->start[t->n - 1];
   return (s > t->slice ? s : t->slice) << 1;
}

/* What the running thread's IR reads in its shadow area. */
typedef struct {
   ULong top_sp;
   UInt  read_thr, write_thr, read_stamp, write_stamp;
} Shadow;

static void shadow_of(const RThread* t, Shadow* sh)
{
   sh->top_sp = t->f[t->n - 1].sp;
   sh->read_thr = read_threshold(t);
   sh->write_thr = t->slice << 1;
   sh->read_stamp = count << 1;
   sh->write_stamp = (count << 1) | 1;
}

static void shadow_to_guest(void* gs, const RThread* t)
{
   shadow_of(t, (Shadow*)((UChar*)gs + shadow_base + WS_SHADOW_RT_TOPSP));
}

static void shadow_to_thread(ThreadId tid)
{
   Shadow sh;
   shadow_of(&threads[tid], &sh);
   VG_(set_shadow_regs_area)(tid, 1, WS_SHADOW_RT_TOPSP, sizeof sh,
                             (const UChar*)&sh);
}

/* The stamps are 31 bits (an entry's W takes one): a long call-heavy
   run uses them up after 2^30 calls and thread switches.  From then on
   nothing more is followed (the manual's limits). */
static Bool bump(void)
{
   if (count >= (1u << 31) - 4) {
      if (!exhausted)
         VG_(umsg)("ws: --ws-routines: the stamps ran out after 2^30 calls; "
                   "routines are measured up to here\n");
      exhausted = True;
      return False;
   }
   count += 2;
   return True;
}

/* The deepest pending activation that began at or before |stamp|
   (below the top's, which began after it): the parent most of the
   time, else often the one found last (the starts are in increasing
   order, so the test of the one found last is exact, whatever was
   pushed and popped since). */
static Frame* ancestor(RThread* t, UInt stamp)
{
   UInt lo, hi = t->n - 1;
   if (t->n >= 2 && t->start[t->n - 2] <= stamp)
      return &t->f[t->n - 2];
   lo = t->found < hi ? t->found : 0;
   if (t->start[lo] <= stamp && stamp < t->start[lo + 1])
      return &t->f[lo];
   lo = 0;
   while (hi - lo > 1) {
      UInt mid = (lo + hi) / 2;
      if (t->start[mid] <= stamp)
         lo = mid;
      else
         hi = mid;
   }
   t->found = lo;
   return &t->f[lo];
}

/* A read by |t| whose latest access to the line was at |last| (0:
   never), the line's latest write by another thread or the kernel at
   |wts| (0: none since). */
static void account(RThread* t, UInt last, UInt wts)
{
   Frame* top = &t->f[t->n - 1];
   Frame* seen = NULL;          /* the activation that had the line */
   Bool first = last < t->start[t->n - 1];
   if (first) {
      top->rms++;
      if (last != 0) {
         seen = ancestor(t, last);
         seen->rms--;
      }
   }
   if (last < wts) {
      top->trms++;
      if (wts & 1)
         top->si++;
      else
         top->ti++;
   } else if (first) {
      top->trms++;
      if (seen)
         seen->trms--;
   }
}

/* The slow path of an access to |line| by |t|, whose entry held |e|
   (the current stamp is stored already): the line changes owner if
   another had it, its stamp comes back if a kernel write set it aside,
   and a read is accounted.  While one thread has run it owns every
   line, and the owners' table is not even made. */
static void slow_access(RThread* t, Addr line, UInt e, Bool reads)
{
   UInt* aside = e == 0 ? peek(&held, line) : NULL;
   Bool  kernel = aside != NULL && *aside != 0;
   UInt  last, wts = 0;
   if (!multi) {
      last = kernel ? *aside >> 1 : e >> 1;
      if (kernel) {
         *aside = 0;
         wts = *slot_in(&writes, line);
      }
   } else {
      UInt* owner = slot_in(&owners, line);
      UInt  mine = t->serial == 1 ? 0 : t->serial;
      if (*owner == mine && !kernel) {
         last = e >> 1;
      } else {
         UInt  before = kernel ? *aside >> 1 : e >> 1;
         UInt* w = slot_in(&writes, line);
         if (*owner == mine) {
            last = before;
         } else {
            Serial* s = VG_(HT_lookup)(by_serial, *owner ? *owner : 1);
            last = table_take(t->side, line);
            if (s != NULL && before != 0)
               table_put(threads[s->tid].side, line, before);
         }
         if ((e & 1) && (e >> 1) > *w)
            *w = e >> 1;
         if (kernel)
            *aside = 0;
         *owner = mine;
         wts = *w;
      }
   }
   if (reads)
      account(t, last, wts);
}

/* An access of |kind| to |size| bytes at |a| by the running thread
   whose first line's entry held |e| before the inline check stored the
   current stamp (the other lines' entries are this one's to update). */
static void access_lines(Addr a, UInt e, SizeT size, WS_AccessKind kind)
{
   RThread* t;
   Addr     line = a >> WS_RT_LINE_SHIFT;
   Addr     last = (a + size - 1) >> WS_RT_LINE_SHIFT;
   UInt     thr;
   Bool     reads = (kind & WS_Read) != 0;
   if (exhausted || !WS_(measuring) || running == VG_INVALID_THREADID)
      return;
   if (reads)
      stats.reads++;
   else
      stats.writes++;
   t = thread_of(running);
   thr = reads ? read_threshold(t) : t->slice << 1;
   if (e < thr)
      slow_access(t, line, e, reads);
   while (line++ < last) {
      UInt* entry = entry_of(line);
      UInt  old = *entry;
      *entry = (kind & WS_Write) ? (count << 1) | 1
                                 : (old & 1) | (count << 1);
      if (old < thr)
         slow_access(t, line, old, reads);
   }
}

/* A read, the helper's most frequent call: while one thread has run,
   a read of one line whose entry holds a stamp (no kernel write set
   it aside) is account(t, e >> 1, 0) with nothing else to do, here
   without access_lines' and slow_access' frames. */
void WS_(rt_read)(Addr a, UWord e, UWord size)
{
   RThread* t;
   if (UNLIKELY(multi || (UInt)e == 0 || exhausted || !WS_(measuring)
                || running == VG_INVALID_THREADID
                || (a & ((1u << WS_RT_LINE_SHIFT) - 1)) + size
                   > (1u << WS_RT_LINE_SHIFT)
                || threads[running].serial == 0)) {
      access_lines(a, (UInt)e, size, WS_Read);
      return;
   }
   stats.reads++;
   t = &threads[running];
   if ((UInt)e < read_threshold(t))
      account(t, (UInt)e >> 1, 0);
}

void WS_(rt_write)(Addr a, UWord e, UWord size)
{
   access_lines(a, (UInt)e, size, WS_Write);
}

void WS_(rt_modify)(Addr a, UWord e, UWord size)
{
   access_lines(a, (UInt)e, size, WS_ReadWrite);
}

/* The kernel reads for the thread (a read by its top activation), or
   writes, in a batch with one odd stamp: the line's owner loses it (its
   stamp set aside until the line's next access) and every next access
   takes the slow path. */
static void kernel_access(Addr a, SizeT size, WS_AccessKind kind,
                          ThreadId tid)
{
   Addr line, last;
   if (size == 0 || exhausted || !WS_(measuring))
      return;
   last = (a + size - 1) >> WS_RT_LINE_SHIFT;
   stats.kernel_lines += last - (a >> WS_RT_LINE_SHIFT) + 1;
   if (kind == WS_Read) {
      RThread* t = thread_of(tid);
      UInt thr = read_threshold(t);
      for (line = a >> WS_RT_LINE_SHIFT; line <= last; line++) {
         UInt* entry = entry_of(line);
         UInt  old = *entry;
         *entry = (old & 1) | (count << 1);
         if (old < thr)
            slow_access(t, line, old, True);
      }
      return;
   }
   for (line = a >> WS_RT_LINE_SHIFT; line <= last; line++) {
      UInt* entry = entry_of(line);
      UInt* aside = slot_in(&held, line);
      if (*aside == 0)
         *aside = (*entry >> 1) << 1 | 1;
      *entry = 0;
      *slot_in(&writes, line) = count + 1;
   }
   bump();
}

/*------------------------------------------------------------*/
/*--- Calls and returns                                    ---*/
/*------------------------------------------------------------*/

/* Whether routine |r| has a pending activation in |t| (the scan stops
   at the nearest: a recursion finds its parent at once). */
static Bool pending_in(const RThread* t, const Routine* r)
{
   UInt i;
   if (r->pending == 0)
      return False;
   for (i = t->n - 1; i > 0; i--)
      if (t->f[i].r == r)
         return True;
   return False;
}


/* A call of routine |r| (a PLT stub's: of the routine its slot holds
   now, remembered while the slot holds it). */
static void push(void* gs, Routine* r, Addr sp)
{
   RThread* t;
   Frame*   f;
   if (exhausted || !WS_(measuring) || !bump())
      return;
   stats.calls++;
   t = thread_of(running);
   if (t->n == t->cap) {
      t->cap *= 2;
      t->f = VG_(realloc)("ws.routines.frames", t->f, t->cap * sizeof(Frame));
      t->start = VG_(realloc)("ws.routines.starts", t->start,
                              t->cap * sizeof(UInt));
   }
   if (r->got) {
      Addr target = *(const Addr*)r->got;
      stats.plt++;
      if (r->via == NULL || r->via->key != target)
         r->via = routine_at(target);
      r = r->via;
   }
   f = &t->f[t->n];
   f->r = r;
   f->nested = pending_in(t, r);
   f->sp = sp;
   t->start[t->n] = count;
   f->cost0 = insns_in(gs);
   f->rms = f->trms = f->ti = f->si = 0;
   t->n++;
   r->pending++;
   shadow_to_guest(gs, t);
}

void WS_(rt_call)(void* gs, Addr target, Addr sp)
{
   push(gs, routine_at(target), sp);
}

void WS_(rt_call_to)(void* gs, void* routine, Addr sp)
{
   push(gs, routine, sp);
}

void* WS_(rt_routine_at)(Addr entry)
{
   return routine_at(entry);
}

static void close_top(RThread* t, ULong now)
{
   Frame*   f = &t->f[--t->n];
   Frame*   parent = &t->f[t->n - 1];
   Routine* r = f->r;
   ULong    cost = now - f->cost0;
   stats.closes++;
   r->pending--;
   r->calls++;
   if (!f->nested)
      r->cost += cost;
   if ((ULong)f->rms > r->rms_max)
      r->rms_max = f->rms;
   if ((ULong)f->trms > r->trms_max)
      r->trms_max = f->trms;
   r->ti += f->ti;
   r->si += f->si;
   add_to_row(r, f->trms, cost);
   closed++;
   parent->rms += f->rms;
   parent->trms += f->trms;
   parent->ti += f->ti;
   parent->si += f->si;
}

void WS_(rt_pop)(void* gs, Addr sp)
{
   RThread* t;
   ULong    now;
   if (running == VG_INVALID_THREADID)
      return;
   t = thread_of(running);
   now = insns_in(gs);
   while (t->n > 1 && t->f[t->n - 1].sp < sp)
      close_top(t, now);
   shadow_to_guest(gs, t);
}

static void close_all(ThreadId tid)
{
   RThread* t = &threads[tid];
   ULong now;
   if (t->serial == 0)
      return;
   now = insns_of(tid);
   while (t->n > 1)
      close_top(t, now);
}

/*------------------------------------------------------------*/
/*--- The core's events                                    ---*/
/*------------------------------------------------------------*/

static void thread_runs(const WS_Event* ev)
{
   RThread* t;
   if (ev->tid != running) {
      ULong now = WS_(clock_insns)();
      if (running != VG_INVALID_THREADID && threads[running].serial != 0)
         threads[running].insns += now - threads[running].resumed_at;
      running = ev->tid;
      t = thread_of(running);
      t->resumed_at = now;
      if (bump())
         t->slice = count;
   }
   shadow_to_thread(ev->tid);
}

static void thread_exits(const WS_Event* ev)
{
   RThread* t = &threads[ev->tid];
   Serial*  s;
   if (t->serial == 0)
      return;
   close_all(ev->tid);
   s = VG_(HT_remove)(by_serial, t->serial);
   VG_(free)(s);
   VG_(HT_destruct)(t->side, VG_(free));
   t->side = NULL;
   t->serial = 0;
   if (running == ev->tid)
      running = VG_INVALID_THREADID;
}

/* A forked child: its file starts afresh, so do the routines; the
   forking thread keeps its pending activations, the other threads are
   gone (Valgrind drops them without telling). */
void WS_(routines_after_fork)(ThreadId tid)
{
   ThreadId t;
   UInt     i;
   Routine* r;
   if (!WS_(clo).routines)
      return;
   for (t = 1; t < VG_N_THREADS; t++)
      if (t != tid && threads[t].serial != 0) {
         Serial* s = VG_(HT_remove)(by_serial, threads[t].serial);
         for (i = 1; i < threads[t].n; i++)
            threads[t].f[i].r->pending--;
         VG_(free)(s);
         VG_(HT_destruct)(threads[t].side, VG_(free));
         threads[t].side = NULL;
         threads[t].serial = 0;
      }
   VG_(HT_ResetIter)(routines);
   while ((r = VG_(HT_Next)(routines))) {
      VG_(HT_destruct)(r->rows, VG_(free));
      r->rows = VG_(HT_construct)("ws.routines.rows");
      r->last_row = NULL;
      r->calls = r->cost = r->rms_max = r->trms_max = r->ti = r->si = 0;
   }
   closed = 0;
}

/* A stop closes the pending activations with what they ran so far; a
   start begins with empty stacks. */
static void measurement_stops(const WS_Event* ev)
{
   ThreadId tid;
   for (tid = 1; tid < VG_N_THREADS; tid++)
      close_all(tid);
   if (running != VG_INVALID_THREADID && threads[running].serial != 0)
      shadow_to_thread(running);
}

void WS_(routines_init)(void)
{
   UInt i;
   if (!WS_(clo).routines)
      return;
   threads = VG_(calloc)("ws.routines.threads", VG_N_THREADS,
                         sizeof(RThread));
   unmapped_chunk = new_chunk("ws.routines.lines");
   for (i = 0; i < WS_RT_L1_ENTRIES; i++)
      WS_(rt_lines)[i] = unmapped_chunk;
   routines = VG_(HT_construct)("ws.routines");
   by_serial = VG_(HT_construct)("ws.routines.serials");
   VG_(track_new_mem_startup)(new_mem_startup);
   VG_(track_new_mem_mmap)(new_mem_startup);
   VG_(track_new_mem_brk)(new_mem_brk);
   VG_(track_copy_mem_remap)(copy_mem_remap);
   WS_(hear_kernel)(kernel_access);
   WS_(listen)(WS_EvThreadRuns, thread_runs);
   WS_(listen)(WS_EvThreadExit, thread_exits);
   WS_(listen)(WS_EvStop, measurement_stops);
   WS_(routines_instrument_init)();
}

void WS_(routines_print_stats)(void)
{
   if (!WS_(clo).routines)
      return;
   VG_(message)(Vg_DebugMsg, "ws routines: %llu calls, %llu activations "
                "closed, %llu read and %llu write helper calls, %llu lines "
                "the kernel accessed, %llu calls through PLT stubs, %u routines, "
                "stamps at %u\n", stats.calls, stats.closes, stats.reads,
                stats.writes, stats.kernel_lines, stats.plt,
                VG_(HT_count_nodes)(routines), count);
}

void WS_(routines_set_shadow_base)(Int base)
{
   shadow_base = base;
}

/*------------------------------------------------------------*/
/*--- The fit and the ranking                              ---*/
/*------------------------------------------------------------*/

#define LN2 0.6931471805599453

/* ln without libm, as routine_model.ln: x = m 2^e, ln x = e ln 2 +
   2 atanh((m - 1) / (m + 1)), the series summed until it stops
   changing. */
static double ln_of(ULong x)
{
   Int    e = 63 - __builtin_clzll(x);
   double m = (double)x / (double)(1ULL << e);
   double z = (m - 1.0) / (m + 1.0), z2 = z * z, term = z, total = 0.0;
   Int    k = 1;
   for (;;) {
      double next = total + term / k;
      if (next == total)
         break;
      total = next;
      term *= z2;
      k += 2;
   }
   return e * LN2 + 2.0 * total;
}

typedef struct {
   Routine* r;
   Bool     fitted;
   Bool     ranks;         /* called out: fitted, over sizes that span
                              enough, for a share of the cost that
                              matters */
   double   exponent, r2;
   double   weight;        /* exponent x share of the costliest
                              routine's cost */
   UInt     sizes;         /* points of the fit */
   ULong    lo, hi;        /* their smallest and largest size */
   const HChar* name;
} Ranked;

/* The least-squares line through (ln size, ln max cost) over the rows
   of size and max at least 1, with WS_RT_FIT_MIN of them at least. */
static void fit(Ranked* k)
{
   Routine* r = k->r;
   UInt   n = 0, i = 0;
   Row*   row;
   double mx = 0, my = 0, sxx = 0, sxy = 0, syy = 0, y0 = 0;
   Bool   equal = True;
   UInt   rows = VG_(HT_count_nodes)(r->rows);
   double* x = VG_(malloc)("ws.routines.fit", 2 * (rows + 1) * sizeof(double));
   double* y = x + rows + 1;
   k->fitted = False;
   k->lo = ~0ULL;
   k->hi = 0;
   VG_(HT_ResetIter)(r->rows);
   while ((row = VG_(HT_Next)(r->rows))) {
      if (row->key < 1 || row->max < 1)
         continue;
      x[n] = ln_of(row->key);
      y[n] = ln_of(row->max);
      if (n > 0 && y[n] != y0)
         equal = False;
      y0 = y[n];
      if (row->key < k->lo)
         k->lo = row->key;
      if (row->key > k->hi)
         k->hi = row->key;
      n++;
   }
   k->sizes = n;
   if (n >= WS_RT_FIT_MIN) {
      k->fitted = True;
      if (equal) {
         k->exponent = 0.0;
         k->r2 = 1.0;
      } else {
         double res;
         for (i = 0; i < n; i++) {
            mx += x[i];
            my += y[i];
         }
         mx /= n;
         my /= n;
         for (i = 0; i < n; i++) {
            sxx += (x[i] - mx) * (x[i] - mx);
            sxy += (x[i] - mx) * (y[i] - my);
            syy += (y[i] - my) * (y[i] - my);
         }
         k->exponent = sxy / sxx;
         res = syy - k->exponent * sxy;
         k->r2 = res <= 0.0 ? 1.0 : 1.0 - res / syy;
      }
   }
   VG_(free)(x);
}

/* |v| in thousandths, rounded half away from zero: as the file
   writes it. */
static Long milli(double v)
{
   double t = v * 1000.0;
   return t >= 0 ? (Long)(t + 0.5) : -(Long)(-t + 0.5);
}

static Long tenths(double v)
{
   double t = v * 10.0;
   return t >= 0 ? (Long)(t + 0.5) : -(Long)(-t + 0.5);
}

/* The routines called out first, by exponent weighted by their share
   of the cost; then the others; then by total cost. */
static Int by_growth(const void* pa, const void* pb)
{
   const Ranked* a = pa;
   const Ranked* b = pb;
   if (a->ranks != b->ranks)
      return a->ranks ? -1 : 1;
   if (a->ranks && a->weight != b->weight)
      return a->weight > b->weight ? -1 : 1;
   if (a->r->cost != b->r->cost)
      return a->r->cost > b->r->cost ? -1 : 1;
   return VG_(strcmp)(a->name, b->name);
}

static Int by_size(const void* pa, const void* pb)
{
   const Row* a = *(const Row* const*)pa;
   const Row* b = *(const Row* const*)pb;
   return a->key < b->key ? -1 : a->key > b->key;
}

/* The routines with a closed activation, ranked; |*n| of them. */
static Ranked* ranked(UInt* n)
{
   Routine* r;
   Ranked*  out;
   UInt     i = 0, j;
   ULong    most = 0;         /* the costliest routine's cost */
   if (routines == NULL) {
      *n = 0;
      return NULL;
   }
   out = VG_(malloc)("ws.routines.ranked",
                     (VG_(HT_count_nodes)(routines) + 1) * sizeof *out);
   VG_(HT_ResetIter)(routines);
   while ((r = VG_(HT_Next)(routines))) {
      if (r->calls == 0)
         continue;
      out[i].r = r;
      if (!VG_(get_fnname)(VG_(current_DiEpoch)(), r->key, &out[i].name))
         out[i].name = "???";
      out[i].name = WS_(intern)(out[i].name);
      fit(&out[i]);
      if (r->cost > most)
         most = r->cost;
      i++;
   }
   for (j = 0; j < i; j++) {
      out[j].ranks = out[j].fitted
                     && out[j].hi >= WS_RT_RANK_SPAN * out[j].lo
                     && milli(out[j].r2) >= WS_RT_RANK_R2_MILLI
                     && out[j].r->cost * WS_RT_RANK_SHARE >= most;
      out[j].weight = out[j].ranks
                         ? out[j].exponent * ((double)out[j].r->cost
                                              / (double)most)
                         : 0.0;
   }
   VG_(ssort)(out, i, sizeof *out, by_growth);
   *n = i;
   return out;
}

static Bool flagged(const Ranked* k)
{
   return k->ranks && k->sizes >= WS_RT_FLAG_SIZES
          && tenths(k->exponent) >= 12;
}

/* |v| with three decimals, rounded half away from zero. */
static void thousandths(HChar* buf, double v)
{
   Long   m = milli(v);
   ULong  a = m < 0 ? -m : m;
   VG_(sprintf)(buf, "%s%llu.%03llu", m < 0 ? "-" : "", a / 1000, a % 1000);
}

/*------------------------------------------------------------*/
/*--- The trailer's records and "ws routines"              ---*/
/*------------------------------------------------------------*/

void WS_(routines_trailer)(void)
{
   Ranked*  k;
   UInt     n, i, j;
   ThreadId tid;
   if (!WS_(clo).routines)
      return;
   for (tid = 1; tid < VG_N_THREADS; tid++)
      close_all(tid);
   k = ranked(&n);
   for (i = 0; i < n; i++) {
      Routine* r = k[i].r;
      UInt     stack = WS_(out_stack)(
                          VG_(make_depth_1_ExeContext_from_Addr)(r->key));
      UInt     rows = VG_(HT_count_nodes)(r->rows);
      Row**    sorted = VG_(malloc)("ws.routines.rows", rows * sizeof(Row*));
      Row*     row;
      HChar    e[32], q[32];
      if (k[i].fitted) {
         thousandths(e, k[i].exponent);
         thousandths(q, k[i].r2);
      } else {
         VG_(strcpy)(e, "-");
         VG_(strcpy)(q, "-");
      }
      WS_(out_printf)("routine %u %u calls %llu cost %llu rms-max %llu "
                      "trms-max %llu thread-induced %llu syscall-induced %llu "
                      "exponent %s r2 %s", i + 1, stack, r->calls, r->cost,
                      r->rms_max, r->trms_max, r->ti, r->si, e, q);
      WS_(out_end_line)();
      j = 0;
      VG_(HT_ResetIter)(r->rows);
      while ((row = VG_(HT_Next)(r->rows)))
         sorted[j++] = row;
      VG_(ssort)(sorted, rows, sizeof(Row*), by_size);
      for (j = 0; j < rows; j++) {
         WS_(out_printf)("routine-size %u %lu count %llu min %llu mean %llu "
                         "max %llu", i + 1, sorted[j]->key, sorted[j]->count,
                         sorted[j]->min,
                         (sorted[j]->sum + sorted[j]->count / 2)
                         / sorted[j]->count, sorted[j]->max);
         WS_(out_end_line)();
      }
      VG_(free)(sorted);
   }
   VG_(free)(k);
}

void WS_(routines_monitor)(ULong top)
{
   UInt    n, i;
   Ranked* k = ranked(&n);
   VG_(gdb_printf)("routines (activations closed so far: %'llu of %u "
                   "routines)\n", closed, n);
   VG_(gdb_printf)(" rank  exponent    r2  sizes        calls             "
                   "cost   rms-max  trms-max  induced thr/sys  routine\n");
   for (i = 0; i < n && i < top; i++) {
      Routine* r = k[i].r;
      HChar e[32], q[32], loc[256];
      const HChar* file;
      UInt line;
      if (k[i].fitted) {
         thousandths(e, k[i].exponent);
         thousandths(q, k[i].r2);
         e[VG_(strlen)(e) - 1] = '\0';
         q[VG_(strlen)(q) - 1] = '\0';
      } else {
         VG_(strcpy)(e, "-");
         VG_(strcpy)(q, "-");
      }
      if (VG_(get_filename_linenum)(VG_(current_DiEpoch)(), r->key, &file,
                                    NULL, &line))
         VG_(snprintf)(loc, sizeof loc, " (%s:%u)", file, line);
      else
         loc[0] = '\0';
      VG_(gdb_printf)(" %4u  %8s  %4s  %5u  %'11llu  %'15llu  %'8llu  %'8llu"
                      "  %7llu/%llu  %s%s\n", i + 1, e, q, k[i].sizes,
                      r->calls, r->cost, r->rms_max, r->trms_max, r->ti,
                      r->si, k[i].name, loc);
      if (flagged(&k[i]))
         VG_(gdb_printf)("       %s grows faster than its input: cost grows "
                         "as input^%s over %u sizes from %llu to %llu "
                         "lines\n", k[i].name, e, k[i].sizes, k[i].lo,
                         k[i].hi);
   }
   VG_(free)(k);
}

/*--------------------------------------------------------------------*/
/*--- end                                             ws_routines.c ---*/
/*--------------------------------------------------------------------*/

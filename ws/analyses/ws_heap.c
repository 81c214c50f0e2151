/*--------------------------------------------------------------------*/
/*--- ws: the program's heap blocks.                   ws_heap.c ---*/
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

/* Owns the live heap blocks of the program (--ws-heap=yes): address,
   size and allocating stack of every block that malloc, calloc,
   realloc, the memalign family or C++ operator new returned and that
   free or operator delete has not yet taken back, in an ordered set by
   address.

   How the calls are seen.  ws must not change what it measures, so
   the program keeps its own allocator (no replacement, as memcheck and
   massif do) and no code is added to the client either: a preload
   library of wrappers would itself be loaded by ld.so (about 10,000
   instructions more at start-up, and its symbol table searched on
   every later lazy binding) and its frames would sit on the stack, so
   the clock would no longer equal the instruction count of the same
   run without ws.  Instead this file adds helper calls to the
   translations of libc and libstdc++, after ws's own instrumentation
   (so ws never counts them) and only reading guest state:

     - at the first instruction of each allocation function (found by
       name from the debug info or the dynamic symbols, whether the
       call came through the PLT or from inside libc): its arguments,
       the stack pointer, the return address and the allocating stack
       are noted as the thread's pending call; a free is done at once;
     - at every return in those libraries, an inline test of "is any
       call pending" (one load and one compare) guards a helper that
       checks whether this return is the pending call's: the stack
       pointer one word above the one at entry and the jump going to
       the return address noted then.  The result register then holds
       the block.

   Nested calls (calloc or realloc calling malloc inside libc, operator
   new calling malloc) record one block: while a call is pending on a
   thread, an allocation entered deeper on that thread's stack belongs
   to it and is ignored.  A pending call whose frame is gone without
   the expected return (an exception thrown by operator new, a
   longjmp) is dropped at the next return or entry above it.  A block
   that overlaps one recorded earlier replaces it (a free ws did not
   see).  Statically linked programs, and allocators other than glibc's
   and libstdc++'s, are not followed. */

#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_execontext.h"
#include "pub_tool_guest.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_oset.h"
#include "pub_tool_stacktrace.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_vki.h"
#include "pub_tool_xarray.h"

#include "ws_analyses.h"

/*------------------------------------------------------------*/
/*--- Address intervals in ordered sets                    ---*/
/*------------------------------------------------------------*/

/* A block, or an arena range: [start, start + len), where len is at
   least 1 so that a zero-sized block (malloc(0)) can still be found
   and freed by its address.  |start| is the key. */
typedef struct {
   Addr        start;
   SizeT       len;
   SizeT       size;      /* blocks: the size asked for */
   ExeContext* site;      /* blocks: the allocating stack */
   ULong       born;      /* blocks: samples taken before it was made */
   ULong       died;      /* freed blocks: samples taken before it was
                             freed; 0 while it lives */
   WS_ChunkUse* use;      /* blocks: its usage (ws_heapuse.c), or NULL */
} Interval;

/* The bytes the live blocks were asked for: each sample carries it
   (the `heap` column), massif's curve. */
static ULong live_bytes = 0;

/* Who hears of chunks (WS_(heap_chunks_to)), or NULL. */
static WS_ChunkUse* (*chunk_alloc)(Addr block, SizeT size, ExeContext* site);
static void         (*chunk_free)(WS_ChunkUse* use);
static void         (*chunk_left)(WS_ChunkUse* use);

void WS_(heap_chunks_to)(WS_ChunkUse* (*alloc)(Addr block, SizeT size,
                                               ExeContext* site),
                         void (*free)(WS_ChunkUse* use))
{
   chunk_alloc = alloc;
   chunk_free = free;
}

void WS_(heap_chunks_left_to)(void (*left)(WS_ChunkUse* use))
{
   chunk_left = left;
}

/* Key |a| against an interval: equal when the interval contains it.
   Intervals in one set never overlap, so this orders them. */
static Word cmp_addr_interval(const void* key, const void* elem)
{
   Addr a = *(const Addr*)key;
   const Interval* iv = elem;
   if (a < iv->start)
      return -1;
   if (a - iv->start >= iv->len)
      return 1;
   return 0;
}

/* Nodes come from a pool: a program like sqlite3 allocates and frees
   hundreds of thousands of blocks, each a node made and thrown away. */
static OSet* new_interval_set(const HChar* cc)
{
   return VG_(OSetGen_Create_With_Pool)(offsetof(Interval, start),
                                        cmp_addr_interval, VG_(malloc), cc,
                                        VG_(free), 1024, sizeof(Interval));
}

/* Removes every interval that overlaps [start, start + len).  The
   iterator starts at the first interval that contains |start| or lies
   after it: one walk down the tree when nothing overlaps. */
static UInt remove_overlapping(OSet* set, Addr start, SizeT len)
{
   UInt removed = 0;
   for (;;) {
      Interval* iv;
      Addr key;
      VG_(OSetGen_ResetIterAt)(set, &start);
      iv = VG_(OSetGen_Next)(set);
      if (iv == NULL || (iv->start > start && iv->start - start >= len))
         return removed;
      key = iv->start;
      iv = VG_(OSetGen_Remove)(set, &key);
      live_bytes -= iv->size;         /* an arena's is 0 */
      if (iv->use != NULL)
         chunk_free(iv->use);
      VG_(OSetGen_FreeNode)(set, iv);
      removed++;
   }
}

static Interval* insert_interval(OSet* set, Addr start, SizeT len)
{
   Interval* iv = VG_(OSetGen_AllocNode)(set, sizeof(Interval));
   iv->start = start;
   iv->len = len;
   iv->size = 0;
   iv->site = NULL;
   iv->born = iv->died = 0;
   iv->use = NULL;
   VG_(OSetGen_Insert)(set, iv);
   return iv;
}

/*------------------------------------------------------------*/
/*--- Blocks and arenas                                    ---*/
/*------------------------------------------------------------*/

static OSet* blocks;    /* live blocks */
static OSet* arenas;    /* the parts of arenas that held blocks */
/* The blocks freed since the window of a sample some way back began
   (forget_freed, at each sample), in the order they were freed: a free
   costs an append.  Only a peak's breakdown, a dump or the hot pages
   look them up, through an index by address made then (freed_index). */
static XArray* freed;           /* of Interval */
static Interval** freed_by_addr = NULL;
static Word      freed_indexed = -1;    /* freed's size when indexed */
static SizeT     freed_longest = 0;     /* the longest freed block */

static struct {
   ULong allocs;        /* blocks recorded */
   ULong frees;         /* recorded blocks freed */
   ULong unknown_frees; /* frees of addresses ws had no block for */
   ULong nested;        /* allocation calls inside another one */
   ULong replaced;      /* blocks overlapped by a newer one */
   ULong dropped;       /* pending calls whose return never came */
} stats;

/* The last range found to be the brk heap or an arena, so that most
   blocks need no segment lookup. */
static Addr  known_start = 1;
static SizeT known_len   = 0;

/* glibc's malloc: a chunk with a mapping of its own has the IS_MMAPPED
   bit in the size word just before the block; other blocks outside the
   brk heap lie in an arena's heap, which starts at a multiple of
   HEAP_MAX_SIZE and never spans more. */
#define GLIBC_IS_MMAPPED    0x2
#define GLIBC_HEAP_MAX_SIZE (64UL << 20)

/* Notes the arena of a block that lies in one: the part of its
   anonymous mapping inside its arena's heap (the address space manager
   merges neighbouring mappings, so the mapping alone could take in
   memory that is not the allocator's). */
static void note_arena(Addr block)
{
   NSegment const* seg;
   const UWord* size_word = (const UWord*)block - 1;
   Addr heap_start = block & ~(GLIBC_HEAP_MAX_SIZE - 1);
   Addr start, end;
   if (block - known_start < known_len)
      return;
   seg = VG_(am_find_nsegment)(block);
   if (seg != NULL && seg->kind == SkAnonC && seg->isCH) {
      known_start = seg->start;
      known_len = seg->end - seg->start + 1;
      return;
   }
   if (seg == NULL || seg->kind != SkAnonC
       || !VG_(am_is_valid_for_client)((Addr)size_word, sizeof *size_word,
                                       VKI_PROT_READ)
       || (*size_word & GLIBC_IS_MMAPPED))
      return;
   start = seg->start > heap_start ? seg->start : heap_start;
   end = seg->end < heap_start + GLIBC_HEAP_MAX_SIZE - 1
       ? seg->end : heap_start + GLIBC_HEAP_MAX_SIZE - 1;
   remove_overlapping(arenas, start, end - start + 1);
   insert_interval(arenas, start, end - start + 1);
   known_start = start;
   known_len = end - start + 1;
}

/* Sample sequence numbers: born and died count the samples taken
   before; 0 as |died| means alive, so they start at 1. */
static ULong seq(void)
{
   return WS_(sample_seq) + 1;
}

/* Freed blocks can leave pages in a sample's window (tau back: a few
   samples when tau is T), and the peaks recorded at a sample are
   broken down at the next: those freed since the window of the sample
   before began are still needed, one sample more for the rounding. */
static void forget_freed(const WS_Event* ev)
{
   ULong back = (WS_(tau)() + WS_(every)() - 1) / WS_(every)() + 1;
   ULong before;
   Word  n = 0, total;
   if (WS_(sample_seq) <= back)
      return;
   before = WS_(sample_seq) - back;
   total = VG_(sizeXA)(freed);
   while (n < total && ((Interval*)VG_(indexXA)(freed, n))->died < before)
      n++;
   if (n > 0) {
      VG_(dropHeadXA)(freed, n);
      freed_indexed = -1;
   }
}

static Int by_start(const void* a, const void* b)
{
   const Interval* p = *(const Interval* const*)a;
   const Interval* q = *(const Interval* const*)b;
   if (p->start != q->start)
      return p->start < q->start ? -1 : 1;
   return p->died < q->died ? -1 : p->died > q->died ? 1 : 0;
}

/* The freed blocks sorted by address (then by when they were freed),
   made again when a block was freed or forgotten since. */
static void freed_index(void)
{
   Word i, n = VG_(sizeXA)(freed);
   if (freed_indexed == n)
      return;
   if (freed_by_addr != NULL)
      VG_(free)(freed_by_addr);
   freed_by_addr = VG_(malloc)("ws.heap.freed_by_addr",
                               (n + 1) * sizeof *freed_by_addr);
   freed_longest = 0;
   for (i = 0; i < n; i++) {
      freed_by_addr[i] = VG_(indexXA)(freed, i);
      if (freed_by_addr[i]->len > freed_longest)
         freed_longest = freed_by_addr[i]->len;
   }
   VG_(ssort)(freed_by_addr, n, sizeof *freed_by_addr, by_start);
   freed_indexed = n;
}

/* The freed block that overlaps [from, to) and was made by the sample
   |sample| (freed since or not), the latest made if several; or NULL. */
static const Interval* freed_block_in(Addr from, Addr to, ULong sample)
{
   const Interval* best = NULL;
   Word lo = 0, hi;
   freed_index();
   hi = freed_indexed;
   while (lo < hi) {            /* the first that starts at or after |to| */
      Word mid = lo + (hi - lo) / 2;
      if (freed_by_addr[mid]->start < to)
         lo = mid + 1;
      else
         hi = mid;
   }
   while (--lo >= 0 && (freed_by_addr[lo]->start >= from
                        || from - freed_by_addr[lo]->start < freed_longest)) {
      const Interval* iv = freed_by_addr[lo];
      if (iv->start + iv->len > from && iv->born <= sample
          && (best == NULL || iv->born > best->born))
         best = iv;
   }
   return best;
}

/* The block of the latest free, until a block is made there again. */
static Addr last_freed;

static void add_block(Addr block, SizeT size, ExeContext* site)
{
   SizeT len = size > 0 ? size : 1;
   Interval* iv;
   stats.replaced += remove_overlapping(blocks, block, len);
   iv = insert_interval(blocks, block, len);
   iv->size = size;
   iv->site = site;
   iv->born = seq();
   live_bytes += size;
   if (chunk_alloc != NULL)
      iv->use = chunk_alloc(block, size, site);
   stats.allocs++;
   if (block == last_freed)
      last_freed = 0;
   note_arena(block);
}

static void remove_block(Addr block)
{
   Interval* iv = VG_(OSetGen_Remove)(blocks, &block);
   if (iv == NULL || iv->start != block) {
      /* Not a block's start: never recorded (allocated before ws saw
         libc, or by a nested call of an allocator ws does not know),
         or a bad free the allocator will complain about. */
      if (iv != NULL)
         VG_(OSetGen_Insert)(blocks, iv);
      stats.unknown_frees++;
      return;
   }
   if (iv->use != NULL) {
      chunk_free(iv->use);
      iv->use = NULL;        /* gone with the block: the log keeps none */
   }
   iv->died = seq();
   live_bytes -= iv->size;
   VG_(addToXA)(freed, iv);
   VG_(OSetGen_FreeNode)(blocks, iv);
   stats.frees++;
}

/* realloc was entered with |block|. */
static void block_left(Addr block)
{
   const Interval* iv = VG_(OSetGen_Lookup)(blocks, &block);
   if (iv != NULL && iv->start == block && iv->use != NULL)
      chunk_left(iv->use);
}

/* A block given back.  operator delete frees with free(), and glibc's
   realloc(p, 0) too: the inner call is for the block just freed. */
static void free_block(Addr block)
{
   if (block != 0 && block != last_freed)
      remove_block(block);
   last_freed = block;
}

static void block_owner(const Interval* iv, WS_OwnerKind kind, WS_Owner* o)
{
   o->kind = kind;
   o->block = iv->start;
   o->size = iv->size;
   o->site = iv->site;
}

/* The owner a freed block overlapping [from, to) makes of its bytes at
   the sample |sample|: still live then, or freed by then. */
static Bool freed_owner_in(Addr from, Addr to, ULong sample, WS_Owner* o)
{
   const Interval* iv = freed_block_in(from, to, sample);
   if (iv == NULL)
      return False;
   block_owner(iv, iv->died > sample ? WS_OwnHeap : WS_OwnFreed, o);
   return True;
}

Bool WS_(heap_owner_at)(Addr a, ULong sample, WS_Owner* o)
{
   const Interval* iv;
   if (blocks == NULL)
      return False;
   iv = VG_(OSetGen_Lookup)(blocks, &a);
   if (iv != NULL && iv->born <= sample) {
      block_owner(iv, WS_OwnHeap, o);
      return True;
   }
   /* a block made after the sample was not there: what was? */
   return freed_owner_in(a, a + 1, sample, o);
}

Bool WS_(heap_block_in)(Addr from, Addr to, ULong sample, WS_Owner* o)
{
   const Interval* iv;
   if (blocks == NULL)
      return False;
   VG_(OSetGen_ResetIterAt)(blocks, &from);
   while ((iv = VG_(OSetGen_Next)(blocks)) != NULL && iv->start < to)
      if (iv->born <= sample) {
         block_owner(iv, WS_OwnHeap, o);
         return True;
      }
   return freed_owner_in(from, to, sample, o);
}

WS_ChunkUse* WS_(heap_use_of)(Addr a)
{
   const Interval* iv;
   if (blocks == NULL || (iv = VG_(OSetGen_Lookup)(blocks, &a)) == NULL)
      return NULL;
   return iv->use;
}

void WS_(heap_for_blocks_in)(Addr from, Addr to,
                             void (*fn)(WS_ChunkUse* use, void* opaque),
                             void* opaque)
{
   const Interval* iv;
   if (blocks == NULL)
      return;
   /* The block containing |from| if any, then those starting later. */
   VG_(OSetGen_ResetIterAt)(blocks, &from);
   while ((iv = VG_(OSetGen_Next)(blocks)) != NULL && iv->start < to)
      if (iv->use != NULL)
         fn(iv->use, opaque);
}

void WS_(heap_for_each_block)(void (*fn)(WS_ChunkUse* use, void* opaque),
                              void* opaque)
{
   WS_(heap_for_blocks_in)(0, ~(Addr)0, fn, opaque);
}

ULong WS_(heap_live_bytes)(void)
{
   return live_bytes;
}

Bool WS_(heap_arena_contains)(Addr a)
{
   NSegment const* seg;
   if (blocks == NULL)
      return False;
   seg = VG_(am_find_nsegment)(a);
   if (seg != NULL && seg->kind == SkAnonC && seg->isCH)
      return True;
   return VG_(OSetGen_Lookup)(arenas, &a) != NULL;
}

/*------------------------------------------------------------*/
/*--- The allocation functions                             ---*/
/*------------------------------------------------------------*/

/* What a function does with its arguments (a0, a1, a2: rdi, rsi, rdx)
   and its result. */
typedef enum {
   Fn_None,
   Fn_Malloc,          /* size a0: malloc, valloc, pvalloc, new, new[] */
   Fn_Calloc,          /* a0 elements of a1 bytes */
   Fn_Realloc,         /* block a0 to size a1 */
   Fn_Memalign,        /* alignment a0, size a1: memalign, aligned_alloc */
   Fn_PosixMemalign,   /* *a0 = block, alignment a1, size a2; 0 if done */
   Fn_Free             /* block a0: free, delete, delete[] */
} FnKind;

/* Names as the debug info gives them at a function's first
   instruction: glibc's symbols (its aliases may win) and libstdc++'s
   operators, demangled or not (--demangle=no). */
static const struct { const HChar* name; FnKind kind; } exact_names[] = {
   { "malloc",         Fn_Malloc },  { "__libc_malloc",   Fn_Malloc },
   { "valloc",         Fn_Malloc },  { "__libc_valloc",   Fn_Malloc },
   { "pvalloc",        Fn_Malloc },  { "__libc_pvalloc",  Fn_Malloc },
   { "calloc",         Fn_Calloc },  { "__libc_calloc",   Fn_Calloc },
   { "realloc",        Fn_Realloc }, { "__libc_realloc",  Fn_Realloc },
   { "memalign",       Fn_Memalign }, { "__libc_memalign", Fn_Memalign },
   { "aligned_alloc",  Fn_Memalign },
   { "posix_memalign", Fn_PosixMemalign },
   { "free",           Fn_Free },    { "__libc_free",     Fn_Free },
   { "cfree",          Fn_Free },
};

/* Every operator new and delete: plain, [], nothrow, aligned, sized. */
static const struct { const HChar* prefix; FnKind kind; } prefixes[] = {
   { "operator new(",      Fn_Malloc }, { "operator new[](",    Fn_Malloc },
   { "operator delete(",   Fn_Free },   { "operator delete[](", Fn_Free },
   { "_Znwm",              Fn_Malloc }, { "_Znam",              Fn_Malloc },
   { "_ZdlPv",             Fn_Free },   { "_ZdaPv",             Fn_Free },
};

static FnKind kind_of_function(const HChar* name)
{
   UInt i;
   for (i = 0; i < sizeof exact_names / sizeof exact_names[0]; i++)
      if (VG_(strcmp)(name, exact_names[i].name) == 0)
         return exact_names[i].kind;
   for (i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
      if (VG_(strncmp)(name, prefixes[i].prefix,
                       VG_(strlen)(prefixes[i].prefix)) == 0)
         return prefixes[i].kind;
   return Fn_None;
}

/* Whether |a| is code of the C or C++ runtime library, where the
   allocation functions and their returns are. */
static Bool in_allocator_library(Addr a)
{
   const DebugInfo* di = VG_(find_DebugInfo)(VG_(current_DiEpoch)(), a);
   const HChar* soname = di == NULL ? NULL : VG_(DebugInfo_get_soname)(di);
   if (soname == NULL)
      return False;
   return VG_(strncmp)(soname, "libc.so", 7) == 0
       || VG_(strncmp)(soname, "libstdc++.so", 12) == 0;
}

/*------------------------------------------------------------*/
/*--- Pending calls and the helpers                        ---*/
/*------------------------------------------------------------*/

/* The allocation call a thread is in (at most one: nested ones are
   ignored). */
typedef struct {
   Bool        active;
   FnKind      kind;
   Addr        sp;         /* stack pointer at entry: the return address */
   Addr        ret;        /* where it returns to */
   UWord       a0, a1, a2;
   ExeContext* site;
} Pending;

static Pending* pending;            /* indexed by ThreadId */
/* How many threads have a pending call: the inline guard of the
   return hook reads it, and ws_heapuse.c's helper path. */
ULong WS_(heap_calls) = 0;

/* A stack trace buffer: --num-callers frames plus the allocation
   function's own. */
static Addr* trace;

/* The stack of the call being entered, without the allocation
   function's own frame (its first instruction). */
static ExeContext* caller_stack(ThreadId tid)
{
   UInt n = VG_(get_StackTrace)(tid, trace, VG_(clo_backtrace_size) + 1,
                                NULL, NULL, 0);
   if (n <= 1)
      return VG_(make_ExeContext_from_StackTrace)(trace, n);
   return VG_(make_ExeContext_from_StackTrace)(
             trace + 1, WS_(real_stack_depth)(trace + 1, n - 1));
}

static void drop_pending(Pending* p)
{
   p->active = False;
   WS_(heap_calls)--;
}

/* Called at the first instruction of an allocation function. */
static VG_REGPARM(0) void heap_entered(UWord kind, Addr sp, UWord a0,
                                       UWord a1, UWord a2)
{
   ThreadId tid = VG_(get_running_tid)();
   Pending* p = &pending[tid];

   /* A free is done at once; it is followed to its return like the
      other calls, without a stack, so that ws_heapuse.c knows which
      accesses are the allocator's own. */
   if (kind == Fn_Free)
      free_block(a0);
   if (p->active) {
      if (sp < p->sp) {
         if (kind != Fn_Free)
            stats.nested++;
         return;
      }
      /* At or above the pending call's entry: that call is over, or
         (at the same place) jumped to this one as its last act. */
      if (sp > p->sp)
         stats.dropped++;
      drop_pending(p);
   }
   if (kind == Fn_Realloc && a0 != 0 && chunk_left != NULL)
      block_left(a0);
   p->active = True;
   WS_(heap_calls)++;
   p->kind = kind;
   p->sp = sp;
   p->ret = *(const Addr*)sp;
   p->a0 = a0;
   p->a1 = a1;
   p->a2 = a2;
   p->site = kind == Fn_Free ? NULL : caller_stack(tid);
}

/* The pending call |p| returned |result|. */
static void allocation_done(const Pending* p, UWord result)
{
   const Addr* out;
   switch (p->kind) {
   case Fn_Malloc:
      if (result != 0)
         add_block(result, p->a0, p->site);
      break;
   case Fn_Calloc:
      if (result != 0)
         add_block(result, p->a0 * p->a1, p->site);
      break;
   case Fn_Memalign:
      if (result != 0)
         add_block(result, p->a1, p->site);
      break;
   case Fn_Realloc:
      /* realloc(p, 0) frees p and returns NULL; a failed realloc
         leaves p alone. */
      if (result != 0 || p->a1 == 0)
         free_block(p->a0);
      if (result != 0)
         add_block(result, p->a1, p->site);
      break;
   case Fn_PosixMemalign:
      out = (const Addr*)p->a0;
      if (result == 0
          && VG_(am_is_valid_for_client)((Addr)out, sizeof *out,
                                         VKI_PROT_READ))
         add_block(*out, p->a2, p->site);
      break;
   case Fn_Free:
      break;
   default:
      tl_assert(0);
   }
}

Bool WS_(heap_in_allocator)(ThreadId tid)
{
   return pending != NULL && pending[tid].active;
}

/* Called, when some call is pending, at a return in the runtime
   libraries: |sp| the stack pointer after the return, |to| where it
   goes, |result| the result register. */
static VG_REGPARM(0) void heap_returned(Addr sp, Addr to, UWord result)
{
   Pending* p = &pending[VG_(get_running_tid)()];
   if (!p->active || sp < p->sp + sizeof(Addr))
      return;                /* a return inside the allocation call */
   drop_pending(p);
   if (sp == p->sp + sizeof(Addr) && to == p->ret)
      allocation_done(p, result);
   else
      stats.dropped++;       /* its frame went without returning */
}

/*------------------------------------------------------------*/
/*--- The hooks in the IR                                  ---*/
/*------------------------------------------------------------*/

static IRExpr* get_reg(IRSB* sb, Int offset)
{
   IRTemp t = newIRTemp(sb->tyenv, WS_Ity_W);
   addStmtToIRSB(sb, IRStmt_WrTmp(t, IRExpr_Get(offset, WS_Ity_W)));
   return IRExpr_RdTmp(t);
}

#define GUEST_OFF(reg)  offsetof(VexGuestArchState, reg)

/* At a function's first instruction, its argument |i| (0, 1, 2) of
   the platform's calling convention: amd64's registers, or x86's
   stack words above the return address (which |sp| points to). */
static IRExpr* get_arg(IRSB* sb, IRExpr* sp, Int i)
{
#if defined(VGA_amd64)
   static const Int regs[3] = { GUEST_OFF(guest_RDI), GUEST_OFF(guest_RSI),
                                GUEST_OFF(guest_RDX) };
   (void)sp;
   return get_reg(sb, regs[i]);
#elif defined(VGA_x86)
   IRTemp at = newIRTemp(sb->tyenv, Ity_I32);
   IRTemp t = newIRTemp(sb->tyenv, Ity_I32);
   addStmtToIRSB(sb, IRStmt_WrTmp(at, IRExpr_Binop(Iop_Add32, sp,
                 mkIRExpr_HWord(4 * (i + 1)))));
   addStmtToIRSB(sb, IRStmt_WrTmp(t, IRExpr_Load(Iend_LE, Ity_I32,
                                                 IRExpr_RdTmp(at))));
   return IRExpr_RdTmp(t);
#else
#  error "ws_heap.c knows the calls of amd64 and x86 only"
#endif
}

/* A function's result register. */
#if defined(VGA_amd64)
#  define RESULT_REG guest_RAX
#else
#  define RESULT_REG guest_EAX
#endif

/* Declares that helper call |d| reads a guest register, so that the
   register is up to date in the guest state when it runs. */
static void reads_reg(IRDirty* d, Int i, Int offset, Int size)
{
   d->fxState[i].fx = Ifx_Read;
   d->fxState[i].offset = offset;
   d->fxState[i].size = size;
   d->fxState[i].nRepeats = 0;
   d->fxState[i].repeatLen = 0;
}

/* At the first instruction |addr| of a function of |kind|: the
   arguments go to heap_entered, and the registers a stack trace starts
   from are made exact first (the guest's own values at this point). */
static void add_entry_hook(IRSB* sb, const VexGuestLayout* layout,
                           Addr addr, FnKind kind)
{
   IRDirty* d;
   IRExpr*  sp;
   IRExpr*  a0;
   IRExpr*  a1;
   IRExpr*  a2;
   addStmtToIRSB(sb, IRStmt_Put(layout->offset_IP, mkIRExpr_HWord(addr)));
   sp = get_reg(sb, layout->offset_SP);
   a0 = get_arg(sb, sp, 0);
   a1 = get_arg(sb, sp, 1);
   a2 = get_arg(sb, sp, 2);
   d = unsafeIRDirty_0_N(0, "heap_entered",
                         VG_(fnptr_to_fnentry)(heap_entered),
                         mkIRExprVec_5(mkIRExpr_HWord(kind), sp, a0, a1,
                                       a2));
   d->nFxState = 3;
   reads_reg(d, 0, layout->offset_IP, layout->sizeof_IP);
   reads_reg(d, 1, layout->offset_SP, layout->sizeof_SP);
   reads_reg(d, 2, layout->offset_FP, layout->sizeof_FP);
   addStmtToIRSB(sb, IRStmt_Dirty(d));
}

/* At the end of a superblock that returns: heap_returned, only when
   some call is pending. */
static void add_return_hook(IRSB* sb, const VexGuestLayout* layout)
{
   IRTemp   count = newIRTemp(sb->tyenv, Ity_I64);
   IRTemp   any = newIRTemp(sb->tyenv, Ity_I1);
   IRExpr*  sp = get_reg(sb, layout->offset_SP);
   IRExpr*  result = get_reg(sb, GUEST_OFF(RESULT_REG));
   IRDirty* d;
   addStmtToIRSB(sb, IRStmt_WrTmp(count, IRExpr_Load(Iend_LE, Ity_I64,
                                  mkIRExpr_HWord((HWord)&WS_(heap_calls)))));
   addStmtToIRSB(sb, IRStmt_WrTmp(any, IRExpr_Binop(Iop_CmpNE64,
                                  IRExpr_RdTmp(count), IRExpr_Const(
                                  IRConst_U64(0)))));
   d = unsafeIRDirty_0_N(0, "heap_returned",
                         VG_(fnptr_to_fnentry)(heap_returned),
                         mkIRExprVec_3(sp, sb->next, result));
   d->guard = IRExpr_RdTmp(any);
   addStmtToIRSB(sb, IRStmt_Dirty(d));
}

/* The core's instrumentation pass (WS_(add_instrument_pass)), which
   runs after the core's own IR, so that ws never counts the hooks: a
   helper call at the entry of every allocation function of the C and
   C++ runtimes, and one (guarded inline, so nearly free) at each
   return in them.  The guest executes exactly the instructions it would
   without ws; the hooks only read. */
static IRSB* heap_instrument(IRSB* sb, const VexGuestLayout* layout,
                             const VexGuestExtents* vge)
{
   DiEpoch ep;
   IRSB*   out;
   Int     i;
   Bool    any_entry = False;

   if (!in_allocator_library(vge->base[0]))
      return sb;
   ep = VG_(current_DiEpoch)();
   /* Most superblocks of libc hold no function entry we follow and do
      not return: leave them as they are. */
   for (i = 0; i < sb->stmts_used && !any_entry; i++) {
      const HChar* name;
      IRStmt* st = sb->stmts[i];
      if (st->tag == Ist_IMark
          && VG_(get_fnname_if_entry)(ep, st->Ist.IMark.addr, &name)
          && kind_of_function(name) != Fn_None)
         any_entry = True;
   }
   if (!any_entry && sb->jumpkind != Ijk_Ret)
      return sb;

   out = deepCopyIRSBExceptStmts(sb);
   for (i = 0; i < sb->stmts_used; i++) {
      const HChar* name;
      IRStmt* st = sb->stmts[i];
      addStmtToIRSB(out, st);
      if (any_entry && st->tag == Ist_IMark
          && VG_(get_fnname_if_entry)(ep, st->Ist.IMark.addr, &name)) {
         FnKind kind = kind_of_function(name);
         if (kind != Fn_None)
            add_entry_hook(out, layout, st->Ist.IMark.addr, kind);
      }
   }
   if (sb->jumpkind == Ijk_Ret)
      add_return_hook(out, layout);
   return out;
}

/*------------------------------------------------------------*/
/*--- Start-up and statistics                              ---*/
/*------------------------------------------------------------*/

void WS_(heap_init)(void)
{
   if (!WS_(clo).heap)
      return;
   WS_(add_instrument_pass)(heap_instrument);
   WS_(listen)(WS_EvSample, forget_freed);
   WS_(out_sample_column)("heap", WS_(heap_live_bytes));
   blocks = new_interval_set("ws.heap.blocks");
   arenas = new_interval_set("ws.heap.arenas");
   freed = VG_(newXA)(VG_(malloc), "ws.heap.freed", VG_(free),
                      sizeof(Interval));
   pending = VG_(calloc)("ws.heap.pending", VG_N_THREADS, sizeof(Pending));
   trace = VG_(malloc)("ws.heap.trace",
                       (VG_(clo_backtrace_size) + 1) * sizeof(Addr));
}

void WS_(heap_print_stats)(void)
{
   if (!WS_(clo).heap)
      return;
   VG_(message)(Vg_DebugMsg, "ws heap: %llu blocks allocated, %llu freed, "
                "%u live\n", stats.allocs, stats.frees,
                VG_(OSetGen_Size)(blocks));
   VG_(message)(Vg_DebugMsg, "ws heap: %llu nested allocation calls, "
                "%llu frees of no known block, %llu blocks overlapped "
                "by a newer one, %llu calls that never returned\n",
                stats.nested, stats.unknown_frees, stats.replaced,
                stats.dropped);
}

/*--------------------------------------------------------------------*/
/*--- end                                                ws_heap.c ---*/
/*--------------------------------------------------------------------*/

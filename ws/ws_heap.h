/*--------------------------------------------------------------------*/
/*--- ws: heap blocks, the rest of the interface.      ws_heap.h ---*/
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

/* What ws_heap.c and ws_owners.c offer beyond the heap interface of
   ws_global.h: the hook ws_main.c chains after the instrumentation, the
   questions ws_owners.c asks, an owner as text, and the --stats=yes
   lines. */

#ifndef __WS_HEAP_H
#define __WS_HEAP_H

#include "ws_global.h"

/* Adds the heap hooks to a superblock that has already been through
   WS_(instrument): a helper call at the entry of every allocation
   function of the C and C++ runtimes, and one (guarded inline, so
   nearly free) at each return in them.  The guest executes exactly
   the instructions it would without ws; the hooks only read.  Returns
   |sb| itself when the superblock needs no hook. */
IRSB* WS_(heap_instrument)(IRSB* sb, const VexGuestLayout* layout,
                           const VexGuestExtents* vge);

/* The heap block that held |a| when the sample of sequence number
   |sample| (WS_(sample_seq)) was taken: a live block then, or one freed
   by then whose pages may still be in a window.  True and |o| filled in
   (WS_OwnHeap or WS_OwnFreed), or False. */
Bool WS_(heap_owner_at)(Addr a, ULong sample, WS_Owner* o);

/* The first block that starts in [from, to) and was live at the sample
   |sample|, else the latest freed block made by then that overlaps
   [from, to): True and |o| filled in, or False. */
Bool WS_(heap_block_in)(Addr from, Addr to, ULong sample, WS_Owner* o);

/* Whether |a| lies in memory the allocator manages (the brk heap, or
   an anonymous mapping in which ws has seen blocks: an arena). */
Bool WS_(heap_arena_contains)(Addr a);

/* Whether thread |tid| is inside an allocation function (malloc, free,
   operator new, ...): its accesses are the allocator's own. */
Bool WS_(heap_in_allocator)(ThreadId tid);

/* The "heap:" lines of --stats=yes. */
void WS_(heap_print_stats)(void);

/* The usage of the live block containing |a| (NULL if none, or
   --ws-heap-usage=no); |fn| on the usage of each live block that
   overlaps [from, to), in address order; on every live block's. */
WS_ChunkUse* WS_(heap_use_of)(Addr a);
void WS_(heap_for_blocks_in)(Addr from, Addr to,
                             void (*fn)(WS_ChunkUse* use, void* opaque),
                             void* opaque);
void WS_(heap_for_each_block)(void (*fn)(WS_ChunkUse* use, void* opaque),
                              void* opaque);

/*------------------------------------------------------------*/
/*--- Heap usage (ws_heapuse.c, ws_heapsites.c)            ---*/
/*------------------------------------------------------------*/

/* ws_heap.c's hooks: a block was allocated (its usage record is
   returned, for the block to keep), or freed or overlapped by a newer
   one. */
WS_ChunkUse* WS_(heapuse_alloc)(Addr block, SizeT size, ExeContext* site);
void WS_(heapuse_free)(WS_ChunkUse* use);
/* At exit, before the trailer's heap-site lines: the live blocks end
   now. */
void WS_(heapuse_end_live)(void);
/* The trailer's heap-site lines (with their stack blocks). */
void WS_(heapsites_trailer)(void);
/* For the |n_sites| heap owners a data peak's owner lines name: each
   site's live bytes, and how many of them lie on |pages| (the window's
   page numbers at the peak, in address order), in |live| and |window|.
   False (nothing filled in) if heap usage is not followed. */
Bool WS_(heapsites_window)(const struct _XArray* pages,
                           ExeContext* const* sites, UInt n_sites,
                           ULong* live, ULong* window);
/* What sites are ranked by (docs/manual.md, "Heap usage"), in the
   order of WS_HEAP_KEYS. */
typedef enum { WS_KeyUsage, WS_KeyUseful, WS_KeyBytes, WS_KeyNever }
   WS_HeapKey;
#define WS_HEAP_KEYS "usage useful bytes never"
/* "ws heap [<n>] [<key>]": the |n| worst sites by |key|, on the
   gdb/vgdb output. */
void WS_(heapsites_monitor)(ULong n, WS_HeapKey key);
void WS_(heapuse_print_stats)(void);

#endif /* __WS_HEAP_H */

/*--------------------------------------------------------------------*/
/*--- end                                                ws_heap.h ---*/
/*--------------------------------------------------------------------*/

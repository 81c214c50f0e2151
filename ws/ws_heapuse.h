/*--------------------------------------------------------------------*/
/*--- ws: heap usage, what its two files share.     ws_heapuse.h ---*/
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

/* ws_heapuse.c follows how the program uses each heap chunk from its
   allocation to its free and sums it up per allocation site;
   ws_heapsites.c writes the sums (the trailer's heap-site lines, "ws
   heap", the heap-window lines of a peak).  This is what they share:
   a site's sums, and the figures made from them. */

#ifndef __WS_HEAPUSE_H
#define __WS_HEAPUSE_H

#include "ws_heap.h"

/* What one allocation site did with its chunks: sums over the chunks
   that ended (freed, or live at exit once the trailer is written). */
typedef struct {
   ULong  chunks;       /* chunks allocated, ended or not */
   ULong  bytes;        /* bytes asked for, ended or not */
   ULong  live;         /* bytes of its live chunks now */
   ULong  live_chunks;
   ULong  peak_live;    /* the most |live| has been */
   /* Over the ended chunks: */
   ULong  ended;
   ULong  ended_bytes;
   ULong  touched;      /* bytes on pages accessed while they lived */
   ULong  never;        /* chunks never accessed */
   ULong  never_bytes;
   ULong  read_only;    /* chunks read and never written */
   ULong  write_only;   /* chunks written and never read */
   ULong  threads;      /* chunks accessed by more than one thread */
   ULong  lifetime;     /* sum of (end - allocation) */
   ULong  first_delay;  /* over the accessed chunks: sum of (first
                           access - allocation) */
   ULong  idle_tail;    /* ... sum of (end - last access) */
   Double useful;       /* sum of (last - first access) / lifetime; 0
                           for a chunk never accessed */
   ULong  exit_live;    /* chunks that ended at exit */
} WS_SiteSums;

typedef struct {
   ExeContext* site;
   WS_SiteSums sums;
} WS_SiteUse;

/* The sites with a chunk so far (|*n| of them), in no order, their
   live chunks counted as if they ended now (at exit: they have
   ended).  Freed with VG_(free). */
WS_SiteUse* WS_(heapuse_sites)(UInt* n);
/* What ws_heap.c knows of a chunk too. */
void WS_(heapuse_chunk)(const WS_ChunkUse* c, Addr* start, SizeT* size,
                        ExeContext** site);
/* The live bytes of |site| now (0 if it has none). */
ULong WS_(heapuse_live_bytes)(ExeContext* site);

/* The bytes a site wastes by |key|, its rank: never touched (usage),
   idle (useful: bytes x (1 - useful)), allocated (bytes), in chunks
   never touched (never). */
ULong WS_(heapuse_rank_value)(const WS_SiteSums* s, WS_HeapKey key);
/* Sorts |sites| worst first by |key| (ties: more bytes first, then by
   stack number, so that the order does not depend on addresses). */
void  WS_(heapuse_sort)(WS_SiteUse* sites, UInt n, WS_HeapKey key);
/* A fraction in thousandths, rounded: usage, and the mean useful
   lifetime. */
ULong WS_(heapuse_usage_milli)(const WS_SiteSums* s);
ULong WS_(heapuse_useful_milli)(const WS_SiteSums* s);
/* The means of a site's times (0 when there is nothing to average). */
ULong WS_(heapuse_mean)(ULong sum, ULong n);

#endif /* __WS_HEAPUSE_H */

/*--------------------------------------------------------------------*/
/*--- end                                             ws_heapuse.h ---*/
/*--------------------------------------------------------------------*/

/*--------------------------------------------------------------------*/
/*--- ws: page tables.                            ws_pagetable.c ---*/
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

/* Owns the two-level tables that map a page number to its stamp (or,
   for ws_records.c, to a record of another size).  The layout is shared
   with ws_instrument.c, which walks it inline; this file only creates
   chunks and visits slots.  It knows nothing of windows or time.

   The first level always has 2^WS_L1_BITS slots, so the chunk size
   follows the page size: a chunk covers 2^(47-17) bytes = 1 GiB of
   address space on amd64 whatever the page size, 2^(32-12) = 1 MiB on
   x86 (more at pages above 16 KiB, ws_core.h).  Chunks are anonymous mappings, so
   the kernel backs only the parts of them whose pages are touched:
   the table's resident size grows with the pages the program uses,
   not with the address range it spans. */

#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"

#include "ws_core.h"

/* The chunk all unused slots of non-sparse tables of one chunk size
   share (page and line tables differ).  It is never written, so every
   lookup through it reads WS_STAMP_NEVER. */
static Stamp* zero_chunks[WS_ADDR_BITS];

static UInt chunk_bits_for(UInt shift)
{
   Int bits = WS_ADDR_BITS - WS_L1_BITS - (Int)shift;
   return bits < WS_BLOCK_SHIFT ? WS_BLOCK_SHIFT : (UInt)bits;
}

static SizeT chunk_bytes(const WS_PageTable* pt)
{
   return ((SizeT)1 << pt->chunk_bits) * pt->elem_size;
}

static void* new_chunk(const WS_PageTable* pt)
{
   void* c = VG_(am_shadow_alloc)(chunk_bytes(pt));
   if (c == NULL)
      VG_(out_of_memory_NORETURN)("ws.pagetable.chunk", chunk_bytes(pt));
   return c;   /* fresh anonymous memory reads as zero */
}

void WS_(pt_init)(WS_PageTable* pt, Bool sparse, Stamp** l1_storage)
{
   WS_(pt_init_at)(pt, sparse, l1_storage, WS_(page_shift)());
}

void WS_(pt_init_at)(WS_PageTable* pt, Bool sparse, Stamp** l1_storage,
                     UInt shift)
{
   UInt i;
   Stamp** zero_chunk;
   pt->elem_size = sizeof(Stamp);
   pt->span = NULL;
   pt->used = NULL;
   pt->n_used = 0;
   pt->blocks = NULL;
   pt->chunk_bits = chunk_bits_for(shift);
   pt->owns_l1 = l1_storage == NULL;
   pt->l1 = l1_storage ? l1_storage
                       : VG_(am_shadow_alloc)(WS_L1_ENTRIES * sizeof(Stamp*));
   if (pt->l1 == NULL)
      VG_(out_of_memory_NORETURN)("ws.pagetable.l1",
                                  WS_L1_ENTRIES * sizeof(Stamp*));
   if (sparse)
      return;   /* zero-filled: all slots NULL */
   zero_chunk = &zero_chunks[pt->chunk_bits];
   if (*zero_chunk == NULL)
      *zero_chunk = new_chunk(pt);
   for (i = 0; i < WS_L1_ENTRIES; i++)
      pt->l1[i] = *zero_chunk;
}

void WS_(pt_init_records)(WS_PageTable* pt, SizeT record_size)
{
   pt->elem_size = record_size;
   pt->span = NULL;
   pt->used = NULL;
   pt->n_used = 0;
   pt->blocks = NULL;
   pt->chunk_bits = chunk_bits_for(WS_(page_shift)());
   pt->owns_l1 = True;
   pt->l1 = VG_(am_shadow_alloc)(WS_L1_ENTRIES * sizeof(Stamp*));
   if (pt->l1 == NULL)
      VG_(out_of_memory_NORETURN)("ws.pagetable.l1",
                                  WS_L1_ENTRIES * sizeof(Stamp*));
}

static SizeT bookkeeping_bytes(void)
{
   return 3 * WS_L1_ENTRIES * sizeof(UInt);
}

static SizeT block_bytes(const WS_PageTable* pt)
{
   return ((SizeT)1 << (pt->chunk_bits - WS_BLOCK_SHIFT)) * sizeof(Stamp);
}

static Bool is_unused(const WS_PageTable* pt, const Stamp* chunk)
{
   return chunk == NULL || chunk == zero_chunks[pt->chunk_bits];
}

void WS_(pt_free)(WS_PageTable* pt)
{
   UInt k;
   if (pt->l1 == NULL)
      return;
   for (k = 0; k < pt->n_used; k++) {
      UInt i = pt->used[k];
      VG_(am_munmap_valgrind)((Addr)pt->l1[i], chunk_bytes(pt));
      if (pt->blocks != NULL && pt->blocks[i] != NULL)
         VG_(am_munmap_valgrind)((Addr)pt->blocks[i], block_bytes(pt));
   }
   if (pt->blocks != NULL)
      VG_(am_munmap_valgrind)((Addr)pt->blocks,
                              WS_L1_ENTRIES * sizeof(Stamp*));
   if (pt->owns_l1)
      VG_(am_munmap_valgrind)((Addr)pt->l1, WS_L1_ENTRIES * sizeof(Stamp*));
   if (pt->span != NULL)
      VG_(am_munmap_valgrind)((Addr)pt->span, bookkeeping_bytes());
   pt->l1 = NULL;
   pt->span = NULL;
   pt->used = NULL;
   pt->n_used = 0;
   pt->blocks = NULL;
}

static UInt l1_index(const WS_PageTable* pt, Addr page)
{
   return (UInt)((page >> pt->chunk_bits) & (WS_L1_ENTRIES - 1));
}

static UWord l2_index(const WS_PageTable* pt, Addr page)
{
   return page & (((UWord)1 << pt->chunk_bits) - 1);
}

Stamp* WS_(pt_slot)(WS_PageTable* pt, Addr page)
{
   return WS_(pt_record)(pt, page);
}

/* A walk by window tests a block's stamp before its pages'.  Stamps
   only grow, so the latest stamp written in a block is its largest,
   and a block whose largest is older than the window holds none of
   its pages.  A walk then costs the blocks of the used span plus the
   pages of the blocks touched in the window, not the whole span (a
   peak's breakdown runs one; on xz the span was ten times the
   window). */
void WS_(pt_track_windows)(WS_PageTable* pt)
{
   tl_assert(pt->elem_size == sizeof(Stamp) && pt->n_used == 0);
   pt->blocks = VG_(am_shadow_alloc)(WS_L1_ENTRIES * sizeof(Stamp*));
   if (pt->blocks == NULL)
      VG_(out_of_memory_NORETURN)("ws.pagetable.blocks",
                                  WS_L1_ENTRIES * sizeof(Stamp*));
}

void WS_(pt_stamp)(WS_PageTable* pt, Stamp* slot, Addr page, Stamp s)
{
   UInt i;
   *slot = s;
   if (pt->blocks == NULL)
      return;
   i = l1_index(pt, page);
   if (pt->blocks[i] == NULL) {
      pt->blocks[i] = VG_(am_shadow_alloc)(block_bytes(pt));
      if (pt->blocks[i] == NULL)
         VG_(out_of_memory_NORETURN)("ws.pagetable.blocks", block_bytes(pt));
   }
   pt->blocks[i][l2_index(pt, page) >> WS_BLOCK_SHIFT] = s & WS_STAMP_MASK;
}

/* Bookkeeping for walks, allocated with a table's first chunk
   (untouched entries cost no memory): per chunk, the span of slots
   ever handed out (first, last + 1), so that a walk visits the part of
   a 1 GiB chunk a program used rather than all of it; and the chunks
   in use, in address order, so that it visits those and not the
   2^17 first-level slots, most of them empty (a walk runs at every
   peak). */
static void note_new_chunk(WS_PageTable* pt, UInt i)
{
   UInt k;
   if (pt->span == NULL) {
      pt->span = VG_(am_shadow_alloc)(bookkeeping_bytes());
      if (pt->span == NULL)
         VG_(out_of_memory_NORETURN)("ws.pagetable.span",
                                     bookkeeping_bytes());
      pt->used = pt->span + 2 * WS_L1_ENTRIES;
   }
   for (k = pt->n_used; k > 0 && pt->used[k - 1] > i; k--)
      pt->used[k] = pt->used[k - 1];
   pt->used[k] = i;
   pt->n_used++;
}

static void note_used(WS_PageTable* pt, UInt i, UWord j)
{
   if (pt->span[2 * i + 1] == 0) {
      pt->span[2 * i] = (UInt)j;
      pt->span[2 * i + 1] = (UInt)j + 1;
   } else if (j < pt->span[2 * i]) {
      pt->span[2 * i] = (UInt)j;
   } else if (j >= pt->span[2 * i + 1]) {
      pt->span[2 * i + 1] = (UInt)j + 1;
   }
}

void* WS_(pt_record)(WS_PageTable* pt, Addr page)
{
   UInt  i = l1_index(pt, page);
   UWord j = l2_index(pt, page);
   if (is_unused(pt, pt->l1[i])) {
      pt->l1[i] = new_chunk(pt);
      note_new_chunk(pt, i);
   }
   note_used(pt, i, j);
   return (UChar*)pt->l1[i] + j * pt->elem_size;
}

void* WS_(pt_record_if_any)(const WS_PageTable* pt, Addr page)
{
   UInt i = l1_index(pt, page);
   if (is_unused(pt, pt->l1[i]))
      return NULL;
   return (UChar*)pt->l1[i] + l2_index(pt, page) * pt->elem_size;
}

void WS_(pt_for_range)(WS_PageTable* pt, Addr first, Addr last,
                       void (*fn)(Stamp* slot, Addr page, void* opaque),
                       void* opaque)
{
   UInt k;
   for (k = 0; k < pt->n_used; k++) {
      UInt   i = pt->used[k];
      Stamp* chunk = pt->l1[i];
      Addr   base = (Addr)i << pt->chunk_bits;
      Addr   from = base + pt->span[2 * i], to = base + pt->span[2 * i + 1];
      Addr   p;
      if (from < first)
         from = first;
      for (p = from; p < to && p <= last; p++)
         fn((Stamp*)((UChar*)chunk + l2_index(pt, p) * pt->elem_size),
            p, opaque);
   }
}

/* Calls |fn| on the slots [from, to) of chunk |i| whose stamp is in
   the window.  The stamps are tested here, not in |fn|: most slots
   are out of the window, and a call per slot would cost more than the
   walk. */
static void window_slots(WS_PageTable* pt, UInt i, UWord from, UWord to,
                         Stamp first,
                         void (*fn)(Stamp* slot, Addr page, void* opaque),
                         void* opaque)
{
   Stamp* chunk = pt->l1[i];
   UWord  j;
   for (j = from; j < to; j++) {
      Stamp st = chunk[j] & WS_STAMP_MASK;
      if (st != WS_STAMP_NEVER && st >= first)
         fn(&chunk[j], ((Addr)i << pt->chunk_bits) | j, opaque);
   }
}

void WS_(pt_for_window)(WS_PageTable* pt, Stamp first,
                        void (*fn)(Stamp* slot, Addr page, void* opaque),
                        void* opaque)
{
   UInt k;
   tl_assert(pt->elem_size == sizeof(Stamp));
   for (k = 0; k < pt->n_used; k++) {
      UInt   i = pt->used[k];
      UWord  from = pt->span[2 * i], to = pt->span[2 * i + 1], b;
      Stamp* blocks = pt->blocks ? pt->blocks[i] : NULL;
      if (blocks == NULL) {
         /* Untracked, or no stamp written yet (the chunk was only
            read): the span itself. */
         if (pt->blocks == NULL)
            window_slots(pt, i, from, to, first, fn, opaque);
         continue;
      }
      for (b = from >> WS_BLOCK_SHIFT; b <= (to - 1) >> WS_BLOCK_SHIFT; b++) {
         UWord lo = b << WS_BLOCK_SHIFT, hi = lo + WS_BLOCK_PAGES;
         if (blocks[b] == WS_STAMP_NEVER || blocks[b] < first)
            continue;
         window_slots(pt, i, lo < from ? from : lo, hi > to ? to : hi,
                      first, fn, opaque);
      }
   }
}

void WS_(pt_for_all)(WS_PageTable* pt,
                     void (*fn)(Stamp* slot, Addr page, void* opaque),
                     void* opaque)
{
   WS_(pt_for_range)(pt, 0, ((Addr)1 << (WS_ADDR_BITS - WS_(page_shift)())) - 1,
                     fn, opaque);
}

/*--------------------------------------------------------------------*/
/*--- end                                           ws_pagetable.c ---*/
/*--------------------------------------------------------------------*/

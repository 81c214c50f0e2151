/*--------------------------------------------------------------------*/
/*--- ws: what the core knows of each page.          ws_records.c ---*/
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

/* Owns each page's record beyond its stamp (ws_core.h says what it
   holds): how often it was accessed, which instruction touched it
   first, and the byte through which it last entered the window, the
   instruction that reached it and which entry that was.  It
   ranks nothing (hot pages are ws_hot.c's) and names nothing (owners
   are ws_owners.c's).

   The counts cost the fast path one add each, never a call: a code
   page's counter has a fixed address, known when the superblock is
   instrumented (its code slot's, ws_codeslots.c, or, when it found no
   slot left, the one in its record here), and the instructions of
   each exit-free stretch are added to it at once; a data access adds
   to its data TLB entry, and the entry's sum reaches the page's record
   here when the entry is refilled or emptied (ws_dtlb.c).  So the
   records are exact once WS_(flush_access_counts) has run, which
   moves the code slots' counts too.

   Records live in page tables of their own (ws_pagetable.c), created
   sparse: a chunk exists only where pages were touched. */

#include "pub_tool_basics.h"

#include "ws_core.h"

static WS_PageTable records[2];
static Bool         records_ready = False;

static WS_PageRecord* record(WS_Kind kind, Addr page)
{
   if (!records_ready) {
      WS_(pt_init_records)(&records[WS_Insn], sizeof(WS_PageRecord));
      WS_(pt_init_records)(&records[WS_Data], sizeof(WS_PageRecord));
      records_ready = True;
   }
   return WS_(pt_record)(&records[kind], page);
}

static const WS_PageRecord* record_if_any(WS_Kind kind, Addr page)
{
   return records_ready ? WS_(pt_record_if_any)(&records[kind], page) : NULL;
}

ULong* WS_(access_counter)(WS_Kind kind, Addr page)
{
   return &record(kind, page)->accesses;
}

void WS_(add_accesses)(Addr page, ULong n)
{
   record(WS_Data, page)->accesses += n;
}

void WS_(first_touch)(WS_Kind kind, Addr page, Addr ip)
{
   WS_PageRecord* r = record(kind, page);
   if (r->first_ip == 0)
      r->first_ip = ip;
}

ULong WS_(entries)[2];

void WS_(entered_window)(WS_Kind kind, Addr page, Addr ip, Addr a)
{
   WS_PageRecord* r = record(kind, page);
   r->entry = a;
   r->entry_ip = ip;
   r->entry_number = ++WS_(entries)[kind];
}

Addr WS_(entry_byte)(WS_Kind kind, Addr page)
{
   const WS_PageRecord* r = record_if_any(kind, page);
   return r ? r->entry : 0;
}

Addr WS_(entry_ip)(WS_Kind kind, Addr page, ULong* number)
{
   const WS_PageRecord* r = record_if_any(kind, page);
   *number = r ? r->entry_number : 0;
   return r ? r->entry_ip : 0;
}

ULong WS_(page_accesses)(WS_Kind kind, Addr page)
{
   const WS_PageRecord* r = record_if_any(kind, page);
   return r ? r->accesses : 0;
}

Addr WS_(page_first_ip)(WS_Kind kind, Addr page)
{
   const WS_PageRecord* r = record_if_any(kind, page);
   return r ? r->first_ip : 0;
}

typedef struct {
   void (*visit)(const WS_PageRecord* r, Addr page, void* opaque);
   void* opaque;
} RecordWalk;

static void visit_record(Stamp* slot, Addr page, void* opaque)
{
   const RecordWalk* w = opaque;
   w->visit((const WS_PageRecord*)slot, page, w->opaque);
}

void WS_(for_each_record)(WS_Kind kind,
                          void (*visit)(const WS_PageRecord* r, Addr page,
                                        void* opaque),
                          void* opaque)
{
   RecordWalk w = { visit, opaque };
   if (records_ready)
      WS_(pt_for_all)(&records[kind], visit_record, &w);
}

/*--------------------------------------------------------------------*/
/*--- end                                              ws_records.c ---*/
/*--------------------------------------------------------------------*/

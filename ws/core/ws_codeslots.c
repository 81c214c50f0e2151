/*--------------------------------------------------------------------*/
/*--- ws: the code pages' slots.                    ws_codeslots.c ---*/
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

/* Owns the table of code-page slots that the IR of every superblock
   reads and adds to (ws_core.h says what a slot holds).  A code page
   gets a slot the first time a superblock on it is instrumented, for
   good, while slots are left; a page that gets none is checked and
   counted through its page-table stamp and its page record, as every
   page was before (ws_instrument.c).

   The page table stays the truth: a slot's stamp is a copy of the
   page's, written wherever that is (WS_(code_slot_stamp), from
   ws_window.c), so a check that finds it current is one that would
   find the page table's current.  A slot's count moves to the page's
   record (ws_records.c) when anything is about to read the records
   (WS_(flush_access_counts)). */

#include "pub_tool_basics.h"

#include "ws_core.h"

WS_CodeSlot WS_(code_slots)[WS_CODE_SLOTS];
UInt        WS_(code_lines)[WS_CODE_SLOTS << WS_MAX_INLINE_LPP_SHIFT];

/* The slots given out, 0 .. n_slots - 1, and the record counter of
   each one's page (records never move). */
static UInt   n_slots = 0;
static ULong* slot_record[WS_CODE_SLOTS];
Addr          WS_(code_slot_page)[WS_CODE_SLOTS];

/* Per code page: its slot's index + 1; 0 while it has none; NO_SLOT
   once it was refused one (so that it is counted once). */
#define NO_SLOT  0xFFFFFFFFu
static WS_PageTable slot_of;
static Bool         slot_of_ready = False;

WS_CodeSlot* WS_(code_slot)(Addr page)
{
   UInt* idx;
   if (!slot_of_ready) {
      WS_(pt_init_records)(&slot_of, sizeof(UInt));
      slot_of_ready = True;
   }
   idx = WS_(pt_record)(&slot_of, page);
   if (*idx == NO_SLOT)
      return NULL;
   if (*idx == 0) {
      if (n_slots == WS_CODE_SLOTS) {
         *idx = NO_SLOT;
         WS_(counters).insn_unslotted++;
         return NULL;
      }
      slot_record[n_slots] = WS_(access_counter)(WS_Insn, page);
      WS_(code_slot_page)[n_slots] = page;
      WS_(code_slots)[n_slots].stamp
         = *WS_(pt_slot)(&WS_(tables)[WS_Insn], page);
      *idx = ++n_slots;
   }
   return &WS_(code_slots)[*idx - 1];
}

void WS_(code_slot_stamp)(Addr page, Stamp s)
{
   const UInt* idx;
   if (!slot_of_ready)
      return;
   idx = WS_(pt_record_if_any)(&slot_of, page);
   if (idx != NULL && *idx != 0 && *idx != NO_SLOT)
      WS_(code_slots)[*idx - 1].stamp = s;
}

/* Counts made while measurement is off (by code instrumented while
   on, ws_sampler.c) are dropped. */
void WS_(flush_code_counts)(void)
{
   UInt i;
   for (i = 0; i < n_slots; i++) {
      if (WS_(measuring))
         *slot_record[i] += WS_(code_slots)[i].accesses;
      WS_(code_slots)[i].accesses = 0;
   }
}

UInt WS_(code_slots_used)(void)
{
   return n_slots;
}

/*--------------------------------------------------------------------*/
/*--- end                                            ws_codeslots.c ---*/
/*--------------------------------------------------------------------*/

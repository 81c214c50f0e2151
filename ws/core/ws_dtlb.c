/*--------------------------------------------------------------------*/
/*--- ws: the data TLB and the slow paths.              ws_dtlb.c ---*/
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

/* Owns the data TLB (ws_core.h says what an entry holds), the watch on
   data accesses, the records of checks that count several accesses,
   and the helpers the instrumented code calls on its slow path: when a data check finds
   its TLB entry stale (the entry is refilled, and the pages touched),
   or a code check finds its page's stamp stale (the page is
   re-stamped).  These run at most once per page per epoch, but for
   the checks that cross a page boundary (the crossing cache below).
   "Miss" is not a word of this file: a working-set miss is a page
   entering the next sample's window (ws_clock.c, ws_misses.c). */

#include "pub_tool_basics.h"
#include "pub_tool_hashtable.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_threadstate.h"

#include "ws_core.h"

WS_DtlbEntry WS_(dtlb)[WS_DTLB_ENTRIES];
UChar        WS_(dtlb_lines)[WS_DTLB_LINE_FLAGS];
UChar        WS_(dtlb_no_line);

/* The watch (ws_core.h): its masks and hooks, and the marks. */
static Bool     watching = False;
static WS_Watch watch;
static void   (*watch_settled)(Addr page) = NULL;
WS_PageTable    WS_(watch_marks);

void WS_(watch_accesses)(const WS_Watch* w)
{
   watch = *w;
   watching = True;
   WS_(pt_init_records)(&WS_(watch_marks), 1);
}

void WS_(watch_settling)(void (*settled)(Addr page))
{
   watch_settled = settled;
}

void WS_(watch_kernel)(Addr a, SizeT size, WS_AccessKind kind, ThreadId tid)
{
   if (watching && WS_(measuring))
      watch.kernel_access(a, size, kind, tid);
}

/* Whether a mark on |page| asks to wake the watcher. */
static inline Bool wakes(Addr page)
{
   const UChar* m = WS_(watch_mark)(page);
   return m != NULL && (*m & watch.wake);
}

/* Whether a mark on |page| asks the watcher to hear of its lines. */
static inline Bool wants_lines(Addr page)
{
   const UChar* m;
   if (!watching || watch.lines == 0)
      return False;
   m = WS_(watch_mark)(page);
   return m != NULL && (*m & watch.lines);
}

/* The entries filled since the TLB was last emptied, so that emptying
   it costs what the epoch used, not the TLB's size. */
static UInt dtlb_filled[WS_DTLB_ENTRIES];
static UInt dtlb_n_filled = 0;

/* An access (or a check's range) that crosses a page boundary can
   never match the data TLB, so every run of its check calls
   data_refill, not only the first in an epoch.  Such checks are few but
   hot: an object that straddles two pages and is used in a loop, a
   group of fields read together.  Almost every such call repeats the
   last one of its check at the same address, so the call is
   remembered: until the TLB is next emptied (a new epoch, or an
   unmap), both pages stay current, and a repeat only has to refill
   the entry and move the accesses of the parts that end on the first
   page to that page's counter, found once. */
typedef struct {
   ULong  site;          /* the check (site_key) */
   Addr   a;
   ULong* first_counter; /* the first page's access counter */
   UInt   first_weight;  /* accesses of the parts ending on it */
   UInt   generation;    /* valid while it equals crossing_generation */
} Crossing;

#define WS_CROSSINGS 1024
static Crossing crossings[WS_CROSSINGS];
/* Bumped whenever the TLB is emptied, which forgets every crossing at
   once; 0 is never current, so the zeroed table starts out empty. */
static UInt     crossing_generation = 1;

static void forget_crossings(void)
{
   crossing_generation++;
   if (crossing_generation == 0) {
      /* After 2^32 emptyings a stale entry could look current again. */
      VG_(memset)(crossings, 0, sizeof crossings);
      crossing_generation = 1;
   }
}

/*------------------------------------------------------------*/
/*--- Entries                                              ---*/
/*------------------------------------------------------------*/

/* A line's flag holds the low byte of its index (the byte the IR
   stores, the index's own) when the line was touched, and that byte
   with its top bit flipped when not: the IR then stores a register it
   has, not a constant it would first load into one. */
static inline UChar unflagged(UInt idx)
{
   return (UChar)(idx ^ 0x80);
}

/* The same for 8 flags from |idx|, a multiple of 8. */
static inline ULong unflagged_word(UInt idx)
{
   return ((ULong)(idx & 0xF8) * 0x0101010101010101ULL
           + 0x0706050403020100ULL) ^ 0x8080808080808080ULL;
}

/* The flagged lines of 8 flags from |idx|, a multiple of 8, as the
   bits of a byte; the flags are reset.  A flag XOR its unflagged value
   is 0x80 when flagged, 0 when not. */
static inline UInt take_flag_word(ULong* w, UInt idx)
{
   ULong x = *w ^ unflagged_word(idx);
   if (x == 0)
      return 0;
   *w = unflagged_word(idx);
   return (UInt)((((x >> 7) & 0x0101010101010101ULL)
                  * 0x0102040810204080ULL) >> 56);
}

/* The lines an entry's page had flagged go to the line table, in the
   current epoch, in one move of the window per run of lines that had
   the same stamp; those flagged while measurement is off are
   dropped. */
static void settle_line_flags(WS_DtlbEntry* e, Addr page)
{
   UInt   shift = WS_(lpp_shift)(), n = 1u << shift, j;
   UInt   first = (UInt)(e - WS_(dtlb)) << shift;
   UChar* f = &WS_(dtlb_lines)[first];
   ULong  lines = 0;
   if (n >= 8) {
      for (j = 0; j < n; j += 8)
         lines |= (ULong)take_flag_word((ULong*)&f[j], first + j) << j;
   } else {
      for (j = 0; j < n; j++)
         if (f[j] != unflagged(first + j)) {
            f[j] = unflagged(first + j);
            lines |= 1ULL << j;
         }
   }
   if (lines != 0 && WS_(measuring) && page < WS_(beyond_user_space)()) {
      WS_(touch_lines)(WS_Data, page, lines);
      if (wants_lines(page))
         watch.lines_settled(page, lines);
   }
}

/* A code slot's line flags are set by the exits of the superblocks
   that ran on its page, which passed its check first: so in this epoch
   its stamp is the current one (flags set while off too: the helper
   gives it the current stamp then). */
static void settle_code_lines(void)
{
   UInt  i, j, lpp = 1u << WS_(lpp_shift)();
   ULong now = WS_(cur_stamp);
   for (i = 0; i < WS_(code_slots_used)(); i++) {
      UInt* f = &WS_(code_lines)[i << WS_MAX_INLINE_LPP_SHIFT];
      ULong lines = 0;
      Addr  page;
      if (WS_(code_slots)[i].stamp != now)
         continue;
      page = WS_(code_slot_page)[i];
      for (j = 0; j < lpp; j++)
         if (f[j]) {
            f[j] = 0;
            lines |= 1ULL << j;
         }
      if (lines != 0 && WS_(measuring))
         WS_(touch_lines)(WS_Insn, page, lines);
   }
}

void WS_(settle_lines)(void)
{
   UInt i;
   if (!WS_(lines_inline)())
      return;
   for (i = 0; i < dtlb_n_filled; i++) {
      WS_DtlbEntry* e = &WS_(dtlb)[dtlb_filled[i]];
      if (WS_DTLB_PAGE(e) != WS_DTLB_EMPTY)
         settle_line_flags(e, WS_DTLB_PAGE(e));
   }
   settle_code_lines();
}

/* The accesses an entry counted go to its page's record before the
   entry changes; those counted while measurement is off (by code
   instrumented while on, ws_sampler.c) are dropped.  Its lines too,
   unless |lines_settled| (WS_(settle_lines) just ran). */
static void settle_entry(WS_DtlbEntry* e, Bool lines_settled)
{
   if (!lines_settled && WS_(lines_inline)()
       && WS_DTLB_PAGE(e) != WS_DTLB_EMPTY)
      settle_line_flags(e, WS_DTLB_PAGE(e));
   if (e->accesses != 0 && WS_(measuring)) {
      Addr page = WS_DTLB_PAGE(e);
      if (page < WS_(beyond_user_space)()) {
         WS_(add_accesses)(page, e->accesses);
         if (watch_settled != NULL)
            watch_settled(page);
      }
   }
   e->accesses = 0;
}

/*------------------------------------------------------------*/
/*--- Observing every access                               ---*/
/*------------------------------------------------------------*/

Bool WS_(observed)  = False;
Bool WS_(observing) = False;
static WS_Observer observer;

void WS_(observe_with)(const WS_Observer* o)
{
   observer = *o;
   WS_(observed) = True;
}

/* The groups (ws_core.h), in a hash table of nodes with VgHashNode's
   layout; a retranslation's replaces the one before. */
typedef struct GroupNode {
   struct GroupNode* next;
   UWord             key;
   Addr              ip;
   UInt              size, weight, kind, n_parts;
   WS_GroupPart      parts[0];
} GroupNode;

static VgHashTable* groups = NULL;

static UWord group_key(Addr ip, UInt size, UInt weight, WS_AccessKind kind)
{
   return ip * 31 + ((UWord)size << 4) + ((UWord)weight << 2) + kind;
}

static GroupNode* find_group(Addr ip, UInt size, UInt weight,
                             WS_AccessKind kind)
{
   GroupNode* g;
   if (groups == NULL || weight < 2)    /* one access: no group */
      return NULL;
   g = VG_(HT_lookup)(groups, group_key(ip, size, weight, kind));
   for (; g != NULL; g = g->next)
      if (g->ip == ip && g->size == size && g->weight == weight
          && g->kind == kind)
         return g;
   return NULL;
}

void WS_(note_group)(Addr ip, UInt size, UInt weight, WS_AccessKind kind,
                     const WS_GroupPart* parts, UInt n_parts)
{
   GroupNode* g = find_group(ip, size, weight, kind);
   if (g != NULL && g->n_parts == n_parts) {
      VG_(memcpy)(g->parts, parts, n_parts * sizeof *parts);
      return;
   }
   if (g != NULL) {
      VG_(HT_remove)(groups, g->key);
      VG_(free)(g);
   }
   if (groups == NULL)
      groups = VG_(HT_construct)("ws.observe.groups");
   g = VG_(malloc)("ws.observe.group",
                   sizeof *g + n_parts * sizeof *parts);
   g->key = group_key(ip, size, weight, kind);
   g->ip = ip;
   g->size = size;
   g->weight = weight;
   g->kind = kind;
   g->n_parts = n_parts;
   VG_(memcpy)(g->parts, parts, n_parts * sizeof *parts);
   VG_(HT_add_node)(groups, g);
}

/* Tells the observer of a check's accesses: each part of its group at
   its own instruction, or the whole range at the check's. */
static void observe_check(Addr a, SizeT size, UInt weight, Addr ip,
                          WS_AccessKind kind)
{
   GroupNode* g = find_group(ip, size, weight, kind);
   UInt i;
   if (g == NULL) {
      observer.data(a, size, ip, False);
      return;
   }
   for (i = 0; i < g->n_parts; i++)
      observer.data(a + g->parts[i].first,
                    g->parts[i].last - g->parts[i].first + 1,
                    g->parts[i].ip, g->parts[i].ip != ip);
}

/* Whether an access of |kind| to |page| would pass the entry that
   holds the page were every access not observed: no watch's mark on
   the page keeps that kind out of the TLB. */
static inline Bool passes_unobserved(Addr page, WS_AccessKind kind)
{
   const UChar* m;
   UChar kept;
   if (!watching)
      return True;
   m = WS_(watch_mark)(page);
   if (m == NULL)
      return True;
   kept = (kind & WS_Read ? watch.trap_read : 0)
          | (kind & WS_Write ? watch.trap_write : 0);
   return (*m & kept) == 0;
}

/* The entry holds |page|, with the kinds of access the watch's marks
   keep out of it trapped (every kind while observing). */
static void set_tags(WS_DtlbEntry* e, ULong page)
{
   const UChar* m;
   Bool observed = WS_(observing) && page != WS_DTLB_EMPTY;
   e->tag[0] = e->tag[1] = e->tag[2] = observed ? page | WS_DTLB_TRAP : page;
   if (observed || !watching || page == WS_DTLB_EMPTY
       || (m = WS_(watch_mark)(page)) == NULL)
      return;
   if (*m & watch.trap_read)
      e->tag[WS_Read - 1] |= WS_DTLB_TRAP;
   if (*m & watch.trap_write)
      e->tag[WS_Write - 1] |= WS_DTLB_TRAP;
   if (*m & (watch.trap_read | watch.trap_write))
      e->tag[WS_ReadWrite - 1] |= WS_DTLB_TRAP;
}

void WS_(dtlb_flush)(void)
{
   WS_(settle_lines)();
   WS_(dtlb_empty)();
}

void WS_(dtlb_empty)(void)
{
   UInt i;
   forget_crossings();
   for (i = 0; i < dtlb_n_filled; i++) {
      WS_DtlbEntry* e = &WS_(dtlb)[dtlb_filled[i]];
      settle_entry(e, True);
      set_tags(e, WS_DTLB_EMPTY);
   }
   dtlb_n_filled = 0;
}

/* Fills the entry for |page|: another page's count is moved to that
   page's record, a count of |page| itself stays in the entry (the
   helper is called for an entry that holds its page when a check's
   range crosses into it, or a kind of access is trapped). */
static void dtlb_fill(Addr page)
{
   UInt i = page & (WS_DTLB_ENTRIES - 1);
   WS_DtlbEntry* e = &WS_(dtlb)[i];
   Addr held = WS_DTLB_PAGE(e);
   if (held == WS_DTLB_EMPTY)
      dtlb_filled[dtlb_n_filled++] = i;
   else if (held != page)
      settle_entry(e, False);
   set_tags(e, page);
}

/* A check's range that crosses a page boundary: after this call the
   IR flags the lines of its first byte in the entry of its first page,
   which must then hold that page (touched in this epoch by now). */
static void fill_first(Addr first)
{
   WS_DtlbEntry* e = &WS_(dtlb)[first & (WS_DTLB_ENTRIES - 1)];
   if (WS_(lines_inline)() && WS_DTLB_PAGE(e) != first)
      dtlb_fill(first);
}

void WS_(dtlb_settle_page)(Addr page)
{
   WS_DtlbEntry* e = &WS_(dtlb)[page & (WS_DTLB_ENTRIES - 1)];
   if (WS_DTLB_PAGE(e) == page)
      settle_entry(e, False);
}

void WS_(flush_access_counts)(void)
{
   UInt i;
   for (i = 0; i < dtlb_n_filled; i++)
      settle_entry(&WS_(dtlb)[dtlb_filled[i]], False);
   WS_(flush_code_counts)();
}

void WS_(dtlb_refresh_page)(Addr page)
{
   WS_DtlbEntry* e = &WS_(dtlb)[page & (WS_DTLB_ENTRIES - 1)];
   if (WS_DTLB_PAGE(e) == page)
      set_tags(e, page);
}

void WS_(dtlb_init)(void)
{
   UInt i;
   for (i = 0; i < WS_DTLB_LINE_FLAGS; i++)
      WS_(dtlb_lines)[i] = unflagged(i);
   for (i = 0; i < WS_DTLB_ENTRIES; i++)
      set_tags(&WS_(dtlb)[i], WS_DTLB_EMPTY);
}

/*------------------------------------------------------------*/
/*--- Site records: checks that count several accesses     ---*/
/*------------------------------------------------------------*/

/* A hash-table node around a site record (VgHashNode's layout: next
   and key first). */
typedef struct SiteNode {
   struct SiteNode* next;
   UWord            key;
   WS_SiteRecord    record;     /* parts follow */
} SiteNode;

static VgHashTable* sites = NULL;

static Word same_site(const void* av, const void* bv)
{
   const WS_SiteRecord* a = &((const SiteNode*)av)->record;
   const WS_SiteRecord* b = &((const SiteNode*)bv)->record;
   if (a->ip != b->ip || a->size != b->size || a->n_parts != b->n_parts)
      return 1;
   return VG_(memcmp)(a->parts, b->parts,
                      a->n_parts * sizeof(WS_CheckPart)) != 0;
}

WS_SiteRecord* WS_(site_record)(Addr ip, UInt size,
                                const WS_CheckPart* parts, UInt n_parts)
{
   SizeT bytes = sizeof(SiteNode) + n_parts * sizeof(WS_CheckPart);
   SiteNode* n = VG_(malloc)("ws.hot.site", bytes);
   SiteNode* old;
   UWord key = ip * 31 + size;
   UInt i;
   n->record.ip = ip;
   n->record.size = size;
   n->record.n_parts = n_parts;
   n->record.weight = 0;
   for (i = 0; i < n_parts; i++) {
      n->record.parts[i] = parts[i];
      n->record.weight += parts[i].weight;
      key = key * 131 + parts[i].last * 7 + parts[i].weight;
   }
   n->key = key;
   if (sites == NULL)
      sites = VG_(HT_construct)("ws.hot.sites");
   old = VG_(HT_gen_lookup)(sites, n, same_site);
   if (old != NULL) {
      VG_(free)(n);
      return &old->record;
   }
   VG_(HT_add_node)(sites, n);
   return &n->record;
}

/* The check of |r| at |a| found its TLB entry stale with its range on
   two pages: its parts go to the pages of their last bytes. */
static void share_out(const WS_SiteRecord* r, Addr a)
{
   UInt i;
   for (i = 0; i < r->n_parts; i++)
      WS_(add_accesses)((a + r->parts[i].last) >> WS_(page_shift)(),
                        r->parts[i].weight);
}

/*------------------------------------------------------------*/
/*--- Refilling a data check's entry                       ---*/
/*------------------------------------------------------------*/

static Crossing* crossing_slot(ULong site, Addr a)
{
   return &crossings[(site ^ (site >> 12) ^ a ^ (a >> 12))
                     & (WS_CROSSINGS - 1)];
}

static void remember_crossing(Crossing* c, ULong site,
                              const WS_SiteRecord* r, Addr a)
{
   Addr first = a >> WS_(page_shift)();
   UInt i;
   c->site = site;
   c->a = a;
   c->generation = crossing_generation;
   c->first_weight = 0;
   c->first_counter = NULL;
   if (r != NULL) {
      for (i = 0; i < r->n_parts; i++)
         if ((a + r->parts[i].last) >> WS_(page_shift)() == first)
            c->first_weight += r->parts[i].weight;
      c->first_counter = WS_(access_counter)(WS_Data, first);
   }
}

/* A check's key for the crossings: its record's address, or its size,
   weight and instruction's address packed as amd64's site word packs
   them (on every platform: a key is 64 bits wide). */
static ULong site_key(const WS_SiteRecord* r, SizeT size, UInt weight,
                      Addr ip)
{
   if (r != NULL)
      return (1ULL << 63) | (HWord)r;
   return ((ULong)size << 50) | ((ULong)weight << 47) | (ULong)ip;
}

/* The entry filled is the page of the access's last byte: the one
   the inline code looks up and counts the check's accesses on.  It
   counts them before it compares the tag (so that the entry's offset
   is not live across this call), on whatever page the entry held: they
   are taken off before that page's count is settled, and put on the
   page(s) they belong to.  |kind|: what the accesses the check counts
   do.  |r|: the check's record, or NULL for a check of |size| bytes
   counting |weight| accesses at |ip|. */
static void data_refill_check(Addr a, const WS_SiteRecord* r, SizeT size,
                              UInt weight, Addr ip, WS_AccessKind kind)
{
   Addr  last, first;
   ULong site;
   WS_DtlbEntry* e;
   Crossing* c = NULL;
   Bool  lines_told = False;
   if (r != NULL) {
      size = r->size;
      ip = r->ip;
      weight = r->weight;
   }
   site = site_key(r, size, weight, ip);
   WS_(counters).data_refills++;
   first = a >> WS_(page_shift)();
   last = (a + size - 1) >> WS_(page_shift)();
   e = &WS_(dtlb)[last & (WS_DTLB_ENTRIES - 1)];
   e->accesses -= weight;
   if (UNLIKELY(WS_(beyond_reach)(a, size))) {
      /* It reaches beyond user space (or wraps): it faults, touching
         nothing.  It is counted on the entry of its last page, which
         then holds a page beyond user space (the same entry, the bit is
         above the index), whose accesses settle_entry drops; the
         entry of its first page too, for the lines the IR flags
         after this call. */
      dtlb_fill(last | WS_(beyond_user_space)());
      if (first != last && WS_(lines_inline)())
         dtlb_fill(first | WS_(beyond_user_space)());
      e->accesses += weight;
      return;
   }
   if (WS_(observing) && WS_(measuring)) {
      observe_check(a, size, weight, ip, kind);
      /* the entry held the page (the inline code counted the check):
         the tags only trapped it, and the rest is done as if they had
         not */
      if (first == last && WS_DTLB_PAGE(e) == last
          && passes_unobserved(last, kind)
          && WS_(check_flags_lines)(size)) {
         e->accesses += weight;
         return;
      }
   }
   /* A check whose lines the IR does not flag (WS_(check_flags_lines))
      calls on every run: its lines are touched here (and the watcher
      told, below, if it wants them). */
   if (WS_(measuring) && !WS_(check_flags_lines)(size)) {
      WS_(touch_line_range)(WS_Data, a, size);
      lines_told = wants_lines(first) || wants_lines(last);
   }
   /* A range of a page or more is rare and may span many pages: it
      is not remembered. */
   if (last == first + 1 && size <= WS_(page_size)()) {
      c = crossing_slot(site, a);
      /* Not while a mark on either page wakes the watcher. */
      if (c->generation == crossing_generation && c->site == site
          && c->a == a
          && !(watching && (wakes(first) || wakes(last) || lines_told))) {
         /* Tags follow the marks (WS_(dtlb_refresh_page)), so an entry
            that holds |last| already has the tags a fill would give
            it. */
         if (WS_DTLB_PAGE(e) != last)
            dtlb_fill(last);
         fill_first(first);
         if (c->first_counter != NULL)
            *c->first_counter += c->first_weight;
         e->accesses += weight - c->first_weight;
         return;
      }
   }
   if (!WS_(measuring)) {
      /* Instrumented code running while off (the stop emptied the TLB,
         so no crossing is remembered): the entry holds the page,
         untrapped, so that the next access passes inline; nothing is
         touched, and its count will be dropped.  The start empties the
         TLB (a new epoch). */
      dtlb_fill(last);
      e->tag[0] = e->tag[1] = e->tag[2] = WS_DTLB_PAGE(e);
      if (first != last)
         fill_first(first);
      return;
   }
   /* Before the pages' stamps change, which the watcher reads (heap
      usage, for the allocator's accesses).  Accesses of more than a
      page are rare: they may cover pages between the two ends. */
   if (watching && (*watch.all != 0 || wakes(first) || wakes(last)
                    || lines_told || size > WS_(page_size)()))
      watch.access(a, size, kind);
   WS_(touch_range)(WS_Data, a, size, ip);
   dtlb_fill(last);
   if (first != last && size <= WS_(page_size)())
      fill_first(first);
   if (r != NULL && last != first)
      share_out(r, a);
   else
      e->accesses += weight;
   if (c != NULL)
      remember_crossing(c, site, r, a);
}

/* A check's site word (ws_core.h). */
static void data_refill(Addr a, HWord site, WS_AccessKind kind)
{
#if WS_SITE_PACKS
   if (!WS_SITE_IS_RECORD(site)) {
      data_refill_check(a, NULL, WS_SITE_SIZE(site), WS_SITE_WEIGHT(site),
                        WS_SITE_IP(site), kind);
      return;
   }
#endif
   data_refill_check(a, (const WS_SiteRecord*)(site & ~WS_SITE_RECORD),
                     0, 0, 0, kind);
}

static VG_REGPARM(2) void data_refill_r(Addr a, HWord site)
{
   data_refill(a, site, WS_Read);
}

static VG_REGPARM(2) void data_refill_w(Addr a, HWord site)
{
   data_refill(a, site, WS_Write);
}

static VG_REGPARM(2) void data_refill_rw(Addr a, HWord site)
{
   data_refill(a, site, WS_ReadWrite);
}

static const WS_DataRefill kind_refills[3] = {
   { "ws_data_refill_r", data_refill_r },
   { "ws_data_refill_w", data_refill_w },
   { "ws_data_refill_rw", data_refill_rw }
};

const WS_DataRefill* WS_(data_refill_of_kind)(WS_AccessKind kind)
{
   return &kind_refills[kind - 1];
}

/* The instruction the running thread is at, for the helpers whose IR
   knows the guest state holds it (ws_instrument.c). */
static Addr guest_ip(void)
{
   return VG_(get_IP)(VG_(get_running_tid)());
}

/* The sizes of nearly all checks: single accesses, and groups of
   words off one stack pointer; for each kind of check, and for the
   numbers of accesses a check of one access or a group at one address
   counts (a read-modify-write counts two, a value read again three). */
#define SIZED_REFILL_OF(k, kind, n, w)                                \
   static VG_REGPARM(1) void data_refill_##k##_##n##_##w(Addr a)      \
   {                                                                  \
      data_refill_check(a, NULL, n, w, guest_ip(), kind);             \
   }
#define SIZED_REFILL_W(k, kind, n)                                    \
   SIZED_REFILL_OF(k, kind, n, 1) SIZED_REFILL_OF(k, kind, n, 2)      \
   SIZED_REFILL_OF(k, kind, n, 3) SIZED_REFILL_OF(k, kind, n, 4)
#define SIZED_REFILL(n)                                               \
   SIZED_REFILL_W(r, WS_Read, n) SIZED_REFILL_W(w, WS_Write, n)       \
   SIZED_REFILL_W(rw, WS_ReadWrite, n)
SIZED_REFILL(1)  SIZED_REFILL(2)  SIZED_REFILL(4)  SIZED_REFILL(8)
SIZED_REFILL(16) SIZED_REFILL(24) SIZED_REFILL(32) SIZED_REFILL(40)
SIZED_REFILL(48) SIZED_REFILL(56) SIZED_REFILL(64) SIZED_REFILL(72)
SIZED_REFILL(80) SIZED_REFILL(88) SIZED_REFILL(96) SIZED_REFILL(104)
SIZED_REFILL(112) SIZED_REFILL(120) SIZED_REFILL(128)
#undef SIZED_REFILL
#undef SIZED_REFILL_W
#undef SIZED_REFILL_OF

#define SIZED(k, n, w) \
   { "ws_data_refill_" #k "_" #n "_" #w, data_refill_##k##_##n##_##w }
#define WEIGHTS(k, n) \
   { SIZED(k, n, 1), SIZED(k, n, 2), SIZED(k, n, 3), SIZED(k, n, 4) }
#define SIZES(k)                                                      \
   { WEIGHTS(k, 1),   WEIGHTS(k, 2),   WEIGHTS(k, 4),   WEIGHTS(k, 8),  \
     WEIGHTS(k, 16),  WEIGHTS(k, 24),  WEIGHTS(k, 32),  WEIGHTS(k, 40), \
     WEIGHTS(k, 48),  WEIGHTS(k, 56),  WEIGHTS(k, 64),  WEIGHTS(k, 72), \
     WEIGHTS(k, 80),  WEIGHTS(k, 88),  WEIGHTS(k, 96),  WEIGHTS(k, 104),\
     WEIGHTS(k, 112), WEIGHTS(k, 120), WEIGHTS(k, 128) }
/* By kind, then: sizes 1, 2, 4, then the multiples of 8 up to 128;
   then weights 1 to 4. */
static const WS_DataRefill sized_refills[3][19][4] = {
   SIZES(r), SIZES(w), SIZES(rw)
};
#undef SIZES
#undef WEIGHTS
#undef SIZED

const WS_DataRefill* WS_(data_refill_of_size)(UInt size, UInt weight,
                                              WS_AccessKind kind)
{
   UInt i;
   if (weight < 1 || weight > 4)
      return NULL;
   if (size == 1 || size == 2 || size == 4)
      i = size / 2;
   else if (size % 8 == 0 && size / 8 - 1 < 16)
      i = size / 8 + 2;
   else
      return NULL;
   return &sized_refills[kind - 1][i][weight - 1];
}

/*------------------------------------------------------------*/
/*--- Re-stamping a code page                              ---*/
/*------------------------------------------------------------*/

/* Instrumented code running while off (ws_sampler.c) touches
   nothing: the page's slot takes the current stamp, so that its check
   passes inline until the start, whose new epoch makes it stale
   again.  The page table, which stays the truth, is left as it is. */
static void touch_code(Addr page, Addr ip, Addr a)
{
   WS_(counters).insn_restamps++;
   if (!WS_(measuring)) {
      WS_(code_slot_stamp)(page, WS_(cur_stamp));
      return;
   }
   WS_(touch_page)(WS_Insn, page, ip, a);
}

VG_REGPARM(1) void WS_(insn_restamp)(Addr a)
{
   touch_code(a >> WS_(page_shift)(), a, a);
}

void WS_(insn_restamp_at_ip)(void)
{
   Addr ip = guest_ip();
   if (WS_(observing) && WS_(measuring))
      observer.superblock(ip);
   WS_(insn_restamp)(ip);
}

VG_REGPARM(2) void WS_(insn_lines)(Addr a, HWord len)
{
   if (WS_(measuring))
      WS_(touch_line_range)(WS_Insn, a, len);
}

VG_REGPARM(1) void WS_(insn_restamp_straddling)(Addr ip)
{
   Addr page = (ip >> WS_(page_shift)()) + 1;
   touch_code(page, ip, page << WS_(page_shift)());
}

/*--------------------------------------------------------------------*/
/*--- end                                                 ws_dtlb.c ---*/
/*--------------------------------------------------------------------*/

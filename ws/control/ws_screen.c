/*--------------------------------------------------------------------*/
/*--- ws: the window on one screen.                    ws_screen.c ---*/
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

/* Owns the two answers a person stopped in gdb reads first, each made
   to fit a screen: "ws dump" without an argument, a summary of the
   current window (its sizes, its largest owners with their allocation
   sites on one line, its most accessed pages), and "ws since", the
   data pages that entered the window since the last look (a dump, a
   "ws since", a break stop), by owner, with the source lines whose
   accesses brought the largest owners' pages in.  The complete listings stay
   ws_monitor.c's ("ws dump full") and ws_control.c's (dump files).

   A page's latest entry into the window is numbered by the core
   (ws_records.c), so "since" is exact: a page counts if its latest
   entry came after the last look and it is in the window now, however
   often it left and came back in between.  Nothing here runs while
   the program does. */

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_xarray.h"

#include "ws_control.h"

/* The summary's parts: every data owner line a breakdown has (at most
   WS_BREAKDOWN_LINES), and these; with the headings, 40 lines at most. */
#define WS_SUMMARY_CODE_OWNERS 4
#define WS_SUMMARY_HOT_DATA    5
#define WS_SUMMARY_HOT_INSN    3
/* "ws since": the owners whose lines it shows, the lines under each;
   with the owners (at most WS_BREAKDOWN_LINES), 23 lines at most. */
#define WS_SINCE_OWNERS_LINED  3
#define WS_SINCE_LINES         3

/*------------------------------------------------------------*/
/*--- Owners, for people                                   ---*/
/*------------------------------------------------------------*/

static void percent(WS_File* f, ULong pages, ULong total)
{
   ULong tenths = total ? (pages * 1000 + total / 2) / total : 0;
   WS_(file_printf)(f, "%8llu page%s (%llu.%llu%%): ", pages,
                    pages == 1 ? " " : "s", tenths / 10, tenths % 10);
}

/* The first |max| lines of |b|, the rest folded into one. */
static void show_owners(WS_File* f, const WS_Breakdown* b, ULong total,
                        UInt max)
{
   ULong others = 0;
   UInt  i;
   for (i = 0; i < b->n; i++) {
      const WS_OwnerPages* line = &b->lines[i];
      if (line->rest || i >= max) {
         others += line->pages;
         continue;
      }
      percent(f, line->pages, total);
      WS_(show_owner_line)(f, &line->owner, False);
   }
   if (others > 0) {
      percent(f, others, total);
      WS_(file_printf)(f, "other owners\n");
   }
}

/*------------------------------------------------------------*/
/*--- "ws dump": the summary                               ---*/
/*------------------------------------------------------------*/

/* A page among the most accessed of its kind so far. */
typedef struct {
   Addr     addr;
   ULong    accesses;
   Addr     first_ip;
   WS_Owner owner;
} HotPage;

typedef struct {
   XArray* pages[2];      /* page numbers, by address */
   HotPage hot[2][WS_SUMMARY_HOT_DATA];
   UInt    n_hot[2];
} Summary;

/* Keeps |p| if it is among the most accessed (ties: the lower address,
   the one visited first, stays). */
static void consider_hot(Summary* s, const WS_DumpPage* p)
{
   UInt     max = p->kind == WS_Data ? WS_SUMMARY_HOT_DATA
                                     : WS_SUMMARY_HOT_INSN;
   HotPage* hot = s->hot[p->kind];
   UInt     i = s->n_hot[p->kind];
   if (i == max && hot[max - 1].accesses >= p->accesses)
      return;
   if (i == max)
      i--;
   else
      s->n_hot[p->kind]++;
   for (; i > 0 && hot[i - 1].accesses < p->accesses; i--)
      hot[i] = hot[i - 1];
   hot[i].addr = p->addr;
   hot[i].accesses = p->accesses;
   hot[i].first_ip = p->first_ip;
   if (p->owner)
      hot[i].owner = *p->owner;
}

static void summary_page(const WS_DumpPage* p, void* opaque)
{
   Summary* s = opaque;
   Addr     page = p->addr >> WS_(page_shift)();
   VG_(addToXA)(s->pages[p->kind], &page);
   consider_hot(s, p);
}

static void show_hot(WS_File* f, const Summary* s, WS_Kind kind)
{
   UInt i;
   if (s->n_hot[kind] == 0)
      return;
   WS_(file_printf)(f, "Most accessed %s pages in the window (accesses "
                    "so far):\n", kind == WS_Data ? "data" : "instruction");
   for (i = 0; i < s->n_hot[kind]; i++) {
      const HotPage* h = &s->hot[kind][i];
      HChar addr[24];
      VG_(snprintf)(addr, sizeof addr, "0x%lx", h->addr);
      WS_(file_printf)(f, "  %-14s %10llu  ", addr, h->accesses);
      if (kind == WS_Data)
         WS_(show_owner_line)(f, &h->owner, True);
      else
         WS_(file_printf)(f, "first at %s\n", WS_(code_line)(h->first_ip));
   }
}

void WS_(screen_dump)(void)
{
   WS_File*     f = WS_(monitor_file)();
   WS_CtlStatus st;
   Summary      s;
   ULong        n[2];
   Int          kind;
   VG_(memset)(&s, 0, sizeof s);
   for (kind = 0; kind < 2; kind++)
      s.pages[kind] = VG_(newXA)(VG_(malloc), "ws.screen.pages", VG_(free),
                                 sizeof(Addr));
   WS_(ctl_status)(&st);
   WS_(ctl_dump_to)(summary_page, &s, n);
   WS_(file_printf)(f, "ws dump at t=%llu: %llu insn pages, %llu data "
                    "pages in the window", st.now, n[WS_Insn], n[WS_Data]);
   if (st.linesize)
      WS_(file_printf)(f, " (%llu and %llu lines of %u bytes)",
                       st.lines[WS_Insn], st.lines[WS_Data], st.linesize);
   WS_(file_printf)(f, "\n");
   WS_(file_printf)(f, "  (pages of %u bytes; 'ws dump full' lists every "
                    "page, 'ws dump <file>' writes them to a file)\n",
                    st.pagesize);
   for (kind = WS_Data; kind >= WS_Insn; kind--) {
      WS_Breakdown* b;
      if (n[kind] == 0)
         continue;
      b = WS_(breakdown)(kind, s.pages[kind], WS_(sample_seq) + 1);
      WS_(file_printf)(f, "%s pages by owner:\n", kind == WS_Data
                       ? "Data" : "Instruction");
      show_owners(f, b, n[kind], kind == WS_Data ? WS_BREAKDOWN_LINES
                                                 : WS_SUMMARY_CODE_OWNERS);
      WS_(breakdown_free)(b);
   }
   show_hot(f, &s, WS_Data);
   show_hot(f, &s, WS_Insn);
   for (kind = 0; kind < 2; kind++)
      VG_(deleteXA)(s.pages[kind]);
   WS_(since_look)("ws dump");
}

/*------------------------------------------------------------*/
/*--- "ws since"                                           ---*/
/*------------------------------------------------------------*/

/* The last look: the number of the latest data entry then, its time
   and what it was. */
static ULong mark_entry = 0;
static ULong mark_t = 0;
static HChar mark_what[48] = "the start";

void WS_(since_mark)(ULong entry, ULong t, const HChar* what)
{
   mark_entry = entry;
   mark_t = t;
   VG_(snprintf)(mark_what, sizeof mark_what, "%s", what);
}

void WS_(since_look)(const HChar* what)
{
   WS_(since_mark)(WS_(entries)[WS_Data], WS_(now)(), what);
}

/* The source lines that brought one owner's pages in. */
typedef struct {
   const HChar* line;     /* interned: lines compare as pointers */
   ULong        pages;
} Brought;

static Int cmp_brought(const void* aV, const void* bV)
{
   const Brought* a = aV;
   const Brought* b = bV;
   if (a->pages != b->pages)
      return a->pages > b->pages ? -1 : 1;
   return VG_(strcmp)(a->line, b->line);
}

static void add_brought(XArray* lines, const HChar* line)
{
   Word    i, n = VG_(sizeXA)(lines);
   Brought b = { line, 1 };
   for (i = 0; i < n; i++) {
      Brought* e = VG_(indexXA)(lines, i);
      if (e->line == line) {
         e->pages++;
         return;
      }
   }
   VG_(addToXA)(lines, &b);
}

static void show_brought(WS_File* f, XArray* lines)
{
   Word  i, n = VG_(sizeXA)(lines);
   /* a fold stands for two lines or more */
   Word  shown = n > WS_SINCE_LINES + 1 ? WS_SINCE_LINES : n;
   ULong others = 0;
   VG_(setCmpFnXA)(lines, cmp_brought);
   VG_(sortXA)(lines);
   for (i = 0; i < n; i++) {
      const Brought* b = VG_(indexXA)(lines, i);
      if (i >= shown)
         others += b->pages;
      else
         WS_(file_printf)(f, "%14llu brought in by %s\n", b->pages,
                          b->line);
   }
   if (others > 0)
      WS_(file_printf)(f, "%14llu brought in by %ld other lines\n", others,
                       n - shown);
}

void WS_(screen_since)(void)
{
   WS_File*      f = WS_(monitor_file)();
   XArray*       window = WS_(window_pages)(WS_Data);
   XArray*       entered = VG_(newXA)(VG_(malloc), "ws.screen.entered",
                                      VG_(free), sizeof(Addr));
   XArray*       ips = VG_(newXA)(VG_(malloc), "ws.screen.ips", VG_(free),
                                  sizeof(Addr));
   XArray*       lines[WS_BREAKDOWN_LINES];
   WS_Breakdown* b;
   UInt*         page_line;
   Word          i, n;
   UInt          k;

   for (i = 0; i < VG_(sizeXA)(window); i++) {
      Addr  page = *(Addr*)VG_(indexXA)(window, i);
      ULong number;
      Addr  ip = WS_(entry_ip)(WS_Data, page, &number);
      if (number > mark_entry) {
         VG_(addToXA)(entered, &page);
         VG_(addToXA)(ips, &ip);
      }
   }
   n = VG_(sizeXA)(entered);
   WS_(file_printf)(f, "ws since t=%llu (%s): %ld of the %ld data pages "
                    "in the window entered it since%s\n", mark_t,
                    mark_what, n, VG_(sizeXA)(window), n ? "; by owner:"
                                                         : "");
   page_line = VG_(malloc)("ws.screen.pageline", (n + 1) * sizeof *page_line);
   b = WS_(breakdown_pages)(WS_Data, entered, WS_(sample_seq) + 1,
                            page_line);
   for (k = 0; k < b->n; k++)
      lines[k] = VG_(newXA)(VG_(malloc), "ws.screen.lines", VG_(free),
                            sizeof(Brought));
   for (i = 0; i < n; i++)
      add_brought(lines[page_line[i]],
                  WS_(code_line)(*(Addr*)VG_(indexXA)(ips, i)));
   for (k = 0; k < b->n; k++) {
      percent(f, b->lines[k].pages, n);
      if (b->lines[k].rest)
         WS_(file_printf)(f, "other owners\n");
      else
         WS_(show_owner_line)(f, &b->lines[k].owner, False);
      if (k < WS_SINCE_OWNERS_LINED)
         show_brought(f, lines[k]);
      VG_(deleteXA)(lines[k]);
   }
   WS_(breakdown_free)(b);
   VG_(free)(page_line);
   VG_(deleteXA)(ips);
   VG_(deleteXA)(entered);
   VG_(deleteXA)(window);
   WS_(since_look)("ws since");
}

/*--------------------------------------------------------------------*/
/*--- end                                              ws_screen.c ---*/
/*--------------------------------------------------------------------*/

/*--------------------------------------------------------------------*/
/*--- ws_print: reading the trailer.            wsp_read_trailer.c ---*/
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

/* Owns the reading of the trailer's records but peaks and heap usage:
   hot lines (ranked, with their hot-owner lines), page lines (counted,
   in address order), region lines, summary lines, and the counts
   `samples N` and `peaks N [found M]` that must match the file. */

#include <stdio.h>
#include <string.h>

#include "wsp_reader.h"

int hot_line(struct reader *r)
{
   struct lex *p = &r->p;
   struct body *b = &r->b;
   struct wsp_file *f = p->f;
   struct cur c = cur_line(p);
   static const char form[] = "a hot line is 'hot insn|data RANK ACCESSES "
                              "0xADDRESS 0xIP LOCATION FUNCTION'";
   struct wsp_hot h;
   int k;

   memset(&h, 0, sizeof h);
   cur_lit(&c, "hot ");
   if ((h.data = cur_kind(&c)) < 0 || !cur_lit(&c, " "))
      return fail(p, "%s", form);
   if ((k = cur_u64(&c, &h.rank)) <= 0 || !cur_lit(&c, " ")
       || (k = cur_u64(&c, &h.accesses)) <= 0 || !cur_lit(&c, " ")
       || (k = cur_hex(&c, &h.addr)) <= 0 || !cur_lit(&c, " "))
      return num_fail(p, k < 0 ? k : 0, form);
   if (cur_where(p, &c, &h.w, form, 1))
      return -1;
   int d = h.data;
   if (h.rank != b->hot_rank[d] + 1)
      return fail(p, "hot %s ranks run from 1: this one should be %llu",
                  d ? "data" : "insn",
                  (unsigned long long)b->hot_rank[d] + 1);
   if (h.rank > 1 && (h.accesses > b->hot_acc[d]
                      || (h.accesses == b->hot_acc[d]
                          && h.addr <= b->hot_addr[d])))
      return fail(p, "hot pages come hottest first, ties in increasing "
                  "address order");
   b->hot_rank[d] = h.rank;
   b->hot_acc[d] = h.accesses;
   b->hot_addr[d] = h.addr;
   if (wsp_grow(&f->hot, &r->cap.hot, f->n_hot, sizeof *f->hot))
      return fail(p, "out of memory");
   f->hot[f->n_hot++] = h;
   if (h.data)
      b->due = DUE_HOT_OWNER;
   return 0;
}

/* `page KIND 0xADDRESS ACCESSES IP LOCATION FUNCTION` (--ws-list-pages):
   every page ever touched, instruction pages first, each kind in
   increasing address order. */
int page_line(struct reader *r)
{
   struct lex *p = &r->p;
   struct body *b = &r->b;
   struct wsp_file *f = p->f;
   struct cur c = cur_line(p);
   static const char form[] = "a page line is 'page insn|data 0xADDRESS "
                              "ACCESSES 0xIP LOCATION FUNCTION'";
   struct wsp_where w;
   uint64_t addr, accesses;
   int data, k;

   cur_lit(&c, "page ");
   if ((data = cur_kind(&c)) < 0 || !cur_lit(&c, " "))
      return fail(p, "%s", form);
   if ((k = cur_hex(&c, &addr)) <= 0 || !cur_lit(&c, " ")
       || (k = cur_u64(&c, &accesses)) <= 0 || !cur_lit(&c, " "))
      return num_fail(p, k < 0 ? k : 0, form);
   if (cur_where(p, &c, &w, form, f->keep_pages))
      return -1;
   if (!data && f->n_pages[1])
      return fail(p, "instruction pages are listed before data pages");
   if (f->n_pages[data] && addr <= b->page_addr[data])
      return fail(p, "pages are listed in increasing address order");
   b->page_addr[data] = addr;
   if (f->keep_pages) {
      struct wsp_dump_page pg = { .data = data, .addr = addr,
                                  .accesses = accesses, .w = w };
      if (wsp_grow(&f->pages, &r->cap.pages, f->n_pages[0] + f->n_pages[1],
                   sizeof *f->pages))
         return fail(p, "out of memory");
      f->pages[f->n_pages[0] + f->n_pages[1]] = pg;
   }
   f->n_pages[data]++;
   return 0;
}

/* "D.DDD", in thousandths */
static int cur_density(struct cur *c, uint64_t *out)
{
   uint64_t whole;
   int r = cur_u64(c, &whole);
   if (r <= 0)
      return r;
   if (c->pos + 4 > c->len || c->s[c->pos] != '.')
      return 0;
   for (int i = 1; i <= 3; i++)
      if (c->s[c->pos + i] < '0' || c->s[c->pos + i] > '9')
         return 0;
   *out = whole * 1000 + (uint64_t)(c->s[c->pos + 1] - '0') * 100
          + (uint64_t)(c->s[c->pos + 2] - '0') * 10
          + (uint64_t)(c->s[c->pos + 3] - '0');
   c->pos += 4;
   return 1;
}

/* " AVG PEAK TOTAL" */
static int apt(struct cur *c, struct wsp_apt *a)
{
   int r = 0;
   if (cur_lit(c, " ") && (r = cur_avg(c, &a->avg10)) > 0
       && cur_lit(c, " ") && (r = cur_u64(c, &a->peak)) > 0
       && cur_lit(c, " ") && (r = cur_u64(c, &a->total)) > 0)
      return 1;
   return r < 0 ? -1 : 0;
}

int region_line(struct reader *r)
{
   struct lex *p = &r->p;
   struct wsp_file *f = p->f;
   struct cur c = cur_line(p);
   struct wsp_region g;
   static const char form[] = "a region line is 'region N SAMPLES insn "
                              "AVG PEAK TOTAL data AVG PEAK TOTAL label "
                              "LABEL', AVG with one decimal";
   int k = 0;

   memset(&g, 0, sizeof g);
   cur_lit(&c, "region ");
   if ((k = cur_u64(&c, &g.regions)) <= 0 || !cur_lit(&c, " ")
       || (k = cur_u64(&c, &g.samples)) <= 0 || !cur_lit(&c, " insn")
       || (k = apt(&c, &g.insn)) <= 0 || !cur_lit(&c, " data")
       || (k = apt(&c, &g.data)) <= 0)
      return num_fail(p, k < 0 ? k : 0, form);
   if (f->linesize) {
      g.have_lines = 1;
      if (!cur_lit(&c, " insn-lines") || (k = apt(&c, &g.insn_lines)) <= 0
          || !cur_lit(&c, " data-lines")
          || (k = apt(&c, &g.data_lines)) <= 0)
         return num_fail(p, k < 0 ? k : 0, "a region line of a file with "
                         "lines has 'insn-lines AVG PEAK TOTAL data-lines "
                         "AVG PEAK TOTAL' before its label");
   }
   if (!cur_lit(&c, " label "))
      return num_fail(p, 0, form);
   g.label = cur_rest(&c);
   if (label_text(p, &g.label, "region"))
      return -1;
   for (size_t i = 0; i < f->n_regions; i++)
      if (wsp_str_eq(f->regions[i].label, g.label))
         return fail(p, "a second region line for the same label");
   if (wsp_grow(&f->regions, &r->cap.regions, f->n_regions, sizeof *f->regions))
      return fail(p, "out of memory");
   f->regions[f->n_regions++] = g;
   return 0;
}

int summary_line(struct lex *p)
{
   struct wsp_file *f = p->f;
   struct cur c = cur_line(p);
   struct wsp_apt a;
   int data, r = 0;
   static const char form[] = "a summary line is 'summary insn|data AVG "
                              "PEAK TOTAL', AVG with one decimal";
   cur_lit(&c, "summary ");
   if ((data = cur_kind(&c)) < 0)
      return fail(p, "%s", form);
   if ((r = apt(&c, &a)) <= 0)
      return num_fail(p, r < 0 ? r : 0, form);
   if (f->linesize) {
      struct wsp_apt l;
      uint64_t d = 0;
      if (!cur_lit(&c, " lines") || (r = apt(&c, &l)) <= 0
          || (data && (!cur_lit(&c, " density ") || (r = cur_density(&c, &d)) <= 0)))
         return num_fail(p, r < 0 ? r : 0, "a summary line of a file with "
                         "lines is 'summary insn|data AVG PEAK TOTAL lines "
                         "AVG PEAK TOTAL', data's then 'density D.DDD'");
      *(data ? &f->data_lines_summary : &f->insn_lines_summary) = l;
      f->have_lines_summary = 1;
      if (data)
         f->density1000 = d;
   }
   if (!cur_end(&c))
      return num_fail(p, 0, form);
   if (data ? f->have_data_summary : f->have_insn_summary)
      return fail(p, "a second 'summary %s' line", data ? "data" : "insn");
   if (data) {
      f->data_summary = a;
      f->have_data_summary = 1;
   } else {
      f->insn_summary = a;
      f->have_insn_summary = 1;
   }
   return 0;
}

/* A trailer line 'WORD N' (peaks, samples): N must be the number of
   such records the file holds. */
int trailer_count_line(struct lex *p, const char *word,
                       uint64_t *count, size_t n_records)
{
   struct cur c = cur_line(p);
   char form[32];
   int r;
   cur_lit(&c, word);
   cur_lit(&c, " ");
   snprintf(form, sizeof form, "expected '%s N'", word);
   if ((r = cur_u64(&c, count)) <= 0 || !cur_end(&c))
      return num_fail(p, r < 0 ? r : 0, form);
   if (*count != n_records)
      return fail(p, "the trailer says %llu %s, the file has %zu",
                  (unsigned long long)*count, word, n_records);
   return 0;
}

/* `peaks N found M` (version 4): N peak lines, M peaks the detector
   found (as many as the peaks it flagged, at least). */
int peaks_found_line(struct lex *p)
{
   struct wsp_file *f = p->f;
   struct cur c = cur_line(p);
   static const char form[] = "expected 'peaks N found M'";
   size_t detected = 0;
   int r;
   cur_lit(&c, "peaks ");
   if ((r = cur_u64(&c, &f->trailer_peaks)) <= 0
       || !cur_lit(&c, " found ")
       || (r = cur_u64(&c, &f->trailer_found)) <= 0 || !cur_end(&c))
      return num_fail(p, r < 0 ? r : 0, form);
   if (f->trailer_peaks != f->n_peaks)
      return fail(p, "the trailer says %llu peaks, the file has %zu",
                  (unsigned long long)f->trailer_peaks, f->n_peaks);
   for (size_t i = 0; i < f->n_peaks; i++)
      detected += (f->peaks[i].why & WSP_WHY_DETECTED) != 0;
   if (f->trailer_found < detected)
      return fail(p, "the trailer says the detector found %llu peaks, "
                  "%zu of those listed",
                  (unsigned long long)f->trailer_found, detected);
   return 0;
}

/*--------------------------------------------------------------------*/
/*--- end                                       wsp_read_trailer.c ---*/
/*--------------------------------------------------------------------*/

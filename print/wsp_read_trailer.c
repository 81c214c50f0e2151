/*--------------------------------------------------------------------*/
/*--- ws_print: peaks, hot pages, trailer.    wsp_read_trailer.c ---*/
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

/* Owns the peaks (version 3's peak events and their owner lines,
   version 4's peak lines with their region and heap-window lines), and
   the rest of the trailer: region, hot, page, summary and count lines. */

#include <limits.h>
#include <string.h>

#include "wsp_reader.h"

/* The owner lines of the open peak are over: check their sum. */
int close_peak(struct parser *p, struct body *b)
{
   const struct wsp_file *f = p->f;
   if (!b->peak_open)
      return 0;
   b->peak_open = 0;
   const struct wsp_peak *pk = &f->peaks[b->open_peak];
   /* version 4: the peak's own working set, of its kind */
   uint64_t total = f->version >= 4 ? pk->size : b->last_data;
   uint64_t sum = 0;
   if (f->version >= 4 && (pk->why & WSP_WHY_REGION) && pk->reg_n == 0)
      return fail(p, "peak %zu is a region's largest sample: "
                  "'peak-region' lines name the regions", b->open_peak);
   for (size_t i = 0; i < pk->own_n; i++) {
      uint64_t pages = f->owners[pk->own_first + i].pages;
      if (pages > total - sum)              /* would pass the total */
         return fail(p, "the owner lines of peak %zu add up to more than "
                     "its %llu pages", b->open_peak,
                     (unsigned long long)total);
      sum += pages;
   }
   if (sum != total)
      return fail(p, "the owner lines of peak %zu add up to %llu pages, the "
                  "peak has %llu", b->open_peak, (unsigned long long)sum,
                  (unsigned long long)total);
   return 0;
}

/* The arguments of `event T peak N KIND SIZE STACK` (a1: after "peak "). */
int peak_event(struct parser *p, struct body *b, struct caps *cap,
               struct wsp_event *e, struct wsp_str a1)
{
   struct wsp_file *f = p->f;
   struct cur c = { a1.s, a1.len, 0 };
   static const char form[] = "a peak event is 'event T peak N insn|data "
                              "SIZE STACK'";
   struct wsp_peak pk;
   uint64_t n, sid;
   int r;

   memset(&pk, 0, sizeof pk);
   if ((r = cur_u64(&c, &n)) <= 0)
      return num_fail(p, r, form);
   if (!cur_lit(&c, " ") || (pk.data = cur_kind(&c)) < 0
       || !cur_lit(&c, " "))
      return fail(p, "%s", form);
   if ((r = cur_u64(&c, &pk.size)) <= 0 || !cur_lit(&c, " ")
       || (r = cur_u64(&c, &sid)) <= 0 || !cur_end(&c))
      return num_fail(p, r < 0 ? r : 0, form);
   if (n > f->n_peaks)
      return fail(p, "peaks are numbered from 0 in file order: this one "
                  "should be at most %zu", f->n_peaks);
   if (n < f->n_peaks) {
      /* the peak goes on, larger; only the latest of its kind can */
      if (b->latest[pk.data] != n + 1)
         return fail(p, "peak %llu is not the latest %s peak",
                     (unsigned long long)n, pk.data ? "data" : "insn");
      if (pk.size <= f->peaks[n].size)
         return fail(p, "a peak's event comes again only when the peak is "
                     "larger (it was %llu)",
                     (unsigned long long)f->peaks[n].size);
   }
   if (!b->at_sample || e->t != b->last_sample_t)
      return fail(p, "a peak event follows the sample it flags, at the "
                  "same time");
   if (pk.size != (pk.data ? b->last_data : b->last_insn))
      return fail(p, "the peak's size is not its sample's %s column (%llu)",
                  pk.data ? "data" : "insn",
                  (unsigned long long)(pk.data ? b->last_data
                                               : b->last_insn));
   if (stack_ref(p, sid, &pk.stack))
      return -1;
   pk.t = e->t;
   pk.own_first = f->n_owners;
   pk.line = p->lineno;
   if (n == f->n_peaks) {
      if (wsp_grow(&f->peaks, &cap->peaks, f->n_peaks, sizeof *f->peaks))
         return fail(p, "out of memory");
      f->n_peaks++;
   }
   f->peaks[n] = pk;
   e->kind = WSP_EV_PEAK;
   e->num = n;
   b->open_peak = (size_t)n;
   b->latest[pk.data] = (size_t)n + 1;
   b->peak_open = 1;
   b->windows_first = f->n_heap_windows;
   return 0;
}

/* `heap-window PEAK STACK live N window N` after the owner lines of
   the open peak (version 4). */
int heap_window_line(struct parser *p, struct body *b,
                     struct caps *cap)
{
   struct wsp_file *f = p->f;
   char why[200];
   if (!b->peak_open)
      return fail(p, "heap-window lines follow the owner lines of their "
                  "peak");
   if (wsp_heap_window_line(f, p->line, p->len, b->open_peak,
                            &cap->heap_windows, why, sizeof why))
      return fail(p, "%s", why);
   for (size_t i = b->windows_first; i + 1 < f->n_heap_windows; i++)
      if (f->heap_windows[i].stack
          == f->heap_windows[f->n_heap_windows - 1].stack)
         return fail(p, "a second heap-window line for the same owner");
   return 0;
}

/* The sample at time t (times increase), or NULL. */
static const struct wsp_sample *sample_at(const struct wsp_file *f,
                                          uint64_t t)
{
   size_t lo = 0, hi = f->n_samples;
   while (lo < hi) {
      size_t mid = lo + (hi - lo) / 2;
      if (f->samples[mid].t < t)
         lo = mid + 1;
      else
         hi = mid;
   }
   return lo < f->n_samples && f->samples[lo].t == t ? &f->samples[lo]
                                                    : NULL;
}

/* `peak N KIND T SIZE BASELINE WHY rise|sample STACK OWN`: a version 4
   peak, in the trailer. */
int peak_line(struct parser *p, struct body *b, struct caps *cap)
{
   struct wsp_file *f = p->f;
   struct cur c = { p->line, p->len, 0 };
   static const char form[] = "a peak line is 'peak N insn|data T SIZE "
                              "BASELINE WHY rise|sample STACK OWN'";
   static const char *const reasons[] = { "largest", "region", "detected" };
   struct wsp_peak pk;
   uint64_t n, sid, own;
   int r;

   memset(&pk, 0, sizeof pk);
   cur_lit(&c, "peak ");
   if ((r = cur_u64(&c, &n)) <= 0 || !cur_lit(&c, " "))
      return num_fail(p, r < 0 ? r : 0, form);
   if ((pk.data = cur_kind(&c)) < 0 || !cur_lit(&c, " "))
      return fail(p, "%s", form);
   if ((r = cur_u64(&c, &pk.t)) <= 0 || !cur_lit(&c, " ")
       || (r = cur_u64(&c, &pk.size)) <= 0 || !cur_lit(&c, " ")
       || (r = cur_u64(&c, &pk.baseline)) <= 0 || !cur_lit(&c, " "))
      return num_fail(p, r < 0 ? r : 0, form);
   do {
      unsigned bit = 0;
      for (unsigned i = 0; i < 3 && !bit; i++)
         if (cur_lit(&c, reasons[i]))
            bit = 1u << i;
      if (!bit)
         return fail(p, "a peak's reasons are largest, region and "
                     "detected, separated by commas");
      if (pk.why & bit)
         return fail(p, "a peak's reason is given twice");
      pk.why |= bit;
   } while (cur_lit(&c, ","));
   if (!cur_lit(&c, " "))
      return fail(p, "%s", form);
   if (cur_lit(&c, "rise"))
      pk.rise = 1;
   else if (!cur_lit(&c, "sample"))
      return fail(p, "%s", form);
   if (!cur_lit(&c, " ") || (r = cur_u64(&c, &sid)) <= 0
       || !cur_lit(&c, " "))
      return num_fail(p, r < 0 ? r : 0, form);
   pk.own_line = -1;
   if (!cur_lit(&c, "-")) {
      if ((r = cur_u64(&c, &own)) <= 0)
         return num_fail(p, r, form);
      pk.own_line = own > (uint64_t)LONG_MAX ? LONG_MAX : (long)own;
   }
   if (!cur_end(&c))
      return fail(p, "%s", form);

   if (n != f->n_peaks)
      return fail(p, "peaks are numbered from 0 in file order: this one "
                  "should be %zu", f->n_peaks);
   if (stack_ref(p, sid, &pk.stack))
      return -1;
   if (pk.own_line >= 0 && (size_t)pk.own_line >= f->stacks[pk.stack].n)
      return fail(p, "the own line lies beyond the stack's %zu lines",
                  f->stacks[pk.stack].n);
   if (f->n_peaks) {
      const struct wsp_peak *prev = &f->peaks[f->n_peaks - 1];
      if (prev->data && !pk.data)
         return fail(p, "instruction peaks come before data peaks");
      /* the most prominent first; the baseline is rounded, so two
         neighbours may seem one page out of order */
      if (prev->data == pk.data
          && (double)pk.size - (double)pk.baseline
             > (double)prev->size - (double)prev->baseline + 1.0)
         return fail(p, "the peaks of a kind come the most prominent "
                     "first (size minus baseline)");
   }
   const struct wsp_sample *s = sample_at(f, pk.t);
   if (!s || (pk.data ? s->data : s->insn) != pk.size)
      return fail(p, "no sample has %llu %s pages at t=%llu",
                  (unsigned long long)pk.size, pk.data ? "data" : "insn",
                  (unsigned long long)pk.t);
   if (!b->have_max) {
      for (size_t i = 0; i < f->n_samples; i++) {
         if (f->samples[i].insn > b->max_col[0])
            b->max_col[0] = f->samples[i].insn;
         if (f->samples[i].data > b->max_col[1])
            b->max_col[1] = f->samples[i].data;
      }
      b->have_max = 1;
   }
   if (pk.why & WSP_WHY_LARGEST) {
      const struct wsp_sample *first = f->samples;
      while ((pk.data ? first->data : first->insn) != b->max_col[pk.data])
         first++;
      if (first != s)
         return fail(p, "the largest %s sample is the first of %llu pages, "
                     "at t=%llu", pk.data ? "data" : "insn",
                     (unsigned long long)b->max_col[pk.data],
                     (unsigned long long)first->t);
   }
   pk.own_first = f->n_owners;
   pk.reg_first = f->n_region_labels;
   pk.line = p->lineno;
   if (wsp_grow(&f->peaks, &cap->peaks, f->n_peaks, sizeof *f->peaks))
      return fail(p, "out of memory");
   f->peaks[f->n_peaks] = pk;
   b->open_peak = f->n_peaks++;
   b->peak_open = 1;
   b->windows_first = f->n_heap_windows;
   return 0;
}

/* `peak-region N LABEL`: peak N is the largest sample of the regions of
   that name. */
int peak_region_line(struct parser *p, struct caps *cap,
                     struct body *b)
{
   struct wsp_file *f = p->f;
   struct cur c = { p->line, p->len, 0 };
   uint64_t n;
   int r;
   cur_lit(&c, "peak-region ");
   if ((r = cur_u64(&c, &n)) <= 0 || !cur_lit(&c, " "))
      return num_fail(p, r < 0 ? r : 0, "a peak-region line is "
                      "'peak-region N LABEL'");
   if (!b->peak_open || n != b->open_peak
       || f->peaks[b->open_peak].own_n)
      return fail(p, "'peak-region N LABEL' follows peak N's line, before "
                  "its owner lines");
   struct wsp_peak *pk = &f->peaks[b->open_peak];
   if (!(pk->why & WSP_WHY_REGION))
      return fail(p, "peak %llu's reasons lack 'region'",
                  (unsigned long long)n);
   struct wsp_str label = cur_rest(&c);
   if (label_text(p, &label, "peak-region"))
      return -1;
   if (wsp_grow(&f->region_labels, &cap->region_labels, f->n_region_labels,
            sizeof *f->region_labels))
      return fail(p, "out of memory");
   f->region_labels[f->n_region_labels++] = label;
   pk->reg_n++;
   return 0;
}

#define MAX_OWNER_LINES 10   /* of a peak, `rest` included */

int owner_line(struct parser *p, struct body *b, struct caps *cap)
{
   struct wsp_file *f = p->f;
   struct cur c = { p->line, p->len, 0 };
   static const char form[] = "an owner line is 'owner PEAK PAGES OWNER'";
   struct wsp_owner_line ol;
   uint64_t n;
   int r;

   cur_lit(&c, "owner ");
   if ((r = cur_u64(&c, &n)) <= 0 || !cur_lit(&c, " ")
       || (r = cur_u64(&c, &ol.pages)) <= 0 || !cur_lit(&c, " "))
      return num_fail(p, r < 0 ? r : 0, form);
   if (!b->peak_open || n != b->open_peak)
      return fail(p, "owner lines follow their peak's %s",
                  f->version >= 4 ? "line" : "event");
   if (f->n_heap_windows > b->windows_first)
      return fail(p, "owner lines come before the heap-window lines of "
                  "their peak");
   struct wsp_peak *pk = &f->peaks[b->open_peak];
   if (ol.pages == 0)
      return fail(p, "an owner line has at least one page");
   if (cur_owner(p, &c, &ol.o, 1, 0))
      return -1;
   if (f->version >= 4 && ol.o.kind != WSP_OWN_REST
       && (ol.o.kind == WSP_OWN_CODE) != !pk->data)
      return fail(p, "an instruction peak's owners are 'code OBJECT "
                  "FUNCTION', a data peak's what lives in its pages");
   if (pk->own_n == MAX_OWNER_LINES)
      return fail(p, "a peak has at most %d owner lines",
                  MAX_OWNER_LINES);
   if (pk->own_n) {
      const struct wsp_owner_line *prev = &f->owners[f->n_owners - 1];
      if (prev->o.kind == WSP_OWN_REST)
         return fail(p, "'rest' is the last owner line of a peak");
      if (ol.o.kind != WSP_OWN_REST
          && (prev->pages < ol.pages
              || (prev->pages == ol.pages && prev->o.kind > ol.o.kind)))
         return fail(p, "owner lines come largest first, ties in the order "
                     "of the format's owner table");
      /* one line per owner; but two names may be written alike (ws
         writes a blank or control character in a name as _) */
      for (size_t i = 0; i < pk->own_n && ol.o.kind != WSP_OWN_GLOBAL
                         && ol.o.kind != WSP_OWN_FILE
                         && ol.o.kind != WSP_OWN_CODE; i++) {
         struct wsp_str t = f->owners[pk->own_first + i].o.text;
         if (t.len == ol.o.text.len && memcmp(t.s, ol.o.text.s, t.len) == 0)
            return fail(p, "the owner is named twice for this peak");
      }
   }
   if (ol.o.kind == WSP_OWN_REST && pk->own_n != MAX_OWNER_LINES - 1)
      return fail(p, "'rest' comes only as the %dth owner line, after the "
                  "%d largest owners", MAX_OWNER_LINES, MAX_OWNER_LINES - 1);
   if (wsp_grow(&f->owners, &cap->owners, f->n_owners, sizeof *f->owners))
      return fail(p, "out of memory");
   f->owners[f->n_owners++] = ol;
   pk->own_n++;
   return 0;
}

int hot_line(struct parser *p, struct body *b, struct caps *cap)
{
   struct wsp_file *f = p->f;
   struct cur c = { p->line, p->len, 0 };
   static const char form[] = "a hot line is 'hot insn|data RANK ACCESSES "
                              "0xADDRESS 0xIP LOCATION FUNCTION'";
   struct wsp_hot h;
   int r;

   memset(&h, 0, sizeof h);
   cur_lit(&c, "hot ");
   if ((h.data = cur_kind(&c)) < 0 || !cur_lit(&c, " "))
      return fail(p, "%s", form);
   if ((r = cur_u64(&c, &h.rank)) <= 0 || !cur_lit(&c, " ")
       || (r = cur_u64(&c, &h.accesses)) <= 0 || !cur_lit(&c, " ")
       || (r = cur_hex(&c, &h.addr)) <= 0 || !cur_lit(&c, " "))
      return num_fail(p, r < 0 ? r : 0, form);
   if (cur_where(p, &c, &h.w, form))
      return -1;
   int k = h.data;
   if (h.rank != b->hot_rank[k] + 1)
      return fail(p, "hot %s ranks run from 1: this one should be %llu",
                  k ? "data" : "insn",
                  (unsigned long long)b->hot_rank[k] + 1);
   if (h.rank > 1 && (h.accesses > b->hot_acc[k]
                      || (h.accesses == b->hot_acc[k]
                          && h.addr <= b->hot_addr[k])))
      return fail(p, "hot pages come hottest first, ties in increasing "
                  "address order");
   b->hot_rank[k] = h.rank;
   b->hot_acc[k] = h.accesses;
   b->hot_addr[k] = h.addr;
   if (wsp_grow(&f->hot, &cap->hot, f->n_hot, sizeof *f->hot))
      return fail(p, "out of memory");
   f->hot[f->n_hot++] = h;
   if (h.data)
      b->due = DUE_HOT_OWNER;
   return 0;
}

/* `page KIND 0xADDRESS ACCESSES IP LOCATION FUNCTION` (--ws-list-pages):
   every page ever touched, instruction pages first, each kind in
   increasing address order. */
int page_line(struct parser *p, struct body *b)
{
   struct wsp_file *f = p->f;
   struct cur c = { p->line, p->len, 0 };
   static const char form[] = "a page line is 'page insn|data 0xADDRESS "
                              "ACCESSES 0xIP LOCATION FUNCTION'";
   struct wsp_where w;
   uint64_t addr, accesses;
   int data, r;

   cur_lit(&c, "page ");
   if ((data = cur_kind(&c)) < 0 || !cur_lit(&c, " "))
      return fail(p, "%s", form);
   if ((r = cur_hex(&c, &addr)) <= 0 || !cur_lit(&c, " ")
       || (r = cur_u64(&c, &accesses)) <= 0 || !cur_lit(&c, " "))
      return num_fail(p, r < 0 ? r : 0, form);
   if (cur_where(p, &c, &w, form))
      return -1;
   if (!data && f->n_pages[1])
      return fail(p, "instruction pages are listed before data pages");
   if (f->n_pages[data] && addr <= b->page_addr[data])
      return fail(p, "pages are listed in increasing address order");
   b->page_addr[data] = addr;
   f->n_pages[data]++;
   return 0;
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

int region_line(struct parser *p, struct caps *cap)
{
   struct wsp_file *f = p->f;
   struct cur c = { p->line, p->len, 0 };
   struct wsp_region g;
   static const char form[] = "a region line is 'region N SAMPLES insn "
                              "AVG PEAK TOTAL data AVG PEAK TOTAL label "
                              "LABEL', AVG with one decimal";
   int r = 0;

   memset(&g, 0, sizeof g);
   cur_lit(&c, "region ");
   if ((r = cur_u64(&c, &g.regions)) <= 0 || !cur_lit(&c, " ")
       || (r = cur_u64(&c, &g.samples)) <= 0 || !cur_lit(&c, " insn")
       || (r = apt(&c, &g.insn)) <= 0 || !cur_lit(&c, " data")
       || (r = apt(&c, &g.data)) <= 0 || !cur_lit(&c, " label "))
      return num_fail(p, r < 0 ? r : 0, form);
   g.label = cur_rest(&c);
   if (label_text(p, &g.label, "region"))
      return -1;
   for (size_t i = 0; i < f->n_regions; i++)
      if (f->regions[i].label.len == g.label.len
          && memcmp(f->regions[i].label.s, g.label.s, g.label.len) == 0)
         return fail(p, "a second region line for the same label");
   if (wsp_grow(&f->regions, &cap->regions, f->n_regions, sizeof *f->regions))
      return fail(p, "out of memory");
   f->regions[f->n_regions++] = g;
   return 0;
}

int summary_line(struct parser *p)
{
   struct wsp_file *f = p->f;
   struct cur c = { p->line, p->len, 0 };
   struct wsp_apt a;
   int data, r = 0;
   static const char form[] = "a summary line is 'summary insn|data AVG "
                              "PEAK TOTAL', AVG with one decimal";
   cur_lit(&c, "summary ");
   if ((data = cur_kind(&c)) < 0)
      return fail(p, "%s", form);
   if ((r = apt(&c, &a)) <= 0 || !cur_end(&c))
      return num_fail(p, r < 0 ? r : 0, form);
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
int trailer_count_line(struct parser *p, const char *word,
                       uint64_t *count, size_t n_records)
{
   struct cur c = { p->line, p->len, 0 };
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
int peaks_found_line(struct parser *p)
{
   struct wsp_file *f = p->f;
   struct cur c = { p->line, p->len, 0 };
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

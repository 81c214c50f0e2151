/*--------------------------------------------------------------------*/
/*--- ws_print: peaks and hot pages in text.      wsp_text_peaks.c ---*/
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

/* The sections of the text report that explain peaks: the largest
   samples at the top (where to jump), and after the summaries each
   peak with its stack and its window by owner, then the hot pages.

   Version 4 files list few peaks, ranked: each is shown in full, its
   stack with the first line in the program's own code marked, each
   heap owner with its whole allocation stack.  Version 3 files list
   every peak the detector found; they are folded by call stack. */

#include <stdlib.h>
#include <string.h>

#include "wsp_render.h"

#define MAX_LISTED 10         /* version 3: peaks of a stack */
#define MAX_GROUPS 20         /* version 3: stacks listed under Peaks */
#define MAX_OWNED  20         /* version 3: peaks whose owners are listed */


/*------------------------------------------------------------*/
/*--- Stacks and owners                                    ---*/
/*------------------------------------------------------------*/

/* Whether a location names a source file rather than a header, an
   object or nothing: where a heap block's allocation stack is best
   named (the C++ library's templates live in headers). */
static int source_location(struct wsp_str loc)
{
   static const char *const headers[] = {
      "h", "hh", "hpp", "hxx", "h++", "tcc", "inl", "ipp", "tpp"
   };
   size_t colon = loc.len, dot = loc.len;
   for (size_t i = 0; i < loc.len; i++) {
      if (loc.s[i] == ':')
         colon = i;
      if (loc.s[i] == '.')
         dot = i;
   }
   if (!loc.len || loc.s[0] == '(' || colon == loc.len || dot > colon)
      return 0;
   for (size_t i = 0; i < sizeof headers / sizeof headers[0]; i++)
      if (colon - dot - 1 == strlen(headers[i])
          && strncasecmp(loc.s + dot + 1, headers[i], colon - dot - 1) == 0)
         return 0;
   return 1;
}

/* The line that names a stack in one phrase: the program's own (when
   known), else the first in a source file, else the innermost. */
static const struct wsp_frame *naming_frame(const struct wsp_file *f,
                                            size_t stack, long own)
{
   const struct wsp_stack *st = &f->stacks[stack];
   if (own >= 0 && (size_t)own < st->n)
      return &f->frames[st->first + (size_t)own];
   for (size_t i = 0; i < st->n; i++)
      if (source_location(f->frames[st->first + i].w.loc))
         return &f->frames[st->first + i];
   return &f->frames[st->first];
}

/* The line |own| (the first in the program's own code) is marked "->"
   in the indent, where no cut of a long line can hide it. */
void wsp_put_stack(FILE *out, const struct wsp_file *f, size_t stack,
                   long own, const char *indent, int width)
{
   struct wsp_line l = { .n = 0 };
   const struct wsp_stack *s = &f->stacks[stack];
   size_t ind = strlen(indent);
   for (size_t k = 0; k < s->n; k++) {
      const struct wsp_frame *fr = &f->frames[s->first + k];
      wsp_lput(&l, indent, ind);
      if ((long)k == own && ind >= 3)
         memcpy(l.b + ind - 3, "-> ", 3);
      wsp_lprintf(&l, "%s 0x%llx: ", k ? "by" : "at",
                  (unsigned long long)fr->w.ip);
      wsp_lwhere(&l, &fr->w, width, fr->inl ? 10 : 0);
      if (fr->inl)
         wsp_lput(&l, " [inlined]", 10);
      wsp_lflush(out, &l, width);
   }
}

/* What lives in a page, in words; a heap block by where it was
   allocated (its whole stack follows, put_owner_stack). */
void wsp_lowner(struct wsp_line *l, const struct wsp_file *f,
                const struct wsp_owner *o, int width)
{
   switch (o->kind) {
   case WSP_OWN_HEAP:
   case WSP_OWN_FREED: {
      const char *what = o->kind == WSP_OWN_HEAP ? "heap" : "freed";
      if (o->block != WSP_NONE)
         wsp_lprintf(l, "%s block 0x%llx (%llu bytes) from ", what,
                     (unsigned long long)o->block,
                     (unsigned long long)o->size);
      else
         wsp_lprintf(l, "%s blocks from ", what);
      wsp_lwhere(l, &naming_frame(f, o->stack, -1)->w, width, 0);
      break;
   }
   case WSP_OWN_HEAP_OTHER: {
      static const char what[] = "heap outside live blocks (allocator "
                                 "data, free memory)";
      wsp_lput(l, what, sizeof what - 1);
      break;
   }
   case WSP_OWN_GLOBAL:
      wsp_lput(l, "global ", 7);
      wsp_lstr(l, o->name);
      break;
   case WSP_OWN_STACK:
      wsp_lprintf(l, "stack of thread %llu", (unsigned long long)o->tid);
      break;
   case WSP_OWN_FILE:
      wsp_lput(l, "file ", 5);
      wsp_lstr(l, o->name);
      break;
   case WSP_OWN_ANON:
      wsp_lput(l, "anonymous memory", 16);
      break;
   case WSP_OWN_UNKNOWN:
      wsp_lput(l, "unknown", 7);
      break;
   case WSP_OWN_CODE:
      wsp_lstr(l, o->name);
      wsp_lput(l, " in ", 4);
      wsp_lstr(l, o->object);
      break;
   case WSP_OWN_REST:
      wsp_lput(l, "the other owners", 16);
      break;
   }
}

/* A heap owner's whole allocation stack, under its line. */
static void put_owner_stack(FILE *out, const struct wsp_file *f,
                            const struct wsp_owner *o, const char *indent,
                            int width)
{
   if (o->kind == WSP_OWN_HEAP || o->kind == WSP_OWN_FREED)
      wsp_put_stack(out, f, o->stack, -1, indent, width);
}

/*------------------------------------------------------------*/
/*--- Version 4: the peaks ranked                          ---*/
/*------------------------------------------------------------*/

static const struct wsp_peak *largest(const struct wsp_file *f, int data,
                                      size_t *n)
{
   for (size_t i = 0; i < f->n_peaks; i++)
      if (f->peaks[i].data == data && (f->peaks[i].why & WSP_WHY_LARGEST)) {
         *n = i;
         return &f->peaks[i];
      }
   return NULL;
}

void wsp_text_largest(FILE *out, const struct wsp_file *f, int width)
{
   struct wsp_line l = { .n = 0 };
   int any = 0;
   if (f->version < 4)
      return;
   for (int data = 0; data < 2; data++) {
      size_t n;
      const struct wsp_peak *pk = largest(f, data, &n);
      char tb[48], kb[32];
      if (!pk)
         continue;
      if (!any++)
         fprintf(out, "Largest samples (Peaks below has them in full):\n");
      wsp_fmt_time(tb, sizeof tb, pk->t, f->ms);
      wsp_fmt_kb(kb, sizeof kb, (double)pk->size, f->pagesize);
      wsp_lprintf(&l, "  %s %llu pages (%s kB) at t=%s, #%zu in ",
                  data ? "data" : "insn", (unsigned long long)pk->size, kb,
                  tb, n);
      wsp_lwhere(&l, &naming_frame(f, pk->stack, pk->own_line)->w, width,
                 0);
      wsp_lflush(out, &l, width);
   }
   if (any)
      fputc('\n', out);
}

/* "the largest data sample of the run and of region 'burst'; detected
   too", "the largest insn sample of region 'x'", "flagged by the
   detector" */
static void why_text(struct wsp_line *l, const struct wsp_file *f,
                     const struct wsp_peak *pk)
{
   int largest = (pk->why & WSP_WHY_LARGEST) || pk->reg_n;
   if (largest) {
      wsp_lprintf(l, "the largest %s sample of ", pk->data ? "data" : "insn");
      if (pk->why & WSP_WHY_LARGEST)
         wsp_lprintf(l, "the run%s", pk->reg_n ? " and of " : "");
      for (size_t i = 0; i < pk->reg_n; i++) {
         wsp_lprintf(l, "%sregion '", i == 0 ? ""
                                     : i + 1 == pk->reg_n ? " and " : ", ");
         wsp_lstr(l, f->region_labels[pk->reg_first + i]);
         wsp_lput(l, "'", 1);
      }
   }
   if (pk->why & WSP_WHY_DETECTED)
      wsp_lprintf(l, "%s", largest ? "; detected too"
                                   : "flagged by the detector");
}

static void peak_v4(FILE *out, const struct wsp_file *f, size_t n,
                    int width)
{
   const struct wsp_peak *pk = &f->peaks[n];
   struct wsp_line l = { .n = 0 };
   char tb[48], kb[32];
   wsp_fmt_time(tb, sizeof tb, pk->t, f->ms);
   wsp_fmt_kb(kb, sizeof kb, (double)pk->size, f->pagesize);
   wsp_lprintf(&l, "  #%zu  %llu pages (%s kB) at t=%s", n,
               (unsigned long long)pk->size, kb, tb);
   if (pk->size >= pk->baseline)
      wsp_lprintf(&l, ", %llu above a baseline of %llu",
                  (unsigned long long)(pk->size - pk->baseline),
                  (unsigned long long)pk->baseline);
   wsp_lflush(out, &l, width);
   wsp_lput(&l, "      ", 6);
   why_text(&l, f, pk);
   wsp_lflush(out, &l, width);
   wsp_lprintf(&l, "      %s ", pk->rise ? "The working set rose in"
                                         : "At the sample, the program "
                                           "was in");
   wsp_lwhere(&l, &naming_frame(f, pk->stack, pk->own_line)->w, width, 1);
   wsp_lput(&l, ":", 1);
   wsp_lflush(out, &l, width);
   wsp_put_stack(out, f, pk->stack, pk->own_line, "        ", width);
   if (!pk->own_n)
      return;
   fprintf(out, "      By %s (pages):\n", pk->data ? "owner" : "code "
           "owner, the function that brought each page in");
   for (size_t k = 0; k < pk->own_n; k++) {
      const struct wsp_owner_line *ol = &f->owners[pk->own_first + k];
      const struct wsp_heap_window *hw = ol->o.kind == WSP_OWN_HEAP
         ? wsp_heap_window_of(f, n, ol->o.stack) : NULL;
      wsp_lprintf(&l, "      %8llu  ", (unsigned long long)ol->pages);
      wsp_lowner(&l, f, &ol->o, width);
      wsp_lflush(out, &l, width);
      if (hw) {                    /* allocated vs touched now */
         wsp_lprintf(&l, "                %llu of its %llu live bytes in "
                     "the window", (unsigned long long)hw->window,
                     (unsigned long long)hw->live);
         wsp_lflush(out, &l, width);
      }
      put_owner_stack(out, f, &ol->o, "                  ", width);
   }
}

static void peaks_v4(FILE *out, const struct wsp_file *f, int width)
{
   size_t n_insn = 0;
   for (size_t i = 0; i < f->n_peaks; i++)
      n_insn += !f->peaks[i].data;
   fprintf(out, "\nPeaks: %zu (%zu insn, %zu data)", f->n_peaks, n_insn,
           f->n_peaks - n_insn);
   if (f->trailer_found != WSP_NONE)
      fprintf(out, "; the detector found %llu",
              (unsigned long long)f->trailer_found);
   fprintf(out, "\n");
   if (!f->n_peaks) {
      fprintf(out, "  none (the run has no sample, or --ws-peak-detect="
              "no)\n");
      return;
   }
   wsp_wrap(out, width, 2, "  Of each kind the largest samples, then the "
            "peaks that stand out most (pages above the detector's "
            "baseline), the most prominent first; \"->\" marks the first "
            "line of a stack in the program's own code.\n");
   for (int data = 0; data < 2; data++) {
      int any = 0;
      for (size_t i = 0; i < f->n_peaks; i++) {
         if (f->peaks[i].data != data)
            continue;
         if (!any++)
            fprintf(out, "\n%s peaks:\n", data ? "Data" : "Instruction");
         else
            fputc('\n', out);
         peak_v4(out, f, i, width);
      }
   }
}

/*------------------------------------------------------------*/
/*--- Version 3: every peak, folded by stack               ---*/
/*------------------------------------------------------------*/

static void peak_line(struct wsp_line *l, const struct wsp_file *f, size_t n)
{
   const struct wsp_peak *pk = &f->peaks[n];
   char tb[48], kb[32];
   wsp_fmt_time(tb, sizeof tb, pk->t, f->ms);
   wsp_fmt_kb(kb, sizeof kb, (double)pk->size, f->pagesize);
   wsp_lprintf(l, "#%zu at %s: %s %llu pages (%s kB)", n, tb,
               pk->data ? "data" : "insn", (unsigned long long)pk->size, kb);
}

/* The peaks, folded by call stack in the order of each stack's first
   peak: a program that peaks at the same place again and again shows
   that place once. */
static void peaks_v3(FILE *out, const struct wsp_file *f, int width)
{
   struct wsp_line l = { .n = 0 };
   size_t n_insn = 0;
   for (size_t i = 0; i < f->n_peaks; i++)
      n_insn += !f->peaks[i].data;
   if (!f->n_peaks) {
      fprintf(out, "\nPeaks: none\n");
      return;
   }
   fprintf(out, "\nPeaks: %zu (%zu insn, %zu data), by call stack:\n",
           f->n_peaks, n_insn, f->n_peaks - n_insn);
   unsigned char *done = calloc(f->n_peaks, 1);
   if (!done) {
      fprintf(out, "  (out of memory)\n");
      return;
   }
   size_t groups = 0;
   for (size_t i = 0; i < f->n_peaks && groups < MAX_GROUPS; i++) {
      if (done[i])
         continue;
      size_t st = f->peaks[i].stack, count = 0, shown = 0;
      for (size_t j = i; j < f->n_peaks; j++)
         count += f->peaks[j].stack == st;
      groups++;
      fprintf(out, "\n  %zu peak%s with stack %llu:\n", count,
              count > 1 ? "s" : "", (unsigned long long)f->stacks[st].id);
      for (size_t j = i; j < f->n_peaks; j++) {
         if (f->peaks[j].stack != st)
            continue;
         done[j] = 1;
         if (shown++ < MAX_LISTED) {
            wsp_lput(&l, "    ", 4);
            peak_line(&l, f, j);
            wsp_lflush(out, &l, width);
         }
      }
      if (count > MAX_LISTED)
         fprintf(out, "    ... and %zu more\n", count - MAX_LISTED);
      wsp_put_stack(out, f, st, -1, "      ", width);
   }
   size_t left = 0;
   for (size_t i = 0; i < f->n_peaks; i++)
      left += !done[i];
   if (left)
      fprintf(out, "\n  ... and %zu more peak%s with other stacks\n", left,
              left > 1 ? "s" : "");
   free(done);

   /* what the data working set held at each peak */
   fprintf(out, "\nData working set at each peak, by owner (pages):\n");
   for (size_t i = 0; i < f->n_peaks && i < MAX_OWNED; i++) {
      const struct wsp_peak *pk = &f->peaks[i];
      wsp_lput(&l, "  ", 2);
      peak_line(&l, f, i);
      if (!pk->own_n)
         wsp_lput(&l, ": no owner lines", 16);
      wsp_lflush(out, &l, width);
      for (size_t k = 0; k < pk->own_n; k++) {
         const struct wsp_owner_line *ol = &f->owners[pk->own_first + k];
         wsp_lprintf(&l, "    %8llu  ", (unsigned long long)ol->pages);
         wsp_lowner(&l, f, &ol->o, width);
         wsp_lflush(out, &l, width);
         put_owner_stack(out, f, &ol->o, "                ", width);
      }
   }
   if (f->n_peaks > MAX_OWNED)
      fprintf(out, "  ... and %zu more peaks\n", f->n_peaks - MAX_OWNED);
}

void wsp_text_peaks(FILE *out, const struct wsp_file *f, int width)
{
   if (f->version >= 4)
      peaks_v4(out, f, width);
   else if (f->version == 3)
      peaks_v3(out, f, width);
}

/*------------------------------------------------------------*/
/*--- Hot pages                                            ---*/
/*------------------------------------------------------------*/

void wsp_text_hot(FILE *out, const struct wsp_file *f, int width)
{
   struct wsp_line l = { .n = 0 };
   if (f->version < 3 || !f->complete)
      return;
   if (f->n_pages[0] || f->n_pages[1])
      fprintf(out, "\nEvery page (--ws-list-pages=yes): the file lists %zu "
              "instruction and %zu data pages\n", f->n_pages[0],
              f->n_pages[1]);
   if (!f->n_hot) {
      fprintf(out, "\nHot pages: none in the file (ws lists them unless "
              "--ws-hot=0)\n");
      return;
   }
   for (int data = 0; data < 2; data++) {
      size_t n = 0;
      for (size_t i = 0; i < f->n_hot; i++)
         n += f->hot[i].data == data;
      if (!n)
         continue;
      fprintf(out, "\nHot %s pages (%s):\n", data ? "data" : "instruction",
              data ? "accesses: loads and stores" : "accesses: "
              "instructions executed from the page");
      fprintf(out, "  %5s %14s  %-18s %s\n", "rank", "accesses", "page",
              data ? "first accessed in" : "first executed in");
      for (size_t i = 0; i < f->n_hot; i++) {
         const struct wsp_hot *h = &f->hot[i];
         if (h->data != data)
            continue;
         wsp_lprintf(&l, "  %5llu %14llu  0x%-16llx ",
                     (unsigned long long)h->rank,
                     (unsigned long long)h->accesses,
                     (unsigned long long)h->addr);
         wsp_lwhere(&l, &h->w, width, 0);
         wsp_lflush(out, &l, width);
         if (data) {
            wsp_lput(&l, "          owner: ", 17);
            wsp_lowner(&l, f, &h->o, width);
            wsp_lflush(out, &l, width);
            put_owner_stack(out, f, &h->o, "            ", width);
         }
      }
   }
}

/*--------------------------------------------------------------------*/
/*--- end                                         wsp_text_peaks.c ---*/
/*--------------------------------------------------------------------*/

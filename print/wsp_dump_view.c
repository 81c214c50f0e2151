/*--------------------------------------------------------------------*/
/*--- ws_print: dump files shown.                  wsp_dump_view.c ---*/
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

/* Shows a file `ws dump FILE` wrote (docs/output-format.md, "Dump
   files"), as the reader keeps it (dumps[0] its block, dump_pages its
   pages): the text view (a summary, the data pages by owner, then every
   page as a table) and --csv (one row per page). */

#include <stdlib.h>
#include <string.h>

#include "wsp_render.h"

/*------------------------------------------------------------*/
/*--- The text view                                        ---*/
/*------------------------------------------------------------*/

/* How many of the owners with the most data pages are listed. */
#define TOP_OWNERS 10

/* The data pages of one owner: a heap owner by its allocation stack
   (not by block), a global or file by name, a stack by thread. */
struct owner_group {
   struct wsp_owner o;
   uint64_t         pages, accesses;
   size_t           first;               /* its first page's index */
};

/* Owners in an order that puts the pages of one group together. */
static int owner_order(const struct wsp_owner *a, const struct wsp_owner *b)
{
   int c = 0;
   if (a->kind != b->kind)
      return a->kind < b->kind ? -1 : 1;
   switch (a->kind) {
   case WSP_OWN_HEAP:
   case WSP_OWN_FREED:
      return a->stack < b->stack ? -1 : a->stack > b->stack;
   case WSP_OWN_GLOBAL:
   case WSP_OWN_FILE:
      c = memcmp(a->name.s, b->name.s, a->name.len < b->name.len
                                       ? a->name.len : b->name.len);
      return c ? c : a->name.len < b->name.len ? -1
                     : a->name.len > b->name.len;
   case WSP_OWN_STACK:
      return a->tid < b->tid ? -1 : a->tid > b->tid;
   default:
      return 0;
   }
}

static const struct wsp_dump_page *sort_pages;   /* for cmp_pages */

/* Page indexes by owner, then in file order. */
static int cmp_pages(const void *x, const void *y)
{
   size_t i = *(const size_t *)x, j = *(const size_t *)y;
   int c = owner_order(&sort_pages[i].o, &sort_pages[j].o);
   return c ? c : (i < j ? -1 : i > j);
}

/* Most pages first; among equals, the owner seen first. */
static int cmp_groups(const void *x, const void *y)
{
   const struct owner_group *a = x, *b = y;
   if (a->pages != b->pages)
      return a->pages < b->pages ? 1 : -1;
   return a->first < b->first ? -1 : a->first > b->first;
}

/* The owners of f's data pages, most pages first (malloc'd; NULL when
   memory runs out): the pages sorted by owner, then each run counted. */
static struct owner_group *owner_groups(const struct wsp_file *f,
                                        size_t *n)
{
   size_t *idx = malloc((f->n_dump_pages + 1) * sizeof *idx), m = 0;
   struct owner_group *g = malloc((f->n_dump_pages + 1) * sizeof *g);
   *n = 0;
   if (!idx || !g) {
      free(idx);
      free(g);
      return NULL;
   }
   for (size_t i = 0; i < f->n_dump_pages; i++)
      if (f->dump_pages[i].data)
         idx[m++] = i;
   sort_pages = f->dump_pages;
   qsort(idx, m, sizeof *idx, cmp_pages);
   for (size_t k = 0; k < m; k++) {
      const struct wsp_dump_page *pg = &f->dump_pages[idx[k]];
      struct owner_group *last = *n ? &g[*n - 1] : NULL;
      if (!last || owner_order(&last->o, &pg->o) != 0) {
         last = &g[(*n)++];
         last->o = pg->o;
         last->o.block = WSP_NONE;        /* "heap blocks from ..." */
         last->pages = last->accesses = 0;
         last->first = idx[k];           /* the smallest: sorted so */
      }
      last->pages++;
      last->accesses += pg->accesses;
   }
   free(idx);
   qsort(g, *n, sizeof *g, cmp_groups);
   return g;
}

static void summary(FILE *out, const struct wsp_file *f,
                    const struct wsp_text_opts *o)
{
   const struct wsp_dump *d = &f->dumps[0];
   const char *u = f->ms ? "ms" : "i";
   uint64_t acc[2] = { 0, 0 };
   char t[48], ki[32], kd[32];
   struct wsp_line l = { .n = 0 };

   for (size_t i = 0; i < f->n_dump_pages; i++)
      acc[f->dump_pages[i].data] += f->dump_pages[i].accesses;
   wsp_fmt_time(t, sizeof t, d->t, f->ms);
   wsp_fmt_kb(ki, sizeof ki, (double)d->n_insn, f->pagesize);
   wsp_fmt_kb(kd, sizeof kd, (double)d->n_data, f->pagesize);
   wsp_rule(out, o->width);
   wsp_lprintf(&l, "Dump file:    %s (ws dump, format %d)", o->name,
               f->version);
   wsp_lflush(out, &l, o->width);
   fprintf(out, "PID:          %llu\n", (unsigned long long)f->pid);
   wsp_lput(&l, "Output file:  ", 14);
   wsp_lstr(&l, f->output_file);
   wsp_lput(&l, " (the run's)", 12);
   wsp_lflush(out, &l, o->width);
   fprintf(out, "Time:         %s\n", t);
   fprintf(out, "Every (T):    %llu %s\n", (unsigned long long)f->every, u);
   fprintf(out, "Window (tau): %llu %s\n", (unsigned long long)f->tau, u);
   fprintf(out, "Page size:    %llu bytes\n", (unsigned long long)f->pagesize);
   wsp_rule(out, o->width);
   wsp_wrap(out, o->width, 2, "Working set at t=%s: the pages accessed in "
            "the current window\n", t);
   fprintf(out, "  Instruction pages: %llu (%s kB), %llu accesses so far\n",
           (unsigned long long)d->n_insn, ki, (unsigned long long)acc[0]);
   fprintf(out, "  Data pages:        %llu (%s kB), %llu accesses so far\n",
           (unsigned long long)d->n_data, kd, (unsigned long long)acc[1]);
}

static void by_owner(FILE *out, const struct wsp_file *f, int width)
{
   size_t n, shown;
   uint64_t rest_pages = 0;
   struct owner_group *g = owner_groups(f, &n);
   struct wsp_line l = { .n = 0 };

   if (!g) {
      fprintf(out, "out of memory\n");
      return;
   }
   if (n) {
      fprintf(out, "\nData pages by owner (most pages first):\n");
      fprintf(out, "  %8s %10s  %s\n", "pages", "accesses", "owner");
   }
   shown = n < TOP_OWNERS ? n : TOP_OWNERS;
   for (size_t k = 0; k < shown; k++) {
      wsp_lprintf(&l, "  %8llu %10llu  ", (unsigned long long)g[k].pages,
                  (unsigned long long)g[k].accesses);
      wsp_lowner(&l, f, &g[k].o, width);
      wsp_lflush(out, &l, width);
   }
   for (size_t k = shown; k < n; k++)
      rest_pages += g[k].pages;
   if (n > shown)
      fprintf(out, "  %8llu %10s  the %zu other owners\n",
              (unsigned long long)rest_pages, "", n - shown);
   free(g);
}

/* Every page of one kind, in address order: a line each, and for a
   data page a second line with where it was first accessed. */
static void page_table(FILE *out, const struct wsp_file *f, int data,
                       int width)
{
   const char *u = f->ms ? "ms" : "i";
   uint64_t n = data ? f->dumps[0].n_data : f->dumps[0].n_insn;
   int aw = 7;                           /* "address" */
   struct wsp_line l = { .n = 0 };
   char a[24];

   for (size_t i = 0; i < f->n_dump_pages; i++)
      if (f->dump_pages[i].data == data) {
         int w = snprintf(a, sizeof a, "0x%llx",
                          (unsigned long long)f->dump_pages[i].addr);
         if (w > aw)
            aw = w;
      }
   fprintf(out, "\n%s pages (%llu), in address order:\n",
           data ? "Data" : "Instruction", (unsigned long long)n);
   if (!n)
      return;
   fprintf(out, "  %-*s %12s %10s  %s\n", aw, "address", "since",
           "accesses", data ? "owner, then its first access"
                            : "where first accessed");
   for (size_t i = 0; i < f->n_dump_pages; i++) {
      const struct wsp_dump_page *pg = &f->dump_pages[i];
      char since[48];
      if (pg->data != data)
         continue;
      snprintf(a, sizeof a, "0x%llx", (unsigned long long)pg->addr);
      snprintf(since, sizeof since, "%llu %s", (unsigned long long)pg->since,
               u);
      wsp_lprintf(&l, "  %-*s %12s %10llu  ", aw, a, since,
                  (unsigned long long)pg->accesses);
      if (data) {
         wsp_lowner(&l, f, &pg->o, width);
         wsp_lflush(out, &l, width);
         wsp_lprintf(&l, "%*sfirst access: ", aw + 28, "");
      }
      wsp_lwhere(&l, &pg->w, width, 0);
      wsp_lflush(out, &l, width);
   }
}

void wsp_dump_text(FILE *out, const struct wsp_file *f,
                   const struct wsp_text_opts *o)
{
   summary(out, f, o);
   by_owner(out, f, o->width);
   wsp_wrap(out, o->width, 1, "\n(since: the page was last accessed at or "
            "after that time;\n accesses: all its accesses so far in the "
            "run)\n");
   page_table(out, f, 0, o->width);
   page_table(out, f, 1, o->width);
}

/*------------------------------------------------------------*/
/*--- --csv                                                ---*/
/*------------------------------------------------------------*/

/* A CSV field in double quotes (a quote doubled), from a line built as
   the text view builds it, control bytes as \xNN. */
static void csv_field(FILE *out, const struct wsp_line *l)
{
   fputc('"', out);
   for (size_t i = 0; i < l->n; i++) {
      if (l->b[i] == '"')
         fputc('"', out);
      fputc(l->b[i], out);
   }
   fputc('"', out);
}

void wsp_dump_csv(FILE *out, const struct wsp_file *f)
{
   /* wide enough that no name is shortened */
   const int wide = (int)sizeof ((struct wsp_line *)0)->b;
   struct wsp_line l = { .n = 0 };

   fputs("kind,address,since,accesses,ip,location,function,owner\n", out);
   for (size_t i = 0; i < f->n_dump_pages; i++) {
      const struct wsp_dump_page *pg = &f->dump_pages[i];
      fprintf(out, "%s,0x%llx,%llu,%llu,0x%llx,", pg->data ? "data" : "insn",
              (unsigned long long)pg->addr, (unsigned long long)pg->since,
              (unsigned long long)pg->accesses,
              (unsigned long long)pg->w.ip);
      wsp_lstr(&l, pg->w.loc);
      csv_field(out, &l);
      l.n = 0;
      fputc(',', out);
      wsp_lstr(&l, pg->w.fn);
      csv_field(out, &l);
      l.n = 0;
      fputc(',', out);
      if (pg->data) {
         wsp_lowner(&l, f, &pg->o, wide);
         csv_field(out, &l);
         l.n = 0;
      }
      fputc('\n', out);
   }
}

/*--------------------------------------------------------------------*/
/*--- end                                          wsp_dump_view.c ---*/
/*--------------------------------------------------------------------*/

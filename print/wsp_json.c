/*--------------------------------------------------------------------*/
/*--- ws_print: the whole run as JSON.                  wsp_json.c ---*/
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

/* --json FILE: every record of an output file in one JSON object, the
   schema docs/json-schema.md documents (its version is
   WSP_JSON_SCHEMA_VERSION; a change to it changes the version).  The
   records keep the file's order and its numbers exactly; stacks are
   named by the file's ids.  The samples are walked with
   wsp_samples_each(), so a file of any size is written whole; dump
   pages and page lines need the file read with WSP_READ_PAGES. */

#include <string.h>

#include "wsp_render.h"

#define WSP_JSON_SCHEMA_VERSION 1

static uint64_t stack_id(const struct wsp_file *f, size_t idx)
{
   return f->stacks[idx].id;
}

/* A value of a KEY VALUE pair: a number when it is one (a whole number,
   or a fraction as "0.125", "-0.5"), else the text. */
static void kv_value(FILE *out, struct wsp_str v)
{
   size_t minus = v.len > 1 && v.s[0] == '-';
   size_t i = minus, digits = 0, dot = 0;
   for (; i < v.len; i++) {
      if (v.s[i] >= '0' && v.s[i] <= '9')
         digits++;
      else if (v.s[i] == '.' && !dot && digits && i + 1 < v.len)
         dot = i;
      else
         break;
   }
   int leading_zero = v.len > minus + 1 && v.s[minus] == '0'
                      && dot != minus + 1;
   if (i == v.len && digits && !leading_zero && digits <= 19)
      fwrite(v.s, 1, v.len, out);
   else
      wsp_json_str(out, v);
}

static void kvs(FILE *out, const struct wsp_file *f, size_t first, size_t n)
{
   for (size_t i = first; i < first + n; i++) {
      fputc(',', out);
      wsp_json_str(out, f->kvs[i].key);
      fputc(':', out);
      kv_value(out, f->kvs[i].value);
   }
}

static void header(FILE *out, const struct wsp_file *f)
{
   fputs("\"header\":{", out);
   for (size_t i = 0; i < f->n_hdr; i++) {
      if (i)
         fputc(',', out);
      wsp_json_str(out, f->hdr[i].key);
      fputc(':', out);
      wsp_json_str(out, f->hdr[i].value);
   }
   fputs("},\n\"columns\":[", out);
   for (size_t i = 0; i < f->columns.n; i++) {
      if (i)
         fputc(',', out);
      wsp_json_str(out, f->columns.name[i]);
   }
   fprintf(out, "],\"per_thread\":%s,\n", f->columns.per_thread ? "true"
                                                               : "false");
}

struct walk {
   FILE                    *out;
   const struct wsp_file   *f;
};

static int sample(void *arg, size_t i, const struct wsp_sample *s,
                  const struct wsp_thread_ws *thr)
{
   const struct walk *w = arg;
   FILE *out = w->out;
   fputs(i ? ",\n[" : "\n[", out);
   for (size_t k = 0; k < w->f->columns.n; k++)       /* in file order */
      for (int c = 0; c < WSP_N_COLS; c++)
         if (w->f->columns.at[c] == (int)k)
            fprintf(out, "%s%llu", k ? "," : "",
                    (unsigned long long)s->v[c]);
   if (w->f->columns.per_thread) {
      fputs(",[", out);
      for (uint32_t k = 0; k < s->thr_count; k++)
         fprintf(out, "%s[%llu,%llu,%llu]", k ? "," : "",
                 (unsigned long long)thr[k].tid,
                 (unsigned long long)thr[k].insn,
                 (unsigned long long)thr[k].data);
      fputc(']', out);
   }
   if (s->final)
      fputs(",\"final\"", out);
   fputc(']', out);
   return 0;
}

static void page(FILE *out, const struct wsp_file *f,
                 const struct wsp_dump_page *pg, int dump)
{
   fprintf(out, "{\"kind\":\"%s\",\"addr\":", pg->data ? "data" : "insn");
   wsp_json_hex(out, pg->addr);
   if (dump)
      fprintf(out, ",\"since\":%llu", (unsigned long long)pg->since);
   if (f->version >= 3) {
      fprintf(out, ",\"accesses\":%llu,", (unsigned long long)pg->accesses);
      wsp_json_where(out, &pg->w);
   }
   if (dump && pg->data && f->version >= 3) {
      fputs(",\"owner\":", out);
      wsp_json_owner(out, &pg->o, f);
   }
   fputc('}', out);
}

/* The pages of the dump blocks are in the model when the file was read
   for them (else the blocks are written without their pages). */
static int pages_kept(const struct wsp_file *f)
{
   return f->keep_pages || f->dump_file;
}

static void dumps(FILE *out, const struct wsp_file *f)
{
   fputs("\"dumps\":[", out);
   for (size_t i = 0; i < f->n_dumps; i++) {
      const struct wsp_dump *d = &f->dumps[i];
      fprintf(out, "%s{\"t\":%llu,\"label\":", i ? ",\n" : "\n",
              (unsigned long long)d->t);
      if (d->label.s)
         wsp_json_str(out, d->label);
      else
         fputs("null", out);
      fprintf(out, ",\"insn_pages\":%llu,\"data_pages\":%llu,",
              (unsigned long long)d->n_insn, (unsigned long long)d->n_data);
      if (f->linesize)
         fprintf(out, "\"insn_lines\":%llu,\"data_lines\":%llu,",
                 (unsigned long long)d->lines_insn,
                 (unsigned long long)d->lines_data);
      fputs("\"pages\":[", out);
      for (uint64_t k = 0; pages_kept(f) && k < d->n_insn + d->n_data;
           k++) {
         if (k)
            fputc(',', out);
         page(out, f, &f->dump_pages[d->page_first + k], 1);
      }
      fputs("]}", out);
   }
   fputs("],\n", out);
}

static void stacks(FILE *out, const struct wsp_file *f)
{
   fputs("\"stacks\":[", out);
   for (size_t i = 0; i < f->n_stacks; i++) {
      const struct wsp_stack *st = &f->stacks[i];
      fprintf(out, "%s{\"id\":%llu,\"frames\":[", i ? ",\n" : "\n",
              (unsigned long long)st->id);
      for (size_t k = 0; k < st->n; k++) {
         const struct wsp_frame *fr = &f->frames[st->first + k];
         fputs(k ? ",{" : "{", out);
         wsp_json_where(out, &fr->w);
         fprintf(out, ",\"inline\":%s}", fr->inl ? "true" : "false");
      }
      fputs("]}", out);
   }
   fputs("],\n", out);
}

static void peak(FILE *out, const struct wsp_file *f, size_t n)
{
   const struct wsp_peak *pk = &f->peaks[n];
   static const char *const why[] = { "largest", "region", "detected" };
   fprintf(out, "{\"n\":%zu,\"kind\":\"%s\",\"t\":%llu,\"size\":%llu,"
           "\"stack\":%llu", n, pk->data ? "data" : "insn",
           (unsigned long long)pk->t, (unsigned long long)pk->size,
           (unsigned long long)stack_id(f, pk->stack));
   if (f->version >= 4) {
      fprintf(out, ",\"baseline\":%llu,\"why\":[",
              (unsigned long long)pk->baseline);
      for (int b = 0, any = 0; b < 3; b++)
         if (pk->why & (1u << b))
            fprintf(out, "%s\"%s\"", any++ ? "," : "", why[b]);
      fprintf(out, "],\"from\":\"%s\",\"own\":", pk->rise ? "rise"
                                                        : "sample");
      if (pk->own_line < 0)
         fputs("null", out);
      else
         fprintf(out, "%ld", pk->own_line);
   }
   fputs(",\"regions\":[", out);
   for (size_t k = 0; k < pk->reg_n; k++) {
      if (k)
         fputc(',', out);
      wsp_json_str(out, f->region_labels[pk->reg_first + k]);
   }
   fputs("],\"owners\":[", out);
   for (size_t k = 0; k < pk->own_n; k++) {
      const struct wsp_owner_line *ol = &f->owners[pk->own_first + k];
      fprintf(out, "%s{\"pages\":%llu,\"owner\":", k ? "," : "",
              (unsigned long long)ol->pages);
      wsp_json_owner(out, &ol->o, f);
      fputc('}', out);
   }
   fputs("],\"heap_windows\":[", out);
   for (size_t k = 0, any = 0; k < f->n_heap_windows; k++) {
      const struct wsp_heap_window *hw = &f->heap_windows[k];
      if (hw->peak != n)
         continue;
      fprintf(out, "%s{\"stack\":%llu", any++ ? "," : "",
              (unsigned long long)stack_id(f, hw->stack));
      kvs(out, f, hw->kv_first, hw->kv_n);
      fputc('}', out);
   }
   fputs("]}", out);
}

static void trailer(FILE *out, const struct wsp_file *f)
{
   fputs("\"regions\":", out);
   wsp_json_regions(out, f);
   fputs(",\n\"hot\":[", out);
   for (size_t i = 0; i < f->n_hot; i++) {
      const struct wsp_hot *h = &f->hot[i];
      fprintf(out, "%s{\"kind\":\"%s\",\"rank\":%llu,\"accesses\":%llu,"
              "\"addr\":", i ? ",\n" : "\n", h->data ? "data" : "insn",
              (unsigned long long)h->rank, (unsigned long long)h->accesses);
      wsp_json_hex(out, h->addr);
      fputc(',', out);
      wsp_json_where(out, &h->w);
      if (h->data) {
         fputs(",\"owner\":", out);
         wsp_json_owner(out, &h->o, f);
      }
      fputc('}', out);
   }
   fputs("],\n\"pages\":[", out);
   for (size_t i = 0; f->keep_pages && i < f->n_pages[0] + f->n_pages[1];
        i++) {
      fputs(i ? ",\n" : "\n", out);
      page(out, f, &f->pages[i], 0);
   }
   fputs("],\n\"heap_sites\":[", out);
   for (size_t i = 0; i < f->n_heap_sites; i++) {
      const struct wsp_heap_site *s = &f->heap_sites[i];
      fprintf(out, "%s{\"site\":%llu,\"stack\":%llu", i ? ",\n" : "\n",
              (unsigned long long)s->id,
              (unsigned long long)stack_id(f, s->stack));
      kvs(out, f, s->kv_first, s->kv_n);
      fputc('}', out);
   }
   fputs("],\n\"heap_chunks\":[", out);
   for (size_t i = 0; i < f->n_heap_chunks; i++) {
      const struct wsp_heap_chunk *c = &f->heap_chunks[i];
      const uint64_t v[9] = { c->alloc, c->free, c->size, c->first, c->last,
                              c->lo, c->hi, c->reads, c->writes };
      static const char *const key[9] = { "alloc", "free", "size", "first",
                                          "last", "lo", "hi", "reads",
                                          "writes" };
      fprintf(out, "%s{\"site\":%llu", i ? ",\n" : "\n",
              (unsigned long long)f->heap_sites[c->site].id);
      for (int k = 0; k < 9; k++) {
         if (k >= 7 && v[k] == WSP_NONE)
            continue;                    /* reads, writes: exact mode's */
         fprintf(out, ",\"%s\":", key[k]);
         if (v[k] == WSP_NONE)
            fputs("null", out);
         else
            fprintf(out, "%llu", (unsigned long long)v[k]);
      }
      fputc('}', out);
   }
   fputs("],\n\"heap_scores\":", out);
   if (f->have_heap_scores)
      fprintf(out, "{\"lifetime\":%llu.%03llu,\"usage\":%llu.%03llu,"
              "\"useful\":%llu.%03llu}",
              (unsigned long long)(f->heap_scores_milli[0] / 1000),
              (unsigned long long)(f->heap_scores_milli[0] % 1000),
              (unsigned long long)(f->heap_scores_milli[1] / 1000),
              (unsigned long long)(f->heap_scores_milli[1] % 1000),
              (unsigned long long)(f->heap_scores_milli[2] / 1000),
              (unsigned long long)(f->heap_scores_milli[2] % 1000));
   else
      fputs("null", out);
   fputs(",\n\"routines\":[", out);
   for (size_t i = 0; i < f->n_routines; i++) {
      const struct wsp_routine *r = &f->routines[i];
      fprintf(out, "%s{\"id\":%llu,\"stack\":%llu", i ? ",\n" : "\n",
              (unsigned long long)r->id,
              (unsigned long long)stack_id(f, r->stack));
      kvs(out, f, r->kv_first, r->kv_n);
      fputs(",\"sizes\":[", out);
      for (size_t k = 0; k < r->n_rows; k++) {
         const struct wsp_routine_row *row = &f->routine_rows[r->first_row
                                                               + k];
         fprintf(out, "%s[%llu,%llu,%llu,%llu,%llu]", k ? "," : "",
                 (unsigned long long)row->size,
                 (unsigned long long)row->count,
                 (unsigned long long)row->min,
                 (unsigned long long)row->mean,
                 (unsigned long long)row->max);
      }
      fputs("]}", out);
   }
   fputs("],\n\"miss_stacks\":[", out);
   for (size_t i = 0; i < f->n_miss_stacks; i++) {
      const struct wsp_miss_stack *m = &f->miss_stacks[i];
      fprintf(out, "%s{\"n\":%zu,\"stack\":%llu,\"insn\":%llu,"
              "\"data\":%llu}", i ? ",\n" : "\n", i + 1,
              (unsigned long long)stack_id(f, m->stack),
              (unsigned long long)m->insn, (unsigned long long)m->data);
   }
   fputs("],\n\"curves\":", out);
   wsp_json_curves(out, f);
   fputs(",\n\"peaks\":[", out);
   for (size_t i = 0; i < f->n_peaks; i++) {
      fputs(i ? ",\n" : "\n", out);
      peak(out, f, i);
   }
   fputs("],\n\"peaks_listed\":", out);
   if (f->trailer_peaks == WSP_NONE)
      fputs("null", out);
   else
      wsp_json_u64(out, f->trailer_peaks);
   fputs(",\"peaks_found\":", out);
   if (f->trailer_found == WSP_NONE)
      fputs("null", out);
   else
      wsp_json_u64(out, f->trailer_found);
   fputs(",\n\"summary\":{", out);
   if (f->have_insn_summary) {
      fputs("\"insn\":", out);
      wsp_json_apt(out, &f->insn_summary);
   }
   if (f->have_data_summary) {
      fputs(f->have_insn_summary ? ",\"data\":" : "\"data\":", out);
      wsp_json_apt(out, &f->data_summary);
   }
   wsp_json_summary_lines(out, f);
   fputs("},\"samples_count\":", out);
   if (f->trailer_samples == WSP_NONE)
      fputs("null", out);
   else
      wsp_json_u64(out, f->trailer_samples);
}

void wsp_json(FILE *out, const struct wsp_file *f)
{
   struct walk w = { out, f };
   fprintf(out, "{\"schema\":\"ws-print-json\",\"schema_version\":%d,\n"
           "\"format_version\":%d,\"complete\":%s,\n",
           WSP_JSON_SCHEMA_VERSION, f->version,
           f->complete ? "true" : "false");
   header(out, f);
   fputs("\"samples\":[", out);
   wsp_samples_each(f, sample, &w);
   fputs("],\n\"events\":[", out);
   for (size_t i = 0; i < f->n_events; i++) {
      fputs(i ? ",\n" : "\n", out);
      wsp_json_event(out, &f->events[i]);
   }
   fputs("],\n", out);
   dumps(out, f);
   stacks(out, f);
   trailer(out, f);
   fputs("}\n", out);
}

/*--------------------------------------------------------------------*/
/*--- end                                               wsp_json.c ---*/
/*--------------------------------------------------------------------*/

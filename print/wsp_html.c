/*--------------------------------------------------------------------*/
/*--- ws_print: the self-contained HTML report.         wsp_html.c ---*/
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

/* The report is print/report.html (its CSS and script inline) with the
   file's data put in as one JSON object where the script says
   WS_DATA.  This file writes that object and nothing else; the page
   draws it.  The object:

     file, tool, command          strings
     pid, ppid, every, tau, pagesize   numbers
     unit                         "i" or "ms"
     syscalls, perThread, instrAtstart, complete, cutLine   booleans
     header     [[key, value], ...]  every header line, in order
     t, insn, data                the samples, one array per column
     heap       the live heap bytes of each sample, or null without the
                heap column (version 6)
     shared     an array, or null without per-thread columns
     thinned    null when the arrays hold every sample; else
                {samples, buckets, insn: [avg, peak, sum], data: [...]}: the
                file has more samples than ws_print keeps, and the
                arrays hold, of each of `buckets` equal spans of the
                run, its first and last sample and those with each
                column's smallest and largest value; samples is the
                file's count, avg, peak and sum each working set's
                over every sample
     events     [{t, kind, ...}]  kind "mark" (label), "start",
                "region-start", "stop", "exec" (path), "final",
                "set" (param, value), "dump" (how: "label" with label,
                "file" with path, or "monitor"), "thread-start" and
                "thread-exit" (tid), "peak" (peak: its number n; an
                event of a peak that went on is one of several),
                "other" (text: the line after t)
     dumps      [{t, label, insn, data}]  the dump blocks, in order
     regions    [{label, regions, samples, insn: [avg, peak, total],
                 data: [...]}]  the trailer's region lines
     summary    {insn: [avg, peak, total], data: [...]} from the
                trailer, or null when the file has none
     version    the format's version; version 2 files have no stacks,
                peaks or hot pages (empty arrays)
     threads    [{tid, i: [sample index, ...], insn: [...], data: [...]}]
                with per-thread columns: each thread id's values in
                the samples that list it (empty without)
     stacks     [[{ip, loc, fn, inline}, ...], ...]  the stack blocks,
                innermost first; "stack" below is an index here
     peaks      [{t, kind, size, stack, owners: [{pages, owner}]}]
                peak n is peaks[n], as its largest sample has it; from
                version 4 also baseline (pages), why (["largest",
                "region", "detected"]), rise (the stack is where the
                window rose), own (the stack's first line in the
                program's own code, or null), regions (labels)
     found      the peaks the detector found (version 4), or null
     final      [sample index, ...] the final samples (version 4)
     hot        [{kind, rank, accesses, addr, ip, loc, fn, owner}] the
                hot lines; owner null for insn pages
   An owner is {kind, text, stack, block, size, tid, name, object}: kind
   as the format names it ("heap", "freed", "heap-other", ..., "code",
   "rest"), text the whole owner as written, stack (heap, freed) an
   index in stacks, block (a string "0x...") and size (heap, freed;
   null when no single block is meant), tid (stack), name (global,
   file; code: the function), object (code).
     heapUsage  the header's heap-usage (true, false), or null (older
                files)
     heapSites  [{id, stack, chunks, bytes, peakLive, usage, never,
                readOnly, writeOnly, lifetime, firstDelay, idleTail,
                useful, threads, touched, neverBytes, exitLive, wasted,
                idle}] the heap-site lines (version 4; usage and useful
                as numbers from 0 to 1, optional keys null when absent,
                wasted and idle the bytes a site wastes by usage and by
                useful lifetime); then score (0 to 1, or null),
                marks (["peak-live", "chunks"]: the Memoro paper's marks,
                wsp_heap_marks) and records ([[alloc, free, size, first,
                last, lo, hi, reads, writes], ...]: its heap-chunk lines,
                null for '-' or a key the line lacks; version 6)
     heapWindows [{peak, stack, live, window}] the heap-window lines
     routines   [{stack, calls, cost, rmsMax, trmsMax, threadInduced,
                 syscallInduced, exponent, r2, calledOut, flagged,
                 sizes: [[size, count, min, mean, max], ...]}] the
                routine lines in ws's order (exponent and r2 null
                without a fit; calledOut and flagged as the text
                report judges them, wsp_routines.c)
   Addresses are strings "0x...", since
   JSON numbers lose bits past 2^53.

   Strings are escaped for a <script> element (wsp_json_fmt.c), so no
   label can end the script or break the page. */

#include <stdlib.h>
#include <string.h>

#include "wsp_render.h"

#define DATA_MARKER "/*@WS_DATA@*/null"


/* One column of the samples as an array, 16 numbers a line. */
static void json_column(FILE *out, const struct wsp_view *v,
                        enum wsp_col col)
{
   fputc('[', out);
   for (size_t i = 0; i < v->n; i++) {
      if (i)
         fputs(i % 16 ? "," : ",\n", out);
      wsp_json_u64(out, v->s[i].v[col]);
   }
   fputc(']', out);
}

/* What a thinned view stands for: the file's count of samples and each
   working set's average, largest sample and sum (for the summary's kB,
   which ws gives from the unrounded sum), or null. */
static void json_thinned(FILE *out, const struct wsp_file *f,
                         const struct wsp_view *v)
{
   const struct wsp_series *ser = &f->samples;
   if (!v->thinned) {
      fputs("null", out);
      return;
   }
   fprintf(out, "{\"samples\":%zu,\"buckets\":%d", ser->n,
           WSP_VIEW_BUCKETS);
   for (int data = 0; data < 2; data++) {
      const struct wsp_col_stats *st = &ser->col[wsp_kind_col(data)];
      long double m = ser->n ? st->sum * 10 / ser->n + 0.5L : 0;
      uint64_t tenths = (uint64_t)m;
      fprintf(out, ",\"%s\":[%llu.%u,%llu,%.0Lf]", data ? "data" : "insn",
              (unsigned long long)(tenths / 10), (unsigned)(tenths % 10),
              (unsigned long long)st->max, st->sum);
   }
   fputc('}', out);
}


/* Per thread id, its values where a sample lists it: one walk over the
   samples per thread id, in increasing order. */
static void json_threads(FILE *out, const struct wsp_series *ser,
                         const struct wsp_view *v)
{
   fputc('[', out);
   for (size_t n = 0; n < ser->n_tids; n++) {
      uint64_t tid = ser->tids[n].tid;
      for (int col = 0; col < 3; col++) {
         if (col == 0)
            fprintf(out, "%s{\"tid\":%llu,\"i\":[", n ? ",\n" : "",
                    (unsigned long long)tid);
         else
            fputs(col == 1 ? "],\"insn\":[" : "],\"data\":[", out);
         int any = 0;
         for (size_t k = 0; k < v->n; k++) {
            const struct wsp_sample *s = &v->s[k];
            for (uint32_t j = 0; j < s->thr_count; j++) {
               const struct wsp_thread_ws *t = &v->thr[s->thr_first + j];
               if (t->tid != tid)
                  continue;
               if (any++)
                  fputc(',', out);
               if (col == 0)
                  fprintf(out, "%zu", k);
               else
                  wsp_json_u64(out, col == 1 ? t->insn : t->data);
            }
         }
      }
      fputs("]}", out);
   }
   fputc(']', out);
}

static void json_opt(FILE *out, const char *key, uint64_t v)
{
   if (v == WSP_NONE)
      fprintf(out, ",\"%s\":null", key);
   else
      fprintf(out, ",\"%s\":%llu", key, (unsigned long long)v);
}

/* A number, or null for WSP_NONE, after |sep|. */
static void json_u64_or_null(FILE *out, const char *sep, uint64_t v)
{
   fputs(sep, out);
   if (v == WSP_NONE)
      fputs("null", out);
   else
      wsp_json_u64(out, v);
}

/* A site's score (null without one), marks and chunk records. */
static void json_site_time(FILE *out, const struct wsp_file *f, size_t i,
                           unsigned char mark)
{
   const struct wsp_heap_site *s = &f->heap_sites[i];
   if (s->score_milli == WSP_NONE)
      fputs(",\"score\":null", out);
   else
      fprintf(out, ",\"score\":%.3f", s->score_milli / 1000.0);
   fprintf(out, ",\"marks\":[%s%s%s]",
           mark & WSP_TOP_PEAK_LIVE ? "\"peak-live\"" : "",
           mark == (WSP_TOP_PEAK_LIVE | WSP_TOP_CHUNKS) ? "," : "",
           mark & WSP_TOP_CHUNKS ? "\"chunks\"" : "");
   fputs(",\"records\":[", out);
   for (size_t k = 0; k < s->n_chunks; k++) {
      const struct wsp_heap_chunk *c = &f->heap_chunks[s->chunk_first + k];
      json_u64_or_null(out, k ? ",[" : "[", c->alloc);
      json_u64_or_null(out, ",", c->free);
      json_u64_or_null(out, ",", c->size);
      json_u64_or_null(out, ",", c->first);
      json_u64_or_null(out, ",", c->last);
      json_u64_or_null(out, ",", c->lo);
      json_u64_or_null(out, ",", c->hi);
      json_u64_or_null(out, ",", c->reads);
      json_u64_or_null(out, ",", c->writes);
      fputc(']', out);
   }
   fputc(']', out);
}

/* The heap members (heapUsage, heapSites, heapWindows). */
static void json_heap(FILE *out, const struct wsp_file *f)
{
   unsigned char *marks = malloc(f->n_heap_sites + 1);
   size_t n_sites = marks && !wsp_heap_marks(f, marks)
                    ? f->n_heap_sites : 0;   /* out of memory: none */
   fprintf(out, ",\n\"heapUsage\":%s,\n\"heapSites\":[",
           f->heap_usage < 0 ? "null" : f->heap_usage ? "true" : "false");
   for (size_t i = 0; i < n_sites; i++) {
      const struct wsp_heap_site *s = &f->heap_sites[i];
      fprintf(out, "%s{\"id\":%llu,\"stack\":%zu,\"chunks\":%llu,"
              "\"bytes\":%llu,\"peakLive\":%llu,\"usage\":%.3f,"
              "\"below\":%llu,\"never\":%llu,\"readOnly\":%llu,"
              "\"writeOnly\":%llu,"
              "\"lifetime\":%llu,\"firstDelay\":%llu,\"idleTail\":%llu,"
              "\"useful\":%.3f,\"threads\":%llu",
              i ? ",\n" : "", (unsigned long long)s->id, s->stack,
              (unsigned long long)s->chunks, (unsigned long long)s->bytes,
              (unsigned long long)s->peak_live, s->usage_milli / 1000.0,
              (unsigned long long)s->below, (unsigned long long)s->never,
              (unsigned long long)s->read_only,
              (unsigned long long)s->write_only,
              (unsigned long long)s->lifetime,
              (unsigned long long)s->first_delay,
              (unsigned long long)s->idle_tail, s->useful_milli / 1000.0,
              (unsigned long long)s->threads);
      json_opt(out, "touched", s->touched);
      json_opt(out, "neverBytes", s->never_bytes);
      json_opt(out, "exitLive", s->exit_live);
      fprintf(out, ",\"wasted\":%llu,\"idle\":%llu",
              (unsigned long long)wsp_heap_value(s, WSP_KEY_USAGE),
              (unsigned long long)wsp_heap_value(s, WSP_KEY_USEFUL));
      json_site_time(out, f, i, marks[i]);
      fputc('}', out);
   }
   free(marks);
   fputs("],\n\"heapWindows\":[", out);
   for (size_t i = 0; i < f->n_heap_windows; i++) {
      const struct wsp_heap_window *w = &f->heap_windows[i];
      fprintf(out, "%s{\"peak\":%zu,\"stack\":%zu,\"live\":%llu,"
              "\"window\":%llu}", i ? "," : "", w->peak, w->stack,
              (unsigned long long)w->live, (unsigned long long)w->window);
   }
   fputc(']', out);
}

/* The routines member. */
static void json_routines(FILE *out, const struct wsp_file *f)
{
   fputs(",\n\"routines\":[", out);
   for (size_t i = 0; i < f->n_routines; i++) {
      const struct wsp_routine *r = &f->routines[i];
      size_t n;
      fprintf(out, "%s{\"stack\":%zu,\"calls\":%llu,\"cost\":%llu,"
              "\"rmsMax\":%llu,\"trmsMax\":%llu,\"threadInduced\":%llu,"
              "\"syscallInduced\":%llu,", i ? ",\n" : "", r->stack,
              (unsigned long long)r->calls, (unsigned long long)r->cost,
              (unsigned long long)r->rms_max,
              (unsigned long long)r->trms_max,
              (unsigned long long)r->thread_induced,
              (unsigned long long)r->syscall_induced);
      if (r->fitted)
         fprintf(out, "\"exponent\":%.3f,\"r2\":%.3f",
                 r->exponent_milli / 1000.0, r->r2_milli / 1000.0);
      else
         fputs("\"exponent\":null,\"r2\":null", out);
      fprintf(out, ",\"calledOut\":%s,\"flagged\":%s,\"sizes\":[",
              wsp_routine_called_out(f, r, &n) ? "true" : "false",
              wsp_routine_flagged(f, r) ? "true" : "false");
      for (size_t k = 0; k < r->n_rows; k++) {
         const struct wsp_routine_row *w = &f->routine_rows[r->first_row
                                                             + k];
         fprintf(out, "%s[%llu,%llu,%llu,%llu,%llu]", k ? "," : "",
                 (unsigned long long)w->size, (unsigned long long)w->count,
                 (unsigned long long)w->min, (unsigned long long)w->mean,
                 (unsigned long long)w->max);
      }
      fputs("]}", out);
   }
   fputc(']', out);
}

static void json_v3(FILE *out, const struct wsp_file *f,
                    const struct wsp_view *v)
{
   fprintf(out, ",\n\"version\":%d,\n\"threads\":", f->version);
   json_threads(out, &f->samples, v);
   fputs(",\n\"stacks\":[", out);
   for (size_t i = 0; i < f->n_stacks; i++) {
      const struct wsp_stack *st = &f->stacks[i];
      fputs(i ? ",\n[" : "[", out);
      for (size_t k = 0; k < st->n; k++) {
         const struct wsp_frame *fr = &f->frames[st->first + k];
         fputs(k ? ",{" : "{", out);
         wsp_json_where(out, &fr->w);
         fprintf(out, ",\"inline\":%s}", fr->inl ? "true" : "false");
      }
      fputc(']', out);
   }
   fputs("],\n\"peaks\":[", out);
   for (size_t i = 0; i < f->n_peaks; i++) {
      const struct wsp_peak *pk = &f->peaks[i];
      fprintf(out, "%s{\"t\":%llu,\"kind\":\"%s\",\"size\":%llu,"
              "\"stack\":%zu,", i ? ",\n" : "",
              (unsigned long long)pk->t, pk->data ? "data" : "insn",
              (unsigned long long)pk->size, pk->stack);
      if (f->version >= 4) {
         static const char *const why[] = { "largest", "region",
                                            "detected" };
         fprintf(out, "\"baseline\":%llu,\"why\":[",
                 (unsigned long long)pk->baseline);
         for (unsigned b = 0, n = 0; b < 3; b++)
            if (pk->why & (1u << b))
               fprintf(out, "%s\"%s\"", n++ ? "," : "", why[b]);
         fprintf(out, "],\"rise\":%s,\"own\":", pk->rise ? "true"
                                                         : "false");
         if (pk->own_line >= 0)
            fprintf(out, "%ld", pk->own_line);
         else
            fputs("null", out);
         fputs(",\"regions\":[", out);
         for (size_t k = 0; k < pk->reg_n; k++) {
            if (k)
               fputc(',', out);
            wsp_json_str(out, f->region_labels[pk->reg_first + k]);
         }
         fputs("],", out);
      }
      fputs("\"owners\":[", out);
      for (size_t k = 0; k < pk->own_n; k++) {
         const struct wsp_owner_line *ol = &f->owners[pk->own_first + k];
         fprintf(out, "%s{\"pages\":%llu,\"owner\":", k ? "," : "",
                 (unsigned long long)ol->pages);
         wsp_json_owner(out, &ol->o, NULL);
         fputc('}', out);
      }
      fputs("]}", out);
   }
   fputs("],\n\"found\":", out);
   if (f->trailer_found == WSP_NONE)
      fputs("null", out);
   else
      wsp_json_u64(out, f->trailer_found);
   fputs(",\n\"final\":[", out);
   for (size_t i = 0, n = 0; i < v->n; i++)
      if (v->s[i].final)
         fprintf(out, "%s%zu", n++ ? "," : "", i);
   fputs("],\n\"hot\":[", out);
   for (size_t i = 0; i < f->n_hot; i++) {
      const struct wsp_hot *h = &f->hot[i];
      fprintf(out, "%s{\"kind\":\"%s\",\"rank\":%llu,\"accesses\":%llu,"
              "\"addr\":", i ? ",\n" : "", h->data ? "data" : "insn",
              (unsigned long long)h->rank, (unsigned long long)h->accesses);
      wsp_json_hex(out, h->addr);
      fputc(',', out);
      wsp_json_where(out, &h->w);
      fputs(",\"owner\":", out);
      if (h->data)
         wsp_json_owner(out, &h->o, NULL);
      else
         fputs("null", out);
      fputc('}', out);
   }
   fputc(']', out);
   json_heap(out, f);
   json_routines(out, f);
   fputc('}', out);
}

static void json_data(FILE *out, const struct wsp_file *f,
                      const struct wsp_view *v, const char *name)
{
   static const char *const yn[] = { "false", "true" };
   fputs("{\"file\":", out);
   wsp_json_cstr(out, name);
   fputs(",\"tool\":", out);
   wsp_json_str(out, f->tool);
   fputs(",\"command\":", out);
   wsp_json_str(out, f->command);
   fprintf(out, ",\"pid\":%llu,\"ppid\":%llu,\"every\":%llu,\"tau\":%llu,"
           "\"pagesize\":%llu,\"unit\":\"%s\"",
           (unsigned long long)f->pid, (unsigned long long)f->ppid,
           (unsigned long long)f->every, (unsigned long long)f->tau,
           (unsigned long long)f->pagesize, f->ms ? "ms" : "i");
   fprintf(out, ",\"syscalls\":%s,\"perThread\":%s,\"instrAtstart\":%s,"
           "\"complete\":%s,\"cutLine\":%s,\n", yn[!!f->syscalls],
           yn[!!f->per_thread], yn[!!f->instr_atstart], yn[!!f->complete],
           yn[!!f->cut_line]);
   fputs("\"header\":[", out);
   for (size_t i = 0; i < f->n_hdr; i++) {
      fputs(i ? ",[" : "[", out);
      wsp_json_str(out, f->hdr[i].key);
      fputc(',', out);
      wsp_json_str(out, f->hdr[i].value);
      fputc(']', out);
   }
   fputs("],\n\"t\":", out);
   json_column(out, v, WSP_COL_T);
   fputs(",\n\"insn\":", out);
   json_column(out, v, WSP_COL_INSN);
   fputs(",\n\"data\":", out);
   json_column(out, v, WSP_COL_DATA);
   fputs(",\n\"insn_lines\":", out);
   if (f->linesize)
      json_column(out, v, WSP_COL_INSN_LINES);
   else
      fputs("null", out);
   fputs(",\n\"data_lines\":", out);
   if (f->linesize)
      json_column(out, v, WSP_COL_DATA_LINES);
   else
      fputs("null", out);
   fprintf(out, ",\n\"linesize\":%llu", (unsigned long long)f->linesize);
   fputs(",\n\"heap\":", out);
   if (f->columns.at[WSP_COL_HEAP] >= 0)
      json_column(out, v, WSP_COL_HEAP);
   else
      fputs("null", out);
   fputs(",\n\"shared\":", out);
   if (f->per_thread)
      json_column(out, v, WSP_COL_SHARED);
   else
      fputs("null", out);
   fputs(",\n\"thinned\":", out);
   json_thinned(out, f, v);
   fputs(",\n\"events\":[", out);
   for (size_t i = 0; i < f->n_events; i++) {
      if (i)
         fputs(",\n", out);
      wsp_json_event(out, &f->events[i]);
   }
   fputs("],\n\"dumps\":[", out);
   for (size_t i = 0; i < f->n_dumps; i++) {
      fprintf(out, "%s{\"t\":%llu,\"label\":", i ? "," : "",
              (unsigned long long)f->dumps[i].t);
      wsp_json_str(out, f->dumps[i].label);
      fprintf(out, ",\"insn\":%llu,\"data\":%llu}",
              (unsigned long long)f->dumps[i].n_insn,
              (unsigned long long)f->dumps[i].n_data);
   }
   fputs("],\n\"regions\":", out);
   wsp_json_regions(out, f);
   fputs(",\n\"curves\":", out);
   wsp_json_curves(out, f);
   fputs(",\n\"summary\":", out);
   if (f->have_insn_summary || f->have_data_summary) {
      const char *sep = "{";
      if (f->have_insn_summary) {
         fputs("{\"insn\":", out);
         wsp_json_apt(out, &f->insn_summary);
         sep = ",";
      }
      if (f->have_data_summary) {
         fprintf(out, "%s\"data\":", sep);
         wsp_json_apt(out, &f->data_summary);
      }
      wsp_json_summary_lines(out, f);
      fputc('}', out);
   } else {
      fputs("null", out);
   }
   json_v3(out, f, v);
}

void wsp_html(FILE *out, const struct wsp_file *f, const char *name)
{
   const char *at = strstr(wsp_report_html, DATA_MARKER);
   struct wsp_view v;
   if (!at) {                    /* the build embedded a broken template */
      fputs("<!DOCTYPE html><p>ws_print: the report template lacks its "
            "data marker.</p>\n", out);
      return;
   }
   if (wsp_samples_view(f, &v) == 0) {
      fwrite(wsp_report_html, 1, (size_t)(at - wsp_report_html), out);
      json_data(out, f, &v, name);
      fputs(at + strlen(DATA_MARKER), out);
   }
   wsp_view_free(&v);
}

/*--------------------------------------------------------------------*/
/*--- end                                               wsp_html.c ---*/
/*--------------------------------------------------------------------*/

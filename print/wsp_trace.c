/*--------------------------------------------------------------------*/
/*--- ws_print: the run as a timeline.                 wsp_trace.c ---*/
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

/* --trace FILE: Chrome's trace-event JSON (the "JSON Object Format" that
   Perfetto's UI and chrome://tracing open).  The time axis: a trace's
   timestamps are microseconds, and one unit of the run's time is one
   microsecond (an instruction with time-unit i; with time-unit ms, a
   millisecond is 1000 microseconds, its own length).  So "1 s" on the
   axis of an instruction-timed run is a million instructions.

   - Counter events ("C"): one track "working set (pages)" with the
     columns insn, data (and shared) at every sample, and with lines
     (format 5) a track "working set (lines)" with insn and data; with
     per-thread columns a track "thread N (pages)" per thread id.
   - Complete events ("X"): each measured stretch, from a start or
     region-start event to the next stop (or the last sample), named by
     the label of the latest mark before it ("measured" without one).
   - Instant events ("i", global scope): marks, peaks (with their size,
     baseline and reasons), dumps, breaks, parameter changes (set),
     thread starts and exits, exec.
   - Metadata ("M"): the process's name, the command.
   All on the file's pid, thread 1. */

#include <stdlib.h>
#include <string.h>

#include "wsp_render.h"

/* t in the run's unit as the trace's microseconds. */
static uint64_t us(const struct wsp_file *f, uint64_t t)
{
   return f->ms ? t * 1000 : t;
}

struct walk {
   FILE                  *out;
   const struct wsp_file *f;
};

static void head(FILE *out, const struct wsp_file *f, const char *ph,
                 uint64_t t)
{
   fprintf(out, ",\n{\"ph\":\"%s\",\"pid\":%llu,\"tid\":1,\"ts\":%llu",
           ph, (unsigned long long)f->pid, (unsigned long long)us(f, t));
}

static int counter(void *arg, size_t i, const struct wsp_sample *s,
                   const struct wsp_thread_ws *thr)
{
   const struct walk *w = arg;
   (void)i;
   head(w->out, w->f, "C", s->v[WSP_COL_T]);
   fprintf(w->out, ",\"name\":\"working set (pages)\",\"args\":{"
           "\"insn\":%llu,\"data\":%llu", (unsigned long long)s->v[WSP_COL_INSN],
           (unsigned long long)s->v[WSP_COL_DATA]);
   if (w->f->columns.at[WSP_COL_SHARED] >= 0)
      fprintf(w->out, ",\"shared\":%llu",
              (unsigned long long)s->v[WSP_COL_SHARED]);
   fputs("}}", w->out);
   if (w->f->columns.at[WSP_COL_INSN_LINES] >= 0) {
      head(w->out, w->f, "C", s->v[WSP_COL_T]);
      fprintf(w->out, ",\"name\":\"working set (lines)\",\"args\":{"
              "\"insn\":%llu,\"data\":%llu}}",
              (unsigned long long)s->v[WSP_COL_INSN_LINES],
              (unsigned long long)s->v[WSP_COL_DATA_LINES]);
   }
   if (w->f->columns.at[WSP_COL_HEAP] >= 0) {
      head(w->out, w->f, "C", s->v[WSP_COL_T]);
      fprintf(w->out, ",\"name\":\"live heap (bytes)\",\"args\":{"
              "\"heap\":%llu}}", (unsigned long long)s->v[WSP_COL_HEAP]);
   }
   for (uint32_t k = 0; k < s->thr_count; k++) {
      head(w->out, w->f, "C", s->v[WSP_COL_T]);
      fprintf(w->out, ",\"name\":\"thread %llu (pages)\",\"args\":{"
              "\"insn\":%llu,\"data\":%llu}}",
              (unsigned long long)thr[k].tid, (unsigned long long)thr[k].insn,
              (unsigned long long)thr[k].data);
   }
   return 0;
}

/* An instant event: named by its kind and text ("mark LABEL", "set
   tau", "dump label LABEL", an unknown kind's line), its fields as
   --json has them in args. */
static void instant(FILE *out, const struct wsp_file *f,
                    const struct wsp_event *e)
{
   const char *kind = wsp_event_name(e->kind);
   size_t kl = strlen(kind);
   char *name = malloc(kl + 1 + e->text.len);
   struct wsp_str n = { name ? name : kind, name ? kl : kl };
   if (name) {
      memcpy(name, kind, kl);
      if (e->text.len && e->kind != WSP_EV_OTHER) {
         name[kl] = ' ';
         memcpy(name + kl + 1, e->text.s, e->text.len);
         n.len = kl + 1 + e->text.len;
      } else if (e->kind == WSP_EV_OTHER) {
         n = e->text;
      }
   }
   head(out, f, "i", e->t);
   fputs(",\"s\":\"g\",\"cat\":", out);
   wsp_json_cstr(out, e->kind == WSP_EV_OTHER ? "event" : kind);
   fputs(",\"name\":", out);
   wsp_json_str(out, n);
   fputs(",\"args\":", out);
   wsp_json_event(out, e);
   fputs("}", out);
   free(name);
}

static void peaks(FILE *out, const struct wsp_file *f)
{
   for (size_t i = 0; i < f->n_peaks; i++) {
      const struct wsp_peak *pk = &f->peaks[i];
      head(out, f, "i", pk->t);
      fprintf(out, ",\"s\":\"g\",\"cat\":\"peak\",\"name\":\"peak %zu: "
              "%s %llu pages\",\"args\":{\"n\":%zu,\"kind\":\"%s\","
              "\"size\":%llu", i, pk->data ? "data" : "insn",
              (unsigned long long)pk->size, i, pk->data ? "data" : "insn",
              (unsigned long long)pk->size);
      if (pk->baseline != WSP_NONE && f->version >= 4)
         fprintf(out, ",\"baseline\":%llu",
                 (unsigned long long)pk->baseline);
      fputs("}}", out);
   }
}

static void regions(FILE *out, const struct wsp_file *f)
{
   struct wsp_str label = { "measured", 8 };
   uint64_t from = 0;
   int on = f->instr_atstart;
   for (size_t i = 0; i <= f->n_events; i++) {
      const struct wsp_event *e = i < f->n_events ? &f->events[i] : NULL;
      int ends = !e || e->kind == WSP_EV_STOP
                 || e->kind == WSP_EV_REGION_START;
      uint64_t t = e ? e->t : f->samples.last_t;
      if (on && ends && t >= from) {
         head(out, f, "X", from);
         fprintf(out, ",\"dur\":%llu,\"cat\":\"region\",\"name\":",
                 (unsigned long long)(us(f, t) - us(f, from)));
         wsp_json_str(out, label);
         fputs("}", out);
         on = 0;
      }
      if (!e)
         break;
      if (e->kind == WSP_EV_MARK)
         label = e->text;
      if (e->kind == WSP_EV_START || e->kind == WSP_EV_REGION_START) {
         on = 1;
         from = e->t;
      }
   }
}

void wsp_trace(FILE *out, const struct wsp_file *f)
{
   struct walk w = { out, f };
   fprintf(out, "{\"displayTimeUnit\":\"ns\",\"otherData\":{"
           "\"time-unit\":\"%s\",\"microseconds-per-unit\":%d,"
           "\"every\":%llu,\"tau\":%llu,\"pagesize\":%llu},\n"
           "\"traceEvents\":[\n{\"ph\":\"M\",\"pid\":%llu,\"tid\":1,"
           "\"name\":\"process_name\",\"args\":{\"name\":",
           f->ms ? "ms" : "i", f->ms ? 1000 : 1,
           (unsigned long long)f->every, (unsigned long long)f->tau,
           (unsigned long long)f->pagesize, (unsigned long long)f->pid);
   wsp_json_str(out, f->command);
   fputs("}}", out);
   wsp_samples_each(f, counter, &w);
   regions(out, f);
   for (size_t i = 0; i < f->n_events; i++)
      if (f->events[i].kind != WSP_EV_START && f->events[i].kind != WSP_EV_STOP
          && f->events[i].kind != WSP_EV_FINAL)
         instant(out, f, &f->events[i]);
   peaks(out, f);
   fputs("\n]}\n", out);
}

/*--------------------------------------------------------------------*/
/*--- end                                              wsp_trace.c ---*/
/*--------------------------------------------------------------------*/

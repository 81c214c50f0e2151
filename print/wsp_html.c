/*--------------------------------------------------------------------*/
/*--- ws_print: the self-contained HTML report.       wsp_html.c ---*/
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
     shared     an array, or null without per-thread columns
     events     [{t, kind, ...}]  kind "mark" (label), "start", "stop",
                "set" (param, value), "dump" (how: "label" with label,
                "file" with path, or "monitor"), "thread-start" and
                "thread-exit" (tid), "other" (text: the line after t)
     dumps      [{t, label, insn, data}]  the dump blocks, in order
     regions    [{label, regions, samples, insn: [avg, peak, total],
                 data: [...]}]  the trailer's region lines
     summary    {insn: [avg, peak, total], data: [...]} from the
                trailer, or null when the file has none
     hot        null: reserved for hot pages when the format has them

   Strings are escaped for a <script> element: '<', '>' and '&' as
   \u escapes, control bytes too, and bytes that are not UTF-8 become
   U+FFFD, so no label can end the script or break the page. */

#include <string.h>

#include "wsp.h"

#define DATA_MARKER "/*@WS_DATA@*/null"

/* Length of the UTF-8 sequence at s (at most n bytes), 0 if invalid. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
   unsigned char c = s[0];
   size_t len;
   unsigned char lo = 0x80, hi = 0xbf;
   if (c >= 0xc2 && c <= 0xdf)
      len = 2;
   else if (c >= 0xe0 && c <= 0xef) {
      len = 3;
      if (c == 0xe0)
         lo = 0xa0;
      if (c == 0xed)
         hi = 0x9f;
   } else if (c >= 0xf0 && c <= 0xf4) {
      len = 4;
      if (c == 0xf0)
         lo = 0x90;
      if (c == 0xf4)
         hi = 0x8f;
   } else
      return 0;
   if (n < len || s[1] < lo || s[1] > hi)
      return 0;
   for (size_t i = 2; i < len; i++)
      if (s[i] < 0x80 || s[i] > 0xbf)
         return 0;
   return len;
}

static void json_str(FILE *out, struct wsp_str str)
{
   const unsigned char *s = (const unsigned char *)str.s;
   fputc('"', out);
   for (size_t i = 0; i < str.len;) {
      unsigned char c = s[i];
      if (c >= 0x80) {
         size_t n = utf8_len(s + i, str.len - i);
         if (n == 0) {
            fputs("\\ufffd", out);
            i++;
         } else if (n == 3 && c == 0xe2 && s[i + 1] == 0x80
                    && (s[i + 2] == 0xa8 || s[i + 2] == 0xa9)) {
            fprintf(out, "\\u202%c", s[i + 2] == 0xa8 ? '8' : '9');
            i += 3;
         } else {
            fwrite(s + i, 1, n, out);
            i += n;
         }
         continue;
      }
      if (c == '"' || c == '\\')
         fprintf(out, "\\%c", c);
      else if (c < 0x20 || c == 0x7f || c == '<' || c == '>' || c == '&')
         fprintf(out, "\\u%04x", c);
      else
         fputc(c, out);
      i++;
   }
   fputc('"', out);
}

static void json_cstr(FILE *out, const char *s)
{
   struct wsp_str w = { s, strlen(s) };
   json_str(out, w);
}

static void json_u64(FILE *out, uint64_t v)
{
   fprintf(out, "%llu", (unsigned long long)v);
}

static void json_apt(FILE *out, const struct wsp_apt *a)
{
   fprintf(out, "[%llu.%u,%llu,%llu]", (unsigned long long)(a->avg10 / 10),
           (unsigned)(a->avg10 % 10), (unsigned long long)a->peak,
           (unsigned long long)a->total);
}

/* One column of the samples as an array, 16 numbers a line. */
static void json_column(FILE *out, const struct wsp_file *f, int which)
{
   fputc('[', out);
   for (size_t i = 0; i < f->n_samples; i++) {
      const struct wsp_sample *s = &f->samples[i];
      uint64_t v = which == 0 ? s->t : which == 1 ? s->insn
                   : which == 2 ? s->data : s->shared;
      if (i)
         fputs(i % 16 ? "," : ",\n", out);
      json_u64(out, v);
   }
   fputc(']', out);
}

static void json_event(FILE *out, const struct wsp_event *e)
{
   fprintf(out, "{\"t\":%llu,\"kind\":", (unsigned long long)e->t);
   json_cstr(out, wsp_event_name(e->kind));
   switch (e->kind) {
   case WSP_EV_THREAD_START:
   case WSP_EV_THREAD_EXIT:
      fprintf(out, ",\"tid\":%llu", (unsigned long long)e->num);
      break;
   case WSP_EV_SET:
      fputs(",\"param\":", out);
      json_str(out, e->text);
      fprintf(out, ",\"value\":%llu", (unsigned long long)e->num);
      break;
   case WSP_EV_MARK:
      fputs(",\"label\":", out);
      json_str(out, e->text);
      break;
   case WSP_EV_DUMP_LABEL:
      fputs(",\"how\":\"label\",\"label\":", out);
      json_str(out, e->text);
      break;
   case WSP_EV_DUMP_FILE:
      fputs(",\"how\":\"file\",\"path\":", out);
      json_str(out, e->text);
      break;
   case WSP_EV_DUMP_MONITOR:
      fputs(",\"how\":\"monitor\"", out);
      break;
   case WSP_EV_OTHER:
      fputs(",\"text\":", out);
      json_str(out, e->text);
      break;
   default:
      break;
   }
   fputc('}', out);
}

static void json_data(FILE *out, const struct wsp_file *f, const char *name)
{
   static const char *const yn[] = { "false", "true" };
   fputs("{\"file\":", out);
   json_cstr(out, name);
   fputs(",\"tool\":", out);
   json_str(out, f->tool);
   fputs(",\"command\":", out);
   json_str(out, f->command);
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
      json_str(out, f->hdr[i].key);
      fputc(',', out);
      json_str(out, f->hdr[i].value);
      fputc(']', out);
   }
   fputs("],\n\"t\":", out);
   json_column(out, f, 0);
   fputs(",\n\"insn\":", out);
   json_column(out, f, 1);
   fputs(",\n\"data\":", out);
   json_column(out, f, 2);
   fputs(",\n\"shared\":", out);
   if (f->per_thread)
      json_column(out, f, 3);
   else
      fputs("null", out);
   fputs(",\n\"events\":[", out);
   for (size_t i = 0; i < f->n_events; i++) {
      if (i)
         fputs(",\n", out);
      json_event(out, &f->events[i]);
   }
   fputs("],\n\"dumps\":[", out);
   for (size_t i = 0; i < f->n_dumps; i++) {
      fprintf(out, "%s{\"t\":%llu,\"label\":", i ? "," : "",
              (unsigned long long)f->dumps[i].t);
      json_str(out, f->dumps[i].label);
      fprintf(out, ",\"insn\":%llu,\"data\":%llu}",
              (unsigned long long)f->dumps[i].n_insn,
              (unsigned long long)f->dumps[i].n_data);
   }
   fputs("],\n\"regions\":[", out);
   for (size_t i = 0; i < f->n_regions; i++) {
      const struct wsp_region *g = &f->regions[i];
      fputs(i ? ",\n{\"label\":" : "{\"label\":", out);
      json_str(out, g->label);
      fprintf(out, ",\"regions\":%llu,\"samples\":%llu,\"insn\":",
              (unsigned long long)g->regions, (unsigned long long)g->samples);
      json_apt(out, &g->insn);
      fputs(",\"data\":", out);
      json_apt(out, &g->data);
      fputc('}', out);
   }
   fputs("],\n\"summary\":", out);
   if (f->have_insn_summary || f->have_data_summary) {
      const char *sep = "{";
      if (f->have_insn_summary) {
         fputs("{\"insn\":", out);
         json_apt(out, &f->insn_summary);
         sep = ",";
      }
      if (f->have_data_summary) {
         fprintf(out, "%s\"data\":", sep);
         json_apt(out, &f->data_summary);
      }
      fputc('}', out);
   } else {
      fputs("null", out);
   }
   fputs(",\n\"hot\":null}", out);
}

void wsp_html(FILE *out, const struct wsp_file *f, const char *name)
{
   const char *at = strstr(wsp_report_html, DATA_MARKER);
   if (!at) {                    /* the build embedded a broken template */
      fputs("<!DOCTYPE html><p>ws_print: the report template lacks its "
            "data marker.</p>\n", out);
      return;
   }
   fwrite(wsp_report_html, 1, (size_t)(at - wsp_report_html), out);
   json_data(out, f, name);
   fputs(at + strlen(DATA_MARKER), out);
}

/*--------------------------------------------------------------------*/
/*--- end                                               wsp_html.c ---*/
/*--------------------------------------------------------------------*/

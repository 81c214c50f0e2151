/*--------------------------------------------------------------------*/
/*--- ws_print: JSON values, for --html and --json. wsp_json_fmt.c ---*/
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

/* The model's records as JSON values, shared by the HTML report's data
   (wsp_html.c) and --json (wsp_json.c), so that both spell a string,
   an event, a where and an owner the same way.

   Strings are valid UTF-8 JSON that is also safe inside a <script>
   element: '"' and '\\' escaped, control bytes, '<', '>' and '&' as
   \u escapes, U+2028 and U+2029 too, and a byte that is not part of a
   well-formed UTF-8 character becomes U+FFFD. */

#include <string.h>

#include "wsp_render.h"

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

void wsp_json_str(FILE *out, struct wsp_str str)
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

void wsp_json_cstr(FILE *out, const char *s)
{
   struct wsp_str w = { s, strlen(s) };
   wsp_json_str(out, w);
}

void wsp_json_u64(FILE *out, uint64_t v)
{
   fprintf(out, "%llu", (unsigned long long)v);
}

void wsp_json_apt(FILE *out, const struct wsp_apt *a)
{
   fprintf(out, "[%llu.%u,%llu,%llu]", (unsigned long long)(a->avg10 / 10),
           (unsigned)(a->avg10 % 10), (unsigned long long)a->peak,
           (unsigned long long)a->total);
}

void wsp_json_regions(FILE *out, const struct wsp_file *f)
{
   fputc('[', out);
   for (size_t i = 0; i < f->n_regions; i++) {
      const struct wsp_region *g = &f->regions[i];
      fputs(i ? ",\n{\"label\":" : "\n{\"label\":", out);
      wsp_json_str(out, g->label);
      fprintf(out, ",\"regions\":%llu,\"samples\":%llu,\"insn\":",
              (unsigned long long)g->regions, (unsigned long long)g->samples);
      wsp_json_apt(out, &g->insn);
      fputs(",\"data\":", out);
      wsp_json_apt(out, &g->data);
      if (g->have_lines) {
         fputs(",\"insn_lines\":", out);
         wsp_json_apt(out, &g->insn_lines);
         fputs(",\"data_lines\":", out);
         wsp_json_apt(out, &g->data_lines);
      }
      fputc('}', out);
   }
   fputc(']', out);
}

void wsp_json_summary_lines(FILE *out, const struct wsp_file *f)
{
   if (!f->have_lines_summary)
      return;
   fputs(",\"insn_lines\":", out);
   wsp_json_apt(out, &f->insn_lines_summary);
   fputs(",\"data_lines\":", out);
   wsp_json_apt(out, &f->data_lines_summary);
   fprintf(out, ",\"density\":%llu.%03llu",
           (unsigned long long)(f->density1000 / 1000),
           (unsigned long long)(f->density1000 % 1000));
}

void wsp_json_event(FILE *out, const struct wsp_event *e)
{
   fprintf(out, "{\"t\":%llu,\"kind\":", (unsigned long long)e->t);
   wsp_json_cstr(out, wsp_event_name(e->kind));
   switch (e->kind) {
   case WSP_EV_THREAD_START:
   case WSP_EV_THREAD_EXIT:
      fprintf(out, ",\"tid\":%llu", (unsigned long long)e->num);
      break;
   case WSP_EV_SET:
      fputs(",\"param\":", out);
      wsp_json_str(out, e->text);
      fprintf(out, ",\"value\":%llu", (unsigned long long)e->num);
      break;
   case WSP_EV_MARK:
      fputs(",\"label\":", out);
      wsp_json_str(out, e->text);
      break;
   case WSP_EV_DUMP_LABEL:
      fputs(",\"how\":\"label\",\"label\":", out);
      wsp_json_str(out, e->text);
      break;
   case WSP_EV_DUMP_FILE:
      fputs(",\"how\":\"file\",\"path\":", out);
      wsp_json_str(out, e->text);
      break;
   case WSP_EV_EXEC:
      fputs(",\"path\":", out);
      wsp_json_str(out, e->text);
      break;
   case WSP_EV_DUMP_MONITOR:
      fputs(",\"how\":\"monitor\"", out);
      break;
   case WSP_EV_PEAK:
      fprintf(out, ",\"peak\":%llu", (unsigned long long)e->num);
      break;
   case WSP_EV_FINAL:
      fprintf(out, ",\"window\":%llu", (unsigned long long)e->num);
      break;
   case WSP_EV_OTHER:
      fputs(",\"text\":", out);
      wsp_json_str(out, e->text);
      break;
   default:
      break;
   }
   fputc('}', out);
}


void wsp_json_hex(FILE *out, uint64_t v)
{
   fprintf(out, "\"0x%llx\"", (unsigned long long)v);
}

void wsp_json_where(FILE *out, const struct wsp_where *w)
{
   fputs("\"ip\":", out);
   wsp_json_hex(out, w->ip);
   fputs(",\"loc\":", out);
   wsp_json_str(out, w->loc);
   fputs(",\"fn\":", out);
   wsp_json_str(out, w->fn);
}

void wsp_json_owner(FILE *out, const struct wsp_owner *o,
                    const struct wsp_file *ids)
{
   static const char *const kinds[] = {
      [WSP_OWN_HEAP] = "heap", [WSP_OWN_FREED] = "freed",
      [WSP_OWN_HEAP_OTHER] = "heap-other", [WSP_OWN_GLOBAL] = "global",
      [WSP_OWN_STACK] = "stack", [WSP_OWN_FILE] = "file",
      [WSP_OWN_ANON] = "anon", [WSP_OWN_UNKNOWN] = "unknown",
      [WSP_OWN_CODE] = "code", [WSP_OWN_REST] = "rest",
   };
   fputs("{\"kind\":", out);
   wsp_json_cstr(out, kinds[o->kind]);
   fputs(",\"text\":", out);
   wsp_json_str(out, o->text);
   if (o->kind == WSP_OWN_CODE) {
      fputs(",\"name\":", out);
      wsp_json_str(out, o->name);
      fputs(",\"object\":", out);
      wsp_json_str(out, o->object);
   } else if (o->kind == WSP_OWN_HEAP || o->kind == WSP_OWN_FREED) {
      if (ids)
         fprintf(out, ",\"stack\":%llu,\"block\":",
                 (unsigned long long)ids->stacks[o->stack].id);
      else
         fprintf(out, ",\"stack\":%zu,\"block\":", o->stack);
      if (o->block == WSP_NONE)
         fputs("null,\"size\":null", out);
      else {
         wsp_json_hex(out, o->block);
         fprintf(out, ",\"size\":%llu", (unsigned long long)o->size);
      }
   } else if (o->kind == WSP_OWN_STACK) {
      fprintf(out, ",\"tid\":%llu", (unsigned long long)o->tid);
   } else if (o->kind == WSP_OWN_GLOBAL || o->kind == WSP_OWN_FILE) {
      fputs(",\"name\":", out);
      wsp_json_str(out, o->name);
   }
   fputc('}', out);
}

/* Thousandths (ten-thousandths) as the number they are. */
static void fixed(FILE *out, uint64_t v, int ten_thousandths)
{
   uint64_t scale = ten_thousandths ? 10000 : 1000;
   fprintf(out, "%llu.%0*llu", (unsigned long long)(v / scale),
           ten_thousandths ? 4 : 3, (unsigned long long)(v % scale));
}

/* What made an estimated point (--ws-curves=sampled). */
static void estimate_from(FILE *out, const struct wsp_curve_point *p)
{
   static const char *const from[] = { NULL, "windows", "footprint",
                                       "epochs", "bounds", "other" };
   if (p->from)
      fprintf(out, ",\"from\":\"%s\"", from[p->from]);
}

void wsp_json_curves(FILE *out, const struct wsp_file *f)
{
   struct wsp_curve c;
   struct wsp_knee knees[WSP_MAX_KNEES];
   char text[600];
   int any = 0;
   fputc('[', out);
   for (size_t i = 0; i < f->n_curve_points; i = wsp_curve_at(f, i, &c)) {
      const struct wsp_curve_point *p = &f->curve_points[i];
      if (p->mrc)
         continue;
      wsp_curve_at(f, i, &c);
      fputs(any++ ? ",\n{\"scope\":" : "\n{\"scope\":", out);
      wsp_json_str(out, p->scope);
      fprintf(out, ",\"kind\":\"%s\",\"unit\":\"%s\",\"estimate\":%s,"
              "\"points\":[", p->data ? "data" : "insn",
              p->line ? "line" : "page", p->from ? "true" : "false");
      for (size_t k = 0; k < c.n; k++) {
         fprintf(out, "%s{\"tau\":%llu,\"s\":", k ? "," : "",
                 (unsigned long long)p[k].x);
         fixed(out, p[k].s, 0);
         fputs(",\"m\":", out);
         fixed(out, p[k].m, 0);
         if (p[k].has_err) {
            fputs(",\"s_err\":", out);
            fixed(out, p[k].s_err, 0);
            fputs(",\"m_err\":", out);
            fixed(out, p[k].m_err, 0);
         }
         estimate_from(out, &p[k]);
         fputc('}', out);
      }
      fputs("],\"lru\":[", out);
      for (size_t k = 0; k < c.n_mrc; k++) {
         const struct wsp_curve_point *q = &f->curve_points[c.mrc_first + k];
         fprintf(out, "%s{\"size\":%llu,\"miss\":", k ? "," : "",
                 (unsigned long long)q->x);
         fixed(out, q->miss, 1);
         if (q->has_err) {
            fputs(",\"miss_err\":", out);
            fixed(out, q->miss_err, 1);
         }
         estimate_from(out, q);
         fputc('}', out);
      }
      fputs("],\"knees\":[", out);
      for (size_t k = 0, n = wsp_curve_knees(f, &c, knees); k < n; k++) {
         wsp_knee_text(text, sizeof text, f, &c, &knees[k]);
         fprintf(out, "%s{\"tau_from\":%llu,\"tau_to\":%llu,\"text\":",
                 k ? "," : "", (unsigned long long)p[knees[k].from].x,
                 (unsigned long long)p[knees[k].to].x);
         wsp_json_cstr(out, text);
         fputc('}', out);
      }
      fputs("]}", out);
   }
   fputc(']', out);
}

/*--------------------------------------------------------------------*/
/*--- end                                           wsp_json_fmt.c ---*/
/*--------------------------------------------------------------------*/

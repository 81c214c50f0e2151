/*--------------------------------------------------------------------*/
/*--- ws_print: heap usage per allocation site.   wsp_read_heap.c ---*/
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

/* Owns the heap usage lines of format 4 (docs/output-format.md): it
   reads the heap-site and heap-window lines for wsp_parse.c, ranks the
   sites, and shows them three ways: the text report's "Heap
   efficiency" section, folded stacks (--folded KEY) for flamegraph.pl,
   inferno and speedscope, and the heap members of the HTML report's
   data (the page draws the flame graph).

   A site wastes bytes in two ways the format measures: bytes it never
   touched (bytes x (1 - usage)), and bytes kept idle after their last
   use (bytes x (1 - useful)); the report ranks by both. */

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "wsp_model.h"

/*------------------------------------------------------------*/
/*--- Reading                                              ---*/
/*------------------------------------------------------------*/

/* The keys every heap-site line has, in the order ws writes them, and
   the optional ones ws_print uses. */
enum { K_CHUNKS, K_BYTES, K_PEAK_LIVE, K_USAGE, K_NEVER, K_READ_ONLY,
       K_WRITE_ONLY, K_LIFETIME, K_FIRST_DELAY, K_IDLE_TAIL, K_USEFUL,
       K_THREADS, N_REQUIRED, K_TOUCHED = N_REQUIRED, K_NEVER_BYTES,
       K_EXIT_LIVE, N_KEYS };
static const char *const site_keys[N_KEYS] = {
   "chunks", "bytes", "peak-live", "usage", "never", "read-only",
   "write-only", "lifetime", "first-delay", "idle-tail", "useful",
   "threads", "touched", "never-bytes", "exit-live"
};

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* A decimal of at most 64 bits in [s, s+n). */
static int u64_of(const char *s, size_t n, uint64_t *v)
{
   uint64_t x = 0;
   if (n == 0)
      return 0;
   for (size_t i = 0; i < n; i++) {
      unsigned d = (unsigned)(s[i] - '0');
      if (!is_digit(s[i]) || x > (UINT64_MAX - d) / 10)
         return 0;
      x = x * 10 + d;
   }
   *v = x;
   return 1;
}

/* A fraction 0.ddd or 1.000, in thousandths. */
static int milli_of(const char *s, size_t n, uint64_t *v)
{
   if (n != 5 || s[1] != '.' || (s[0] != '0' && s[0] != '1')
       || !is_digit(s[2]) || !is_digit(s[3]) || !is_digit(s[4]))
      return 0;
   *v = (uint64_t)(s[0] - '0') * 1000 + (uint64_t)(s[2] - '0') * 100
        + (uint64_t)(s[3] - '0') * 10 + (uint64_t)(s[4] - '0');
   return *v <= 1000;
}

/* The next word of [*pos, len): after exactly one space, up to the
   next space or the end. */
static int next_word(const char *line, size_t len, size_t *pos,
                     const char **w, size_t *wn)
{
   size_t i = *pos;
   if (i >= len || line[i] != ' ' || i + 1 >= len || line[i + 1] == ' ')
      return 0;
   *w = line + i + 1;
   for (i++; i < len && line[i] != ' '; i++)
      ;
   *wn = (size_t)(line + i - *w);
   *pos = i;
   return 1;
}

static int key_ok(const char *k, size_t n)
{
   if (n == 0 || k[0] < 'a' || k[0] > 'z')
      return 0;
   for (size_t i = 0; i < n; i++)
      if (!((k[i] >= 'a' && k[i] <= 'z') || is_digit(k[i]) || k[i] == '-'))
         return 0;
   return 1;
}

/* "WORD ID STACK" then key value pairs: the values of |keys| (n_keys of
   them, the first n_required required; fractions among them are those
   |is_milli| says), each given once.  0, or -1 with why. */
static int key_values(const char *line, size_t len, const char *word,
                      uint64_t *id, uint64_t *stack_id,
                      const char *const *keys, size_t n_keys,
                      size_t n_required, int (*is_milli)(size_t),
                      uint64_t *vals, char *why, size_t wn)
{
   size_t pos = strlen(word), kn, vn;
   const char *k, *v;
   unsigned char seen[N_KEYS] = { 0 };
   for (size_t i = 0; i < n_keys; i++)
      vals[i] = WSP_NONE;
   if (!next_word(line, len, &pos, &v, &vn) || !u64_of(v, vn, id)
       || !next_word(line, len, &pos, &v, &vn) || !u64_of(v, vn, stack_id)) {
      snprintf(why, wn, "a %s line is '%s N STACK' followed by KEY VALUE "
               "pairs", word, word);
      return -1;
   }
   while (pos < len) {
      size_t i;
      if (!next_word(line, len, &pos, &k, &kn) || !key_ok(k, kn)
          || !next_word(line, len, &pos, &v, &vn)) {
         snprintf(why, wn, "after '%s N STACK' come KEY VALUE pairs, "
                  "separated by single spaces", word);
         return -1;
      }
      for (i = 0; i < n_keys; i++)
         if (strlen(keys[i]) == kn && memcmp(keys[i], k, kn) == 0)
            break;
      if (i == n_keys)
         continue;                     /* a key this reader does not know */
      if (seen[i]) {
         snprintf(why, wn, "key %s given twice", keys[i]);
         return -1;
      }
      seen[i] = 1;
      if (is_milli(i) ? !milli_of(v, vn, &vals[i]) : !u64_of(v, vn, &vals[i])) {
         snprintf(why, wn, is_milli(i) ? "%s is a fraction from 0.000 to "
                  "1.000 with three decimals" : "%s is a whole number (at "
                  "most 64 bits)", keys[i]);
         return -1;
      }
   }
   for (size_t i = 0; i < n_required; i++)
      if (!seen[i]) {
         snprintf(why, wn, "a %s line lacks the key %s", word, keys[i]);
         return -1;
      }
   return 0;
}

static int site_milli(size_t i) { return i == K_USAGE || i == K_USEFUL; }
static int never_milli(size_t i) { (void)i; return 0; }

int wsp_heap_site_line(struct wsp_file *f, const char *line, size_t len,
                       size_t *cap, char *why, size_t n)
{
   uint64_t v[N_KEYS], sid;
   struct wsp_heap_site h;
   if (key_values(line, len, "heap-site", &h.id, &sid, site_keys, N_KEYS,
                  N_REQUIRED, site_milli, v, why, n))
      return -1;
   if (h.id != f->n_heap_sites + 1) {
      snprintf(why, n, "heap-site numbers run from 1 in file order: this "
               "one should be %zu", f->n_heap_sites + 1);
      return -1;
   }
   h.stack = wsp_stack_find(f, sid);
   if (h.stack == SIZE_MAX) {
      snprintf(why, n, "stack %llu is not defined before this line",
               (unsigned long long)sid);
      return -1;
   }
   for (size_t i = 0; i < f->n_heap_sites; i++)
      if (f->heap_sites[i].stack == h.stack) {
         snprintf(why, n, "a second heap-site line for stack %llu",
                  (unsigned long long)sid);
         return -1;
      }
   h.chunks = v[K_CHUNKS];
   h.bytes = v[K_BYTES];
   h.peak_live = v[K_PEAK_LIVE];
   h.usage_milli = v[K_USAGE];
   h.never = v[K_NEVER];
   h.read_only = v[K_READ_ONLY];
   h.write_only = v[K_WRITE_ONLY];
   h.lifetime = v[K_LIFETIME];
   h.first_delay = v[K_FIRST_DELAY];
   h.idle_tail = v[K_IDLE_TAIL];
   h.useful_milli = v[K_USEFUL];
   h.threads = v[K_THREADS];
   h.touched = v[K_TOUCHED];
   h.never_bytes = v[K_NEVER_BYTES];
   h.exit_live = v[K_EXIT_LIVE];
   if (h.chunks == 0) {
      snprintf(why, n, "a site has allocated at least one chunk");
      return -1;
   }
   if (h.never > h.chunks || h.read_only > h.chunks - h.never
       || h.write_only > h.chunks - h.never - h.read_only
       || h.threads > h.chunks - h.never) {
      snprintf(why, n, "never, read-only and write-only chunks are "
               "distinct, and threads counts accessed chunks, all among "
               "the site's chunks");
      return -1;
   }
   if (h.peak_live > h.bytes || (h.touched != WSP_NONE && h.touched > h.bytes)
       || (h.never_bytes != WSP_NONE && h.never_bytes > h.bytes)) {
      snprintf(why, n, "peak-live, touched and never-bytes are at most the "
               "bytes allocated");
      return -1;
   }
   if (wsp_grow(&f->heap_sites, cap, f->n_heap_sites, sizeof *f->heap_sites)) {
      snprintf(why, n, "out of memory");
      return -1;
   }
   f->heap_sites[f->n_heap_sites++] = h;
   return 0;
}

int wsp_heap_window_line(struct wsp_file *f, const char *line, size_t len,
                         size_t peak, size_t *cap, char *why, size_t n)
{
   static const char *const keys[] = { "live", "window" };
   uint64_t v[2], pn, sid;
   struct wsp_heap_window w;
   const struct wsp_peak *pk = &f->peaks[peak];
   int named = 0;
   if (key_values(line, len, "heap-window", &pn, &sid, keys, 2, 2,
                  never_milli, v, why, n))
      return -1;
   if (pn != peak) {
      snprintf(why, n, "heap-window lines follow the owner lines of their "
               "peak (%zu)", peak);
      return -1;
   }
   w.peak = peak;
   w.stack = wsp_stack_find(f, sid);
   for (size_t i = 0; i < pk->own_n && w.stack != SIZE_MAX; i++) {
      const struct wsp_owner *o = &f->owners[pk->own_first + i].o;
      named |= o->kind == WSP_OWN_HEAP && o->stack == w.stack;
   }
   if (!named) {
      snprintf(why, n, "a heap-window line names a heap owner of its peak");
      return -1;
   }
   w.live = v[0];
   w.window = v[1];
   if (w.window > w.live) {
      snprintf(why, n, "the bytes in the window are some of the live "
               "bytes");
      return -1;
   }
   if (wsp_grow(&f->heap_windows, cap, f->n_heap_windows,
            sizeof *f->heap_windows)) {
      snprintf(why, n, "out of memory");
      return -1;
   }
   f->heap_windows[f->n_heap_windows++] = w;
   return 0;
}

const struct wsp_heap_window *wsp_heap_window_of(const struct wsp_file *f,
                                                 size_t peak, size_t stack)
{
   for (size_t i = 0; i < f->n_heap_windows; i++)
      if (f->heap_windows[i].peak == peak
          && f->heap_windows[i].stack == stack)
         return &f->heap_windows[i];
   return NULL;
}

/*------------------------------------------------------------*/
/*--- Ranking                                              ---*/
/*------------------------------------------------------------*/

static const char *const key_names[] = { "usage", "useful", "bytes",
                                         "never" };

int wsp_heap_key(const char *name, enum wsp_heap_key *key)
{
   for (int i = 0; i < 4; i++)
      if (strcmp(name, key_names[i]) == 0) {
         *key = (enum wsp_heap_key)i;
         return 1;
      }
   return 0;
}

/* bytes x (1 - milli/1000), rounded. */
static uint64_t part_not(uint64_t bytes, uint64_t milli)
{
   return (uint64_t)llround((double)bytes * (double)(1000 - milli) / 1000.0);
}

uint64_t wsp_heap_value(const struct wsp_heap_site *s, enum wsp_heap_key k)
{
   switch (k) {
   case WSP_KEY_USAGE:
      return s->touched != WSP_NONE ? s->bytes - s->touched
                                    : part_not(s->bytes, s->usage_milli);
   case WSP_KEY_USEFUL:
      return part_not(s->bytes, s->useful_milli);
   case WSP_KEY_BYTES:
      return s->bytes;
   case WSP_KEY_NEVER:
      return s->never_bytes != WSP_NONE ? s->never_bytes : 0;
   }
   return 0;
}

static const struct wsp_file *order_file;
static enum wsp_heap_key order_key;

static int cmp_worst(const void *av, const void *bv)
{
   const struct wsp_heap_site *a = &order_file->heap_sites[*(const size_t *)av];
   const struct wsp_heap_site *b = &order_file->heap_sites[*(const size_t *)bv];
   uint64_t va = wsp_heap_value(a, order_key), vb = wsp_heap_value(b, order_key);
   if (va != vb)
      return va > vb ? -1 : 1;
   if (a->bytes != b->bytes)
      return a->bytes > b->bytes ? -1 : 1;
   return a->id < b->id ? -1 : a->id > b->id;
}

size_t *wsp_heap_order(const struct wsp_file *f, enum wsp_heap_key key)
{
   size_t *o = malloc((f->n_heap_sites + 1) * sizeof *o);
   if (!o)
      return NULL;
   for (size_t i = 0; i < f->n_heap_sites; i++)
      o[i] = i;
   order_file = f;
   order_key = key;
   qsort(o, f->n_heap_sites, sizeof *o, cmp_worst);
   return o;
}

/*------------------------------------------------------------*/
/*--- The text report's section                            ---*/
/*------------------------------------------------------------*/

#define MAX_SITES 10          /* listed in each ranking */

static void milli(char *buf, size_t n, uint64_t m)
{
   snprintf(buf, n, "%llu.%03llu", (unsigned long long)(m / 1000),
            (unsigned long long)(m % 1000));
}

/* 1234567 as "1,234,567". */
static const char *commas(char *buf, size_t n, uint64_t v)
{
   char d[32];
   int len = snprintf(d, sizeof d, "%llu", (unsigned long long)v);
   size_t j = 0;
   for (int i = 0; i < len && j + 1 < n; i++) {
      if (i && (len - i) % 3 == 0 && j + 2 < n)
         buf[j++] = ',';
      buf[j++] = d[i];
   }
   buf[j] = '\0';
   return buf;
}

static void site_block(FILE *out, const struct wsp_file *f, size_t i,
                       enum wsp_heap_key key, int width)
{
   const struct wsp_heap_site *s = &f->heap_sites[i];
   const char *u = f->ms ? "ms" : "i";
   char a[32], b[32], c[32], d[32], e[32], us[32], uf[32];
   milli(us, sizeof us, s->usage_milli);
   milli(uf, sizeof uf, s->useful_milli);
   if (key == WSP_KEY_USAGE)
      wsp_wrap(out, width, 6, "  site %llu: %s of %s bytes never touched "
               "(usage %s)\n",
              (unsigned long long)s->id,
              commas(a, sizeof a, wsp_heap_value(s, key)),
              commas(b, sizeof b, s->bytes), us);
   else
      wsp_wrap(out, width, 6, "  site %llu: %s of %s bytes idle after "
               "their last use (useful %s)\n", (unsigned long long)s->id,
              commas(a, sizeof a, wsp_heap_value(s, key)),
              commas(b, sizeof b, s->bytes), uf);
   c[0] = '\0';
   if (s->exit_live != WSP_NONE)
      commas(c, sizeof c, s->exit_live);
   wsp_wrap(out, width, 8, "      %s chunk%s, peak live %s bytes%s%s%s\n",
            commas(a, sizeof a, s->chunks), s->chunks == 1 ? "" : "s",
            commas(b, sizeof b, s->peak_live), c[0] ? ", " : "", c,
            c[0] ? " live at exit" : "");
   wsp_wrap(out, width, 8, "      never touched %s, read-only %s, "
            "write-only %s, by several threads %s\n",
            commas(a, sizeof a, s->never), commas(b, sizeof b, s->read_only),
            commas(c, sizeof c, s->write_only),
            commas(d, sizeof d, s->threads));
   wsp_wrap(out, width, 8, "      usage %s, useful %s; on average lifetime "
            "%s %s, first access %s %s after allocation, idle %s %s before "
            "the free\n", us, uf, commas(a, sizeof a, s->lifetime), u,
            commas(b, sizeof b, s->first_delay), u,
            commas(e, sizeof e, s->idle_tail), u);
   wsp_put_stack(out, f, s->stack, -1, "      ", width);
}

/* The worst MAX_SITES sites by key; those already shown above (in
   |shown|) by number only. */
static void ranking(FILE *out, const struct wsp_file *f,
                    enum wsp_heap_key key, unsigned char *shown, int width)
{
   size_t *o = wsp_heap_order(f, key), n = 0;
   char a[32];
   if (!o) {
      fprintf(out, "  (out of memory)\n");
      return;
   }
   for (size_t k = 0; k < f->n_heap_sites && n < MAX_SITES; k++) {
      const struct wsp_heap_site *s = &f->heap_sites[o[k]];
      if (wsp_heap_value(s, key) == 0)
         break;
      n++;
      if (shown[o[k]]) {
         char uf[32];
         milli(uf, sizeof uf, s->useful_milli);
         wsp_wrap(out, width, 6, "  site %llu (above): %s bytes idle "
                  "(useful %s)\n",
                 (unsigned long long)s->id,
                 commas(a, sizeof a, wsp_heap_value(s, key)), uf);
         continue;
      }
      shown[o[k]] = 1;
      site_block(out, f, o[k], key, width);
   }
   if (n == 0)
      fprintf(out, "  none\n");
   free(o);
}

void wsp_heap_text(FILE *out, const struct wsp_file *f, int width)
{
   uint64_t chunks = 0, bytes = 0, wasted = 0, idle = 0, never = 0;
   char a[32], b[32], c[32], d[32];
   if (f->version < 4)
      return;
   if (f->heap_usage == 0) {
      wsp_wrap(out, width, 2, "\nHeap efficiency: not followed in this "
               "run (--ws-heap=no or --ws-heap-usage=no)\n");
      return;
   }
   if (!f->n_heap_sites) {
      wsp_wrap(out, width, 2, "\nHeap efficiency: %s\n", f->complete
               ? "no heap chunk was allocated while ws followed the heap"
               : "not in the file (it is written at exit)");
      return;
   }
   for (size_t i = 0; i < f->n_heap_sites; i++) {
      const struct wsp_heap_site *s = &f->heap_sites[i];
      chunks += s->chunks;
      bytes += s->bytes;
      wasted += wsp_heap_value(s, WSP_KEY_USAGE);
      idle += wsp_heap_value(s, WSP_KEY_USEFUL);
      never += s->never;
   }
   wsp_wrap(out, width, 2, "\nHeap efficiency (at the granularity of the "
            "%llu-byte pages; docs/manual.md, \"Heap usage\"):\n",
            (unsigned long long)f->pagesize);
   wsp_wrap(out, width, 4, "  %s allocation sites, %s chunks, %s bytes "
            "allocated\n", commas(a, sizeof a, f->n_heap_sites),
            commas(b, sizeof b, chunks), commas(c, sizeof c, bytes));
   wsp_wrap(out, width, 4, "  %s bytes never touched, %s bytes idle after "
            "their last use, %s chunks never touched\n",
            commas(a, sizeof a, wasted), commas(b, sizeof b, idle),
            commas(d, sizeof d, never));
   unsigned char *shown = calloc(f->n_heap_sites, 1);
   if (!shown) {
      fprintf(out, "  (out of memory)\n");
      return;
   }
   wsp_wrap(out, width, 4, "\n  Worst by bytes never touched, bytes x "
            "(1 - usage):\n");
   ranking(out, f, WSP_KEY_USAGE, shown, width);
   wsp_wrap(out, width, 4, "\n  Worst by bytes idle after their last use, "
            "bytes x (1 - useful):\n");
   ranking(out, f, WSP_KEY_USEFUL, shown, width);
   free(shown);
   if (f->n_heap_sites > MAX_SITES)
      wsp_wrap(out, width, 4, "\n  ws_print --folded "
               "usage|useful|bytes|never lists all %zu sites.\n",
               f->n_heap_sites);
}

/*------------------------------------------------------------*/
/*--- Folded stacks and JSON                               ---*/
/*------------------------------------------------------------*/

/* A frame in folded stacks, as the text report names it: "fn
   (file:line)", so that each allocation site is a frame of its own;
   ';' separates frames there. */
static void folded_frame(FILE *out, const struct wsp_where *w)
{
   struct wsp_line l = { .n = 0 };
   wsp_lwhere(&l, w, INT_MAX, 0);     /* never shortened */
   for (size_t i = 0; i < l.n; i++)
      fputc(l.b[i] == ';' ? ':' : l.b[i], out);
}

void wsp_heap_folded(FILE *out, const struct wsp_file *f,
                     enum wsp_heap_key key)
{
   size_t *o = wsp_heap_order(f, key);
   if (!o)
      return;
   for (size_t k = 0; k < f->n_heap_sites; k++) {
      const struct wsp_heap_site *s = &f->heap_sites[o[k]];
      const struct wsp_stack *st = &f->stacks[s->stack];
      uint64_t v = wsp_heap_value(s, key);
      if (v == 0)
         continue;
      for (size_t i = st->n; i-- > 0;) {
         folded_frame(out, &f->frames[st->first + i].w);
         if (i)
            fputc(';', out);
      }
      fprintf(out, " %llu\n", (unsigned long long)v);
   }
   free(o);
}

static void json_opt(FILE *out, const char *key, uint64_t v)
{
   if (v == WSP_NONE)
      fprintf(out, ",\"%s\":null", key);
   else
      fprintf(out, ",\"%s\":%llu", key, (unsigned long long)v);
}

void wsp_heap_json(FILE *out, const struct wsp_file *f)
{
   fprintf(out, ",\n\"heapUsage\":%s,\n\"heapSites\":[",
           f->heap_usage < 0 ? "null" : f->heap_usage ? "true" : "false");
   for (size_t i = 0; i < f->n_heap_sites; i++) {
      const struct wsp_heap_site *s = &f->heap_sites[i];
      fprintf(out, "%s{\"id\":%llu,\"stack\":%zu,\"chunks\":%llu,"
              "\"bytes\":%llu,\"peakLive\":%llu,\"usage\":%.3f,"
              "\"never\":%llu,\"readOnly\":%llu,\"writeOnly\":%llu,"
              "\"lifetime\":%llu,\"firstDelay\":%llu,\"idleTail\":%llu,"
              "\"useful\":%.3f,\"threads\":%llu",
              i ? ",\n" : "", (unsigned long long)s->id, s->stack,
              (unsigned long long)s->chunks, (unsigned long long)s->bytes,
              (unsigned long long)s->peak_live, s->usage_milli / 1000.0,
              (unsigned long long)s->never, (unsigned long long)s->read_only,
              (unsigned long long)s->write_only,
              (unsigned long long)s->lifetime,
              (unsigned long long)s->first_delay,
              (unsigned long long)s->idle_tail, s->useful_milli / 1000.0,
              (unsigned long long)s->threads);
      json_opt(out, "touched", s->touched);
      json_opt(out, "neverBytes", s->never_bytes);
      json_opt(out, "exitLive", s->exit_live);
      fprintf(out, ",\"wasted\":%llu,\"idle\":%llu}",
              (unsigned long long)wsp_heap_value(s, WSP_KEY_USAGE),
              (unsigned long long)wsp_heap_value(s, WSP_KEY_USEFUL));
   }
   fputs("],\n\"heapWindows\":[", out);
   for (size_t i = 0; i < f->n_heap_windows; i++) {
      const struct wsp_heap_window *w = &f->heap_windows[i];
      fprintf(out, "%s{\"peak\":%zu,\"stack\":%zu,\"live\":%llu,"
              "\"window\":%llu}", i ? "," : "", w->peak, w->stack,
              (unsigned long long)w->live, (unsigned long long)w->window);
   }
   fputc(']', out);
}

/*--------------------------------------------------------------------*/
/*--- end                                          wsp_read_heap.c ---*/
/*--------------------------------------------------------------------*/

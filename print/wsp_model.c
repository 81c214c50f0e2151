/*--------------------------------------------------------------------*/
/*--- ws_print: what the model computes.               wsp_model.c ---*/
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

/* Owns the model's memory (its arrays, the arena its strings live in,
   wsp_free()), the index of stack ids, and the ranking of heap sites
   by what they waste, which the text report, --folded and the HTML
   report share.  The samples are wsp_series.c's.  Nothing here reads
   a file or writes one. */

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "wsp_model.h"

/*------------------------------------------------------------*/
/*--- Memory                                               ---*/
/*------------------------------------------------------------*/

#define BLOCK_SIZE ((size_t)64 << 10)

struct wsp_block {
   struct wsp_block *next;
   char              bytes[];
};

const char *wsp_keep(struct wsp_file *f, const char *s, size_t len)
{
   struct wsp_arena *a = &f->arena;
   if (len > a->cap - a->used || !a->blocks) {
      size_t size = len > BLOCK_SIZE ? len : BLOCK_SIZE;
      struct wsp_block *b = malloc(sizeof *b + size);
      if (!b)
         return NULL;
      b->next = a->blocks;
      a->blocks = b;
      a->used = 0;
      a->cap = size;
   }
   char *at = a->blocks->bytes + a->used;
   if (len)
      memcpy(at, s, len);
   a->used += len;
   return at;
}

int wsp_grow(void *arr, size_t *cap, size_t n, size_t sz)
{
   void **a = arr;
   if (n < *cap)
      return 0;
   size_t ncap = *cap ? *cap * 2 : 16;
   if (ncap < *cap || ncap > SIZE_MAX / sz)
      return -1;
   void *na = realloc(*a, ncap * sz);
   if (!na)
      return -1;
   *a = na;
   *cap = ncap;
   return 0;
}

void wsp_free(struct wsp_file *f)
{
   if (f->samples.again)
      f->samples.again->release(f->samples.again);
   while (f->arena.blocks) {
      struct wsp_block *next = f->arena.blocks->next;
      free(f->arena.blocks);
      f->arena.blocks = next;
   }
   free(f->hdr);
   free(f->samples.kept);
   free(f->samples.thr);
   free(f->samples.tids);
   free(f->events);
   free(f->dumps);
   free(f->regions);
   free(f->stacks);
   free(f->frames);
   free(f->peaks);
   free(f->owners);
   free(f->region_labels);
   free(f->hot);
   free(f->heap_sites);
   free(f->heap_windows);
   free(f->heap_chunks);
   free(f->routines);
   free(f->routine_rows);
   free(f->miss_stacks);
   free(f->curve_points);
   free(f->kvs);
   free(f->stack_slot);
   free(f->dump_pages);
   free(f->pages);
   memset(f, 0, sizeof *f);
}

int wsp_str_is(struct wsp_str s, const char *w)
{
   return s.len == strlen(w) && memcmp(s.s, w, s.len) == 0;
}

int wsp_str_eq(struct wsp_str a, struct wsp_str b)
{
   return a.len == b.len && memcmp(a.s, b.s, a.len) == 0;
}

/*------------------------------------------------------------*/
/*--- Stack ids                                            ---*/
/*------------------------------------------------------------*/

static size_t hash_id(uint64_t id)
{
   id ^= id >> 33;
   id *= 0xff51afd7ed558ccdULL;
   id ^= id >> 33;
   return (size_t)id;
}

size_t wsp_stack_find(const struct wsp_file *f, uint64_t id)
{
   if (f->n_stack_slot == 0)
      return SIZE_MAX;
   for (size_t i = hash_id(id) & (f->n_stack_slot - 1);;
        i = (i + 1) & (f->n_stack_slot - 1)) {
      size_t v = f->stack_slot[i];
      if (v == 0)
         return SIZE_MAX;
      if (f->stacks[v - 1].id == id)
         return v - 1;
   }
}

static void slot_put(struct wsp_file *f, size_t idx)
{
   size_t i = hash_id(f->stacks[idx].id) & (f->n_stack_slot - 1);
   while (f->stack_slot[i])
      i = (i + 1) & (f->n_stack_slot - 1);
   f->stack_slot[i] = idx + 1;
}

/* Where a whole stack ends: main (Valgrind stops there unless
   --show-below-main=yes), what Valgrind calls the code below it when it
   cannot name main (a stripped program's), the process's entry, a
   thread's entry. */
static const char *const roots[] = { "main", "(below main)", "_start",
                                     "clone", "clone3" };

int wsp_stack_cut(const struct wsp_file *f, size_t idx)
{
   const struct wsp_stack *st = &f->stacks[idx];
   uint64_t frames = 0;
   if (f->num_callers == WSP_NONE || f->num_callers == 0 || st->n == 0)
      return 0;
   for (size_t i = 0; i < st->n; i++)
      frames += !f->frames[st->first + i].inl;
   if (frames < f->num_callers)
      return 0;
   for (size_t r = 0; r < sizeof roots / sizeof roots[0]; r++)
      if (wsp_str_is(f->frames[st->first + st->n - 1].w.fn, roots[r]))
         return 0;
   return 1;
}

/* At most half the slots are used, so that wsp_stack_find always meets
   an empty one. */
int wsp_stack_add(struct wsp_file *f, size_t idx)
{
   if ((idx + 1) * 2 > f->n_stack_slot) {
      size_t n = f->n_stack_slot ? f->n_stack_slot * 2 : 64;
      if (n < f->n_stack_slot || n > SIZE_MAX / sizeof *f->stack_slot)
         return -1;
      size_t *slot = calloc(n, sizeof *slot);
      if (!slot)
         return -1;
      free(f->stack_slot);
      f->stack_slot = slot;
      f->n_stack_slot = n;
      for (size_t i = 0; i < idx; i++)
         slot_put(f, i);
   }
   slot_put(f, idx);
   return 0;
}

/*------------------------------------------------------------*/
/*--- Heap sites ranked                                    ---*/
/*------------------------------------------------------------*/

/* A site wastes bytes in two ways the format measures: bytes it never
   touched (bytes x (1 - usage)), and bytes kept idle after their last
   use (bytes x (1 - useful)); the Memoro paper ranks by both and the
   lifetime score at once (bytes x (1 - score)). */

static const char *const key_names[] = { "usage", "useful", "bytes",
                                         "never", "score" };

int wsp_heap_key(const char *name, enum wsp_heap_key *key)
{
   for (int i = 0; i < 5; i++)
      if (strcmp(name, key_names[i]) == 0) {
         *key = (enum wsp_heap_key)i;
         return 1;
      }
   return 0;
}

const char *wsp_heap_key_name(enum wsp_heap_key key)
{
   return key_names[key];
}

const char *wsp_heap_key_words(enum wsp_heap_key key)
{
   static const char *const words[] = {
      "bytes never touched", "bytes idle after their last use",
      "bytes allocated", "bytes in chunks never touched",
      "bytes x (1 - score)" };
   return words[key];
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
   case WSP_KEY_SCORE:
      return s->score_milli != WSP_NONE ? part_not(s->bytes, s->score_milli)
                                        : 0;
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

static int cmp_u64(const void *av, const void *bv)
{
   uint64_t a = *(const uint64_t *)av, b = *(const uint64_t *)bv;
   return a < b ? -1 : a > b;
}

/* Of each site, its peak-live bytes (|chunks| 0) or its chunks. */
static uint64_t mark_value(const struct wsp_heap_site *s, int chunks)
{
   return chunks ? s->chunks : s->peak_live;
}

int wsp_heap_marks(const struct wsp_file *f, unsigned char *marks)
{
   size_t n = f->n_heap_sites;
   uint64_t *v = malloc((n + 1) * sizeof *v);
   if (!v)
      return -1;
   memset(marks, 0, n);
   for (int chunks = 0; chunks < 2 && n; chunks++) {
      for (size_t i = 0; i < n; i++)
         v[i] = mark_value(&f->heap_sites[i], chunks);
      qsort(v, n, sizeof *v, cmp_u64);
      uint64_t cut = v[n * 9 / 10];
      for (size_t i = 0; i < n; i++) {
         uint64_t x = mark_value(&f->heap_sites[i], chunks);
         if (x >= cut && x > 0)
            marks[i] |= chunks ? WSP_TOP_CHUNKS : WSP_TOP_PEAK_LIVE;
      }
   }
   free(v);
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

/*--------------------------------------------------------------------*/
/*--- end                                              wsp_model.c ---*/
/*--------------------------------------------------------------------*/

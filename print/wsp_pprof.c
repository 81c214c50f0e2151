/*--------------------------------------------------------------------*/
/*--- ws_print: heap sites as a pprof profile.         wsp_pprof.c ---*/
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

/* --pprof FILE: the allocation sites and the working-set misses as a
   gzip-compressed profile.proto (print/profile.proto, pprof's own, made
   into C by protoc-c), which `go tool pprof` reads.  One sample per
   heap-site line, its stack the site's allocating stack, and one per
   miss-stack line (--ws-miss-file), its stack the accesses' stack; its
   values those of sample_types below, so that pprof's figures are
   ws_print's (wsp_heap_value) and the miss profile's.  A location is
   one frame line of the file with the inline lines above it (pprof's
   Line list: inlined callees first, the function last); a function is
   a name in a source file.  There is one mapping, the program, marked
   as symbolized, so that pprof looks up no symbols.  The protobuf-c
   library encodes the message and zlib compresses it. */

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "profile.pb-c.h"
#include "wsp_render.h"

/* The sample types: what each value of a sample is.  A heap site's
   sample has no misses, a miss stack's no heap figures. */
enum what { SITE_CHUNKS, SITE_KEY, INSN_MISSES, DATA_MISSES };
static const struct {
   const char       *type, *unit;
   enum what         what;
   enum wsp_heap_key key;          /* SITE_KEY */
} sample_types[] = {
   { "chunks", "count", SITE_CHUNKS, WSP_KEY_BYTES },
   { "bytes", "bytes", SITE_KEY, WSP_KEY_BYTES },
   { "untouched", "bytes", SITE_KEY, WSP_KEY_USAGE },
   { "never", "bytes", SITE_KEY, WSP_KEY_NEVER },
   { "idle", "bytes", SITE_KEY, WSP_KEY_USEFUL },
   { "insn-misses", "count", INSN_MISSES, WSP_KEY_BYTES },
   { "data-misses", "count", DATA_MISSES, WSP_KEY_BYTES },
};
#define N_TYPES (sizeof sample_types / sizeof sample_types[0])
#define DEFAULT_TYPE 1                 /* bytes */

/* Strings, interned: string_table[0] is "". */
struct strings {
   char   **s;
   size_t   n, cap;
   size_t  *slot;                      /* index + 1, or 0 */
   size_t   n_slot;
};

static uint64_t hash(const char *s, size_t len)
{
   uint64_t h = 1469598103934665603ull;
   for (size_t i = 0; i < len; i++)
      h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
   return h;
}

static int grow_slots(struct strings *t)
{
   size_t n = t->n_slot ? t->n_slot * 2 : 1024;
   size_t *slot = calloc(n, sizeof *slot);
   if (!slot)
      return -1;
   for (size_t i = 0; i < t->n; i++) {
      size_t h = hash(t->s[i], strlen(t->s[i])) & (n - 1);
      while (slot[h])
         h = (h + 1) & (n - 1);
      slot[h] = i + 1;
   }
   free(t->slot);
   t->slot = slot;
   t->n_slot = n;
   return 0;
}

/* The index of s (len bytes; a NUL in it ends it) in the table, or -1
   when memory runs out. */
static int64_t intern(struct strings *t, const char *s, size_t len)
{
   const char *nul = memchr(s, 0, len);
   if (nul)
      len = (size_t)(nul - s);
   if ((t->n + 1) * 2 > t->n_slot && grow_slots(t))
      return -1;
   size_t h = hash(s, len) & (t->n_slot - 1);
   for (; t->slot[h]; h = (h + 1) & (t->n_slot - 1)) {
      const char *o = t->s[t->slot[h] - 1];
      if (strlen(o) == len && memcmp(o, s, len) == 0)
         return (int64_t)(t->slot[h] - 1);
   }
   char *c = malloc(len + 1);
   if (!c || wsp_grow(&t->s, &t->cap, t->n, sizeof *t->s)) {
      free(c);
      return -1;
   }
   memcpy(c, s, len);
   c[len] = 0;
   t->s[t->n] = c;
   t->slot[h] = ++t->n;
   return (int64_t)(t->n - 1);
}

static int64_t intern_c(struct strings *t, const char *s)
{
   return intern(t, s, strlen(s));
}

/* Everything the profile points to, freed at once. */
struct build {
   struct strings                 str;
   Perftools__Profiles__Profile   prof;
   Perftools__Profiles__ValueType types[N_TYPES], *type_p[N_TYPES];
   Perftools__Profiles__Mapping   map, *map_p;
   Perftools__Profiles__Sample   *samples, **sample_p;
   uint64_t                      *loc_ids;
   int64_t                       *values;
   Perftools__Profiles__Label    *labels, **label_p;
   Perftools__Profiles__Location *locs, **loc_p;
   Perftools__Profiles__Line     *lines, **line_p;
   size_t                         n_locs, n_lines;
   Perftools__Profiles__Function *fns, **fn_p;
   size_t                         n_fns, cap_fns;
   size_t                        *frame_loc;   /* per frame line: its
                                                  location id, or 0 */
   int64_t                        comment;
};

/* "file.c:12": the file and the line; "(object)" and "???": none. */
static void split_loc(struct wsp_str loc, struct wsp_str *file,
                      int64_t *line)
{
   file->s = loc.s;
   file->len = 0;
   *line = 0;
   if (!loc.len || loc.s[0] == '(' || wsp_str_is(loc, "???"))
      return;
   size_t colon = loc.len;
   while (colon > 0 && loc.s[colon - 1] != ':')
      colon--;
   if (colon == 0)
      return;
   file->len = colon - 1;
   *line = strtoll(loc.s + colon, NULL, 10);
}

/* The id of the function named by w (made when new), or 0. */
static uint64_t function_id(struct build *b, const struct wsp_where *w)
{
   struct wsp_str file;
   int64_t line;
   split_loc(w->loc, &file, &line);
   int64_t name = intern(&b->str, w->fn.s, w->fn.len);
   int64_t fname = intern(&b->str, file.s, file.len);
   if (wsp_str_is(w->fn, "???") && w->loc.len > 2 && w->loc.s[0] == '(') {
      /* code without symbols: "??? (in liblzma.so.5)", as the text
         report names it, so that each object's is a function of its
         own rather than one "???" for all */
      size_t len = w->loc.len + 8;
      char *n = malloc(len);
      if (!n)
         return 0;
      snprintf(n, len, "??? (in %.*s", (int)(w->loc.len - 1), w->loc.s + 1);
      name = intern_c(&b->str, n);
      free(n);
   }
   if (name < 0 || fname < 0)
      return 0;
   /* a linear search: the functions are at most the frames of the
      heap sites' stacks, a few thousand in a large program */
   for (size_t i = b->n_fns; i-- > 0;)
      if (b->fns[i].name == name && b->fns[i].filename == fname)
         return b->fns[i].id;
   if (wsp_grow(&b->fns, &b->cap_fns, b->n_fns, sizeof *b->fns))
      return 0;
   Perftools__Profiles__Function *fn = &b->fns[b->n_fns++];
   perftools__profiles__function__init(fn);
   fn->id = b->n_fns;
   fn->name = fn->system_name = name;
   fn->filename = fname;
   return fn->id;
}

/* The location of the frame line at index `last` of f->frames, with
   the inline lines from `first` above it (made when new), or 0. */
static uint64_t location_id(struct build *b, const struct wsp_file *f,
                            size_t first, size_t last)
{
   if (b->frame_loc[last])
      return b->frame_loc[last];
   Perftools__Profiles__Location *loc = &b->locs[b->n_locs];
   perftools__profiles__location__init(loc);
   loc->id = ++b->n_locs;
   loc->mapping_id = 1;
   loc->address = f->frames[last].w.ip;
   loc->n_line = last - first + 1;
   loc->line = &b->line_p[b->n_lines];
   for (size_t i = first; i <= last; i++) {
      Perftools__Profiles__Line *l = &b->lines[b->n_lines];
      struct wsp_str file;
      perftools__profiles__line__init(l);
      split_loc(f->frames[i].w.loc, &file, &l->line);
      if (!(l->function_id = function_id(b, &f->frames[i].w)))
         return 0;
      b->line_p[b->n_lines++] = l;
   }
   b->loc_p[loc->id - 1] = loc;
   b->frame_loc[last] = loc->id;
   return loc->id;
}

static void build_free(struct build *b)
{
   for (size_t i = 0; i < b->str.n; i++)
      free(b->str.s[i]);
   free(b->str.s);
   free(b->str.slot);
   free(b->samples);
   free(b->sample_p);
   free(b->loc_ids);
   free(b->values);
   free(b->labels);
   free(b->label_p);
   free(b->locs);
   free(b->loc_p);
   free(b->lines);
   free(b->line_p);
   free(b->fns);
   free(b->fn_p);
   free(b->frame_loc);
}

/* A sample's stack: its locations, innermost first. */
static int sample_stack(struct build *b, const struct wsp_file *f,
                        Perftools__Profiles__Sample *smp, size_t stack,
                        uint64_t **ids)
{
   const struct wsp_stack *st = &f->stacks[stack];
   smp->location_id = *ids;
   for (size_t k = 0, first = 0; k < st->n; k++) {
      if (f->frames[st->first + k].inl)
         continue;
      uint64_t id = location_id(b, f, st->first + first, st->first + k);
      if (!id)
         return -1;
      (*ids)[smp->n_location_id++] = id;
      first = k + 1;
   }
   *ids += smp->n_location_id;
   return 0;
}

/* The value of sample type t for heap site s, or for miss stack m. */
static int64_t value(size_t t, const struct wsp_heap_site *s,
                     const struct wsp_miss_stack *m)
{
   switch (sample_types[t].what) {
   case SITE_CHUNKS:
      return s ? (int64_t)s->chunks : 0;
   case SITE_KEY:
      return s ? (int64_t)wsp_heap_value(s, sample_types[t].key) : 0;
   case INSN_MISSES:
      return m ? (int64_t)m->insn : 0;
   default:
      return m ? (int64_t)m->data : 0;
   }
}

static int build_profile(struct build *b, const struct wsp_file *f)
{
   size_t nh = f->n_heap_sites, ns = nh + f->n_miss_stacks;
   size_t nf = f->n_frames, n_ids = 0;
   for (size_t i = 0; i < nh; i++)
      n_ids += f->stacks[f->heap_sites[i].stack].n;
   for (size_t i = 0; i < f->n_miss_stacks; i++)
      n_ids += f->stacks[f->miss_stacks[i].stack].n;
   b->samples = calloc(ns ? ns : 1, sizeof *b->samples);
   b->sample_p = calloc(ns ? ns : 1, sizeof *b->sample_p);
   b->loc_ids = calloc(n_ids ? n_ids : 1, sizeof *b->loc_ids);
   b->values = calloc((ns ? ns : 1) * N_TYPES, sizeof *b->values);
   b->labels = calloc(ns ? ns : 1, sizeof *b->labels);
   b->label_p = calloc(ns ? ns : 1, sizeof *b->label_p);
   b->locs = calloc(nf ? nf : 1, sizeof *b->locs);
   b->loc_p = calloc(nf ? nf : 1, sizeof *b->loc_p);
   b->lines = calloc(nf ? nf : 1, sizeof *b->lines);
   b->line_p = calloc(nf ? nf : 1, sizeof *b->line_p);
   b->frame_loc = calloc(nf ? nf : 1, sizeof *b->frame_loc);
   if (!b->samples || !b->sample_p || !b->loc_ids || !b->values
       || !b->labels || !b->label_p || !b->locs || !b->loc_p || !b->lines
       || !b->line_p || !b->frame_loc || intern_c(&b->str, "") != 0)
      return -1;

   Perftools__Profiles__Profile *p = &b->prof;
   perftools__profiles__profile__init(p);
   for (size_t t = 0; t < N_TYPES; t++) {
      perftools__profiles__value_type__init(&b->types[t]);
      b->types[t].type = intern_c(&b->str, sample_types[t].type);
      b->types[t].unit = intern_c(&b->str, sample_types[t].unit);
      b->type_p[t] = &b->types[t];
   }
   p->n_sample_type = N_TYPES;
   p->sample_type = b->type_p;
   p->default_sample_type = b->types[DEFAULT_TYPE].type;

   perftools__profiles__mapping__init(&b->map);
   b->map.id = 1;
   b->map.memory_limit = UINT64_MAX;
   size_t prog = 0;                      /* the command's first word */
   while (prog < f->command.len && f->command.s[prog] != ' ')
      prog++;
   b->map.filename = intern(&b->str, f->command.s, prog);
   b->map.has_functions = b->map.has_filenames = 1;
   b->map.has_line_numbers = b->map.has_inline_frames = 1;
   b->map_p = &b->map;
   p->n_mapping = 1;
   p->mapping = &b->map_p;
   b->comment = intern(&b->str, f->command.s, f->command.len);
   p->n_comment = 1;
   p->comment = &b->comment;

   int64_t site_key = intern_c(&b->str, "site");
   int64_t miss_key = intern_c(&b->str, "miss-stack");
   uint64_t *ids = b->loc_ids;
   for (size_t i = 0; i < ns; i++) {
      const struct wsp_heap_site *s = i < nh ? &f->heap_sites[i] : NULL;
      const struct wsp_miss_stack *m = s ? NULL : &f->miss_stacks[i - nh];
      Perftools__Profiles__Sample *smp = &b->samples[i];
      perftools__profiles__sample__init(smp);
      if (sample_stack(b, f, smp, s ? s->stack : m->stack, &ids))
         return -1;
      smp->n_value = N_TYPES;
      smp->value = &b->values[i * N_TYPES];
      for (size_t t = 0; t < N_TYPES; t++)
         smp->value[t] = value(t, s, m);
      /* a heap sample's site id; a miss sample's miss-stack number */
      perftools__profiles__label__init(&b->labels[i]);
      b->labels[i].key = s ? site_key : miss_key;
      b->labels[i].num = s ? (int64_t)s->id : (int64_t)(i - nh + 1);
      b->label_p[i] = &b->labels[i];
      smp->n_label = 1;
      smp->label = &b->label_p[i];
      b->sample_p[i] = smp;
   }
   p->n_sample = ns;
   p->sample = b->sample_p;
   p->n_location = b->n_locs;
   p->location = b->loc_p;
   if (!(b->fn_p = calloc(b->n_fns ? b->n_fns : 1, sizeof *b->fn_p)))
      return -1;
   for (size_t i = 0; i < b->n_fns; i++)
      b->fn_p[i] = &b->fns[i];
   p->n_function = b->n_fns;
   p->function = b->fn_p;
   if (b->map.filename < 0 || b->comment < 0 || site_key < 0
       || miss_key < 0)
      return -1;
   p->n_string_table = b->str.n;
   p->string_table = b->str.s;
   return 0;
}

/* The message, packed and gzip-compressed, to out. */
static int write_gzip(FILE *out, const Perftools__Profiles__Profile *p)
{
   size_t len = perftools__profiles__profile__get_packed_size(p);
   uint8_t *buf = malloc(len ? len : 1), *z = NULL;
   z_stream zs;
   int ok = 0;
   memset(&zs, 0, sizeof zs);
   if (!buf || deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED,
                            15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
      free(buf);
      return -1;
   }
   perftools__profiles__profile__pack(p, buf);
   uLong zlen = deflateBound(&zs, len);
   if ((z = malloc(zlen))) {
      zs.next_in = buf;
      zs.avail_in = (uInt)len;
      zs.next_out = z;
      zs.avail_out = (uInt)zlen;
      if (deflate(&zs, Z_FINISH) == Z_STREAM_END)
         ok = fwrite(z, 1, zs.total_out, out) == zs.total_out;
   }
   deflateEnd(&zs);
   free(buf);
   free(z);
   return ok ? 0 : -1;
}

int wsp_pprof(FILE *out, const struct wsp_file *f)
{
   struct build b;
   memset(&b, 0, sizeof b);
   int r = build_profile(&b, f) == 0 ? write_gzip(out, &b.prof) : -1;
   build_free(&b);
   return r;
}

/*--------------------------------------------------------------------*/
/*--- end                                              wsp_pprof.c ---*/
/*--------------------------------------------------------------------*/

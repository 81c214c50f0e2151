/*--------------------------------------------------------------------*/
/*--- ws_print: reading the routines.          wsp_read_routines.c ---*/
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

/* Owns the reading of the per-routine footprint's records
   (docs/output-format.md, "Routines"): routine lines, numbered from 1
   in file order (the ranking's), each followed by its routine-size
   lines in increasing size; and of the miss-stack lines that follow
   them ("Misses by stack"), the other per-code record of the trailer.  The routine line is a KEY VALUE record:
   keys this reader does not know are kept, not refused; exponent and
   r2 are signed decimals with three places, or '-'. */

#include <stdio.h>
#include <string.h>

#include "wsp_reader.h"

enum { K_CALLS, K_COST, K_RMS_MAX, K_TRMS_MAX, K_THREAD, K_SYSCALL,
       N_KEYS };
static const char *const routine_keys[N_KEYS] = {
   "calls", "cost", "rms-max", "trms-max", "thread-induced",
   "syscall-induced"
};
static const struct kv_spec routine_spec = {
   "routine", routine_keys, N_KEYS, N_KEYS, 0
};

/* "-" (0), or [-]D.DDD into thousandths (1). */
static int signed_milli(struct wsp_str v, int *fitted, int64_t *out)
{
   size_t i = 0, dot;
   int64_t whole = 0;
   int neg = 0;
   if (v.len == 1 && v.s[0] == '-') {
      *fitted = 0;
      *out = 0;
      return 1;
   }
   if (v.len && v.s[0] == '-') {
      neg = 1;
      i = 1;
   }
   for (dot = i; dot < v.len && v.s[dot] != '.'; dot++) {
      if (v.s[dot] < '0' || v.s[dot] > '9' || whole > 1000000000)
         return 0;
      whole = whole * 10 + (v.s[dot] - '0');
   }
   if (dot == i || dot + 4 != v.len)
      return 0;
   for (size_t j = dot + 1; j < v.len; j++) {
      if (v.s[j] < '0' || v.s[j] > '9')
         return 0;
      whole = whole * 10 + (v.s[j] - '0');
   }
   *fitted = 1;
   *out = neg ? -whole : whole;
   return 1;
}

/* The value of |key| among a record's pairs; 0 if it has none. */
static int find_kv(const struct wsp_file *f, size_t first, size_t n,
                   const char *key, struct wsp_str *v)
{
   for (size_t i = first; i < first + n; i++)
      if (wsp_str_is(f->kvs[i].key, key)) {
         *v = f->kvs[i].value;
         return 1;
      }
   return 0;
}

int routine_line(struct reader *r)
{
   struct lex *p = &r->p;
   struct wsp_file *f = p->f;
   struct cur c = cur_line(p);
   uint64_t v[N_KEYS], sid;
   struct wsp_routine rt;
   struct wsp_str e, q;
   int fitted_e, fitted_q;

   cur_lit(&c, routine_spec.word);
   if (cur_kv_record(p, &c, &routine_spec, &rt.id, &sid, v, &r->cap.kvs,
                     &rt.kv_first, &rt.kv_n))
      return -1;
   if (rt.id != f->n_routines + 1)
      return fail(p, "routine numbers run from 1 in file order: this one "
                  "should be %zu", f->n_routines + 1);
   rt.stack = wsp_stack_find(f, sid);
   if (rt.stack == SIZE_MAX)
      return fail(p, "stack %llu is not defined before this line",
                  (unsigned long long)sid);
   if (!find_kv(f, rt.kv_first, rt.kv_n, "exponent", &e)
       || !find_kv(f, rt.kv_first, rt.kv_n, "r2", &q)
       || !signed_milli(e, &fitted_e, &rt.exponent_milli)
       || !signed_milli(q, &fitted_q, &rt.r2_milli) || fitted_e != fitted_q)
      return fail(p, "a routine line has exponent and r2, both numbers "
                  "with three decimals or both '-'");
   rt.fitted = fitted_e;
   rt.calls = v[K_CALLS];
   rt.cost = v[K_COST];
   rt.rms_max = v[K_RMS_MAX];
   rt.trms_max = v[K_TRMS_MAX];
   rt.thread_induced = v[K_THREAD];
   rt.syscall_induced = v[K_SYSCALL];
   if (rt.calls == 0 || rt.rms_max > rt.trms_max)
      return fail(p, "a routine has at least one call, and rms-max is at "
                  "most trms-max");
   rt.first_row = f->n_routine_rows;
   rt.n_rows = 0;
   if (wsp_grow(&f->routines, &r->cap.routines, f->n_routines,
                sizeof *f->routines))
      return fail(p, "out of memory");
   f->routines[f->n_routines++] = rt;
   return 0;
}

int routine_size_line(struct reader *r)
{
   struct lex *p = &r->p;
   struct wsp_file *f = p->f;
   struct cur c = cur_line(p);
   static const char *const keys[] = { "count", "min", "mean", "max" };
   static const struct kv_spec spec = { "routine-size", keys, 4, 4, 0 };
   struct wsp_routine *rt = &f->routines[f->n_routines - 1];
   struct wsp_routine_row row;
   uint64_t id, v[4];
   size_t first, n;

   cur_lit(&c, spec.word);
   if (cur_kv_record(p, &c, &spec, &id, &row.size, v, &r->cap.kvs, &first,
                     &n))
      return -1;
   if (id != rt->id)
      return fail(p, "a routine-size line follows its routine's line "
                  "(routine %llu)", (unsigned long long)rt->id);
   if (rt->n_rows && f->routine_rows[f->n_routine_rows - 1].size >= row.size)
      return fail(p, "a routine's sizes increase");
   row.count = v[0];
   row.min = v[1];
   row.mean = v[2];
   row.max = v[3];
   if (row.count == 0 || row.min > row.mean || row.mean > row.max)
      return fail(p, "a row has a count of at least 1 and min <= mean <= "
                  "max");
   if (wsp_grow(&f->routine_rows, &r->cap.routine_rows, f->n_routine_rows,
                sizeof *f->routine_rows))
      return fail(p, "out of memory");
   f->routine_rows[f->n_routine_rows++] = row;
   rt->n_rows++;
   return 0;
}

/* A miss-stack line (--ws-miss-file): MISS-STACK N STACK insn I data D,
   numbered from 1 in file order. */
int miss_stack_line(struct reader *r)
{
   struct lex *p = &r->p;
   struct wsp_file *f = p->f;
   struct cur c = cur_line(p);
   static const char *const keys[] = { "insn", "data" };
   static const struct kv_spec spec = { "miss-stack", keys, 2, 2, 0 };
   struct wsp_miss_stack m;
   uint64_t id, sid, v[2];
   size_t first, n;

   cur_lit(&c, spec.word);
   if (cur_kv_record(p, &c, &spec, &id, &sid, v, &r->cap.kvs, &first, &n))
      return -1;
   if (id != f->n_miss_stacks + 1)
      return fail(p, "miss-stack numbers run from 1 in file order: this "
                  "one should be %zu", f->n_miss_stacks + 1);
   m.stack = wsp_stack_find(f, sid);
   if (m.stack == SIZE_MAX)
      return fail(p, "stack %llu is not defined before this line",
                  (unsigned long long)sid);
   m.insn = v[0];
   m.data = v[1];
   if (m.insn + m.data == 0)
      return fail(p, "a miss-stack line has a miss");
   if (wsp_grow(&f->miss_stacks, &r->cap.miss_stacks, f->n_miss_stacks,
                sizeof *f->miss_stacks))
      return fail(p, "out of memory");
   f->miss_stacks[f->n_miss_stacks++] = m;
   return 0;
}

/*--------------------------------------------------------------------*/
/*--- end                                      wsp_read_routines.c ---*/
/*--------------------------------------------------------------------*/

/*--------------------------------------------------------------------*/
/*--- ws: what a superblock accesses, and where.    ws_accesses.c ---*/
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

/* Owns the address analysis that lets ws_instrument.c leave checks
   out: the first pass over a superblock, which finds every statement's
   memory access (its size, guard, kind and weight) and its address as
   "root temporary + constant", tracked through Add/Sub of constants
   and through guest registers that were PUT and read back; and the
   widening of a check to the accesses off its root later in its
   exit-free stretch.  It emits no IR. */

#include "pub_tool_basics.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_tooliface.h"

#include "ws_core.h"

#define MAX_REGS     16

typedef struct { Int offset; WS_SymAddr val; } RegVal;

/* What the temporaries and guest registers hold, as the first pass
   stands at a statement. */
typedef struct {
   IRTypeEnv*  tyenv;
   WS_SymAddr* tmp;          /* per input temporary */
   Int         n_tmps;
   RegVal      regs[MAX_REGS];       /* guest registers holding them */
   Int         n_regs;
} Tracker;

static WS_SymAddr sym_of_atom(const Tracker* s, IRExpr* e)
{
   WS_SymAddr r = { WS_ROOT_NONE, 0 };
   if (e->tag == Iex_Const && e->Iex.Const.con->tag == WS_Ico_W) {
      r.root = WS_ROOT_CONST;
      r.off  = (Long)WS_ICO_W(e->Iex.Const.con);
   } else if (e->tag == Iex_RdTmp && e->Iex.RdTmp.tmp < s->n_tmps) {
      r = s->tmp[e->Iex.RdTmp.tmp];
   }
   return r;
}

static Long const_value(IRExpr* e, Bool* ok)
{
   /* a signed word: x86's code subtracts by adding, e.g. 0xFFFFFFFC */
   *ok = e->tag == Iex_Const && e->Iex.Const.con->tag == WS_Ico_W;
   return *ok ? (Long)(Word)WS_ICO_W(e->Iex.Const.con) : 0;
}

static Bool reg_overlaps(const RegVal* r, Int offset, Int size)
{
   return r->offset + 8 > offset && r->offset < offset + size;
}

/* Most PUTs overlap none of the registers tracked, and leave the list
   as it is. */
static void forget_regs(Tracker* s, Int offset, Int size)
{
   Int i, j;
   for (i = 0; i < s->n_regs; i++)
      if (reg_overlaps(&s->regs[i], offset, size))
         break;
   for (j = i; i < s->n_regs; i++)
      if (!reg_overlaps(&s->regs[i], offset, size))
         s->regs[j++] = s->regs[i];
   s->n_regs = j;
}

static void note_put(Tracker* s, Int offset, IRExpr* data)
{
   /* |data| is an atom: the IR is flat. */
   IRType ty = data->tag == Iex_RdTmp
               ? s->tyenv->types[data->Iex.RdTmp.tmp]
               : typeOfIRExpr(s->tyenv, data);
   forget_regs(s, offset, sizeofIRType(ty));
   if (ty == WS_Ity_W && s->n_regs < MAX_REGS) {
      WS_SymAddr v = sym_of_atom(s, data);
      if (v.root != WS_ROOT_NONE) {
         s->regs[s->n_regs].offset = offset;
         s->regs[s->n_regs].val = v;
         s->n_regs++;
      }
   }
}

/* Records what temporary |t| holds, for the statement "t = e". */
static void note_wrtmp(Tracker* s, IRTemp t, IRExpr* e)
{
   WS_SymAddr v = { (Int)t, 0 };
   if (e->tag == Iex_Binop
       && (e->Iex.Binop.op == WS_Iop_AddW || e->Iex.Binop.op == WS_Iop_SubW)) {
      Bool ok;
      Long c = const_value(e->Iex.Binop.arg2, &ok);
      WS_SymAddr base = sym_of_atom(s, e->Iex.Binop.arg1);
      if (ok && base.root != WS_ROOT_NONE) {
         v = base;
         v.off += e->Iex.Binop.op == WS_Iop_AddW ? c : -c;
      }
   } else if (e->tag == Iex_Get && e->Iex.Get.ty == WS_Ity_W) {
      Int i;
      for (i = 0; i < s->n_regs; i++)
         if (s->regs[i].offset == e->Iex.Get.offset)
            v = s->regs[i].val;
   } else if (e->tag == Iex_RdTmp || e->tag == Iex_Const) {
      WS_SymAddr a = sym_of_atom(s, e);
      if (a.root != WS_ROOT_NONE)
         v = a;
   }
   if (t < s->n_tmps)
      s->tmp[t] = v;
}

/* Keeps the address analysis in step with what |st| defines. */
static void track_stmt(Tracker* s, IRStmt* st)
{
   switch (st->tag) {
      case Ist_WrTmp:
         note_wrtmp(s, st->Ist.WrTmp.tmp, st->Ist.WrTmp.data);
         break;
      case Ist_Put:
         note_put(s, st->Ist.Put.offset, st->Ist.Put.data);
         break;
      case Ist_PutI:
         s->n_regs = 0;
         break;
      case Ist_Dirty: {
         IRDirty* d = st->Ist.Dirty.details;
         Int i;
         for (i = 0; i < d->nFxState; i++)
            if (d->fxState[i].fx != Ifx_Read)
               s->n_regs = 0;
         break;
      }
      default:
         break;
   }
}

/* The memory access |st| makes, if any (addr stays NULL if none). */
static WS_Access access_of(const Tracker* s, IRStmt* st)
{
   IRTypeEnv* tyenv = s->tyenv;
   WS_Access a = { NULL, 0, NULL, { WS_ROOT_NONE, 0 }, 0, 1, WS_Read };
   switch (st->tag) {
      case Ist_WrTmp:
         if (st->Ist.WrTmp.data->tag == Iex_Load) {
            a.addr = st->Ist.WrTmp.data->Iex.Load.addr;
            a.size = sizeofIRType(st->Ist.WrTmp.data->Iex.Load.ty);
         }
         break;
      case Ist_Store:
         a.addr = st->Ist.Store.addr;
         a.size = sizeofIRType(typeOfIRExpr(tyenv, st->Ist.Store.data));
         a.kind = WS_Write;
         break;
      case Ist_StoreG: {
         IRStoreG* sg = st->Ist.StoreG.details;
         a.addr  = sg->addr;
         a.size  = sizeofIRType(typeOfIRExpr(tyenv, sg->data));
         a.guard = sg->guard;
         a.kind  = WS_Write;
         break;
      }
      case Ist_LoadG: {
         IRLoadG* lg = st->Ist.LoadG.details;
         IRType loaded = Ity_INVALID, widened = Ity_INVALID;
         typeOfIRLoadGOp(lg->cvt, &widened, &loaded);
         a.addr  = lg->addr;
         a.size  = sizeofIRType(loaded);
         a.guard = lg->guard;
         break;
      }
      case Ist_Dirty: {
         IRDirty* d = st->Ist.Dirty.details;
         if (d->mFx != Ifx_None) {
            a.addr = d->mAddr;
            a.size = d->mSize;
            a.weight = d->mFx == Ifx_Modify ? 2 : 1;
            a.kind = d->mFx == Ifx_Read ? WS_Read
                   : d->mFx == Ifx_Write ? WS_Write : WS_ReadWrite;
            a.guard = d->guard;
            if (a.guard->tag == Iex_Const && a.guard->Iex.Const.con->Ico.U1)
               a.guard = NULL;
         }
         break;
      }
      case Ist_CAS: {
         IRCAS* cas = st->Ist.CAS.details;
         Int size = sizeofIRType(typeOfIRExpr(tyenv, cas->dataLo));
         a.addr = cas->addr;
         a.size = cas->dataHi ? 2 * size : size;
         a.weight = 2;
         a.kind = WS_ReadWrite;
         break;
      }
      case Ist_LLSC:
         a.addr = st->Ist.LLSC.addr;
         a.size = sizeofIRType(st->Ist.LLSC.storedata == NULL
                                  ? typeOfIRTemp(tyenv, st->Ist.LLSC.result)
                                  : typeOfIRExpr(tyenv, st->Ist.LLSC.storedata));
         if (st->Ist.LLSC.storedata != NULL)
            a.kind = WS_Write;
         break;
      default:
         break;
   }
   if (a.addr)
      a.sym = sym_of_atom(s, a.addr);
   return a;
}

void* WS_(scratch)(WS_Scratch* s, SizeT bytes)
{
   if (bytes > s->bytes) {
      if (s->buf != NULL)
         VG_(free)(s->buf);
      s->bytes = bytes > 2 * s->bytes ? bytes : 2 * s->bytes;
      s->buf = VG_(malloc)(s->cc, s->bytes);
   }
   return s->buf;
}

static WS_Scratch access_buf = { NULL, 0, "ws.instrument.access" };
static WS_Scratch tmp_buf    = { NULL, 0, "ws.instrument.tmp" };

/* Every statement's access with its symbolic address as it stands at
   that statement (one more slot at the end, unused). */
WS_Access* WS_(find_accesses)(IRSB* sbIn)
{
   Tracker t;
   Int i, segment = 0;
   WS_Access* access = WS_(scratch)(&access_buf, (sbIn->stmts_used + 1)
                                                 * sizeof(WS_Access));
   t.tyenv = sbIn->tyenv;
   t.n_tmps = sbIn->tyenv->types_used;
   t.tmp = WS_(scratch)(&tmp_buf, (t.n_tmps + 1) * sizeof(WS_SymAddr));
   for (i = 0; i < t.n_tmps; i++) {
      t.tmp[i].root = WS_ROOT_NONE;
      t.tmp[i].off = 0;
   }
   t.n_regs = 0;
   for (i = 0; i < sbIn->stmts_used; i++) {
      IRStmt* st = sbIn->stmts[i];
      access[i] = access_of(&t, st);
      access[i].segment = segment;
      if (st->tag == Ist_Exit)
         segment++;
      track_stmt(&t, st);
   }
   return access;
}

/* Widens the byte range [*lo, *hi] of access |i| to the unconditional
   accesses off the same root later in the same exit-free stretch of
   the superblock, as long as the whole stays shorter than a page.
   Those accesses are sure to run once access |i| does (no exit comes
   between), so checking the range's two ends at |i| is exact, and
   leaves each of them covered. */
void WS_(widen_to_group)(const WS_Access* access, Int i, Int n_stmts,
                         Long* lo, Long* hi)
{
   const WS_Access* a = &access[i];
   /* A group is kept shorter than 64 KiB at larger pages too, and
      no longer than a line when lines are apart from pages: the IR
      flags the lines of its two ends only (ws_instrument.c). */
   Long span = WS_(page_size)() < 0x10000 ? WS_(page_size)() : 0x10000;
   if (WS_(lines_apart)() && span > (Long)WS_(clo).linesize)
      span = WS_(clo).linesize;
   Long ps = WS_(page_size)();
   Int j;
   for (j = i + 1; j < n_stmts; j++) {
      const WS_Access* b = &access[j];
      Long blo, bhi;
      if (b->segment != a->segment)
         break;
      if (b->addr == NULL || b->guard != NULL || b->sym.root != a->sym.root
          || b->size > ps)
         continue;
      blo = b->sym.off < *lo ? b->sym.off : *lo;
      bhi = b->sym.off + b->size - 1 > *hi ? b->sym.off + b->size - 1 : *hi;
      if (bhi - blo < span) {
         *lo = blo;
         *hi = bhi;
      }
   }
}

/*--------------------------------------------------------------------*/
/*--- end                                             ws_accesses.c ---*/
/*--------------------------------------------------------------------*/

/*--------------------------------------------------------------------*/
/*--- ws: the per-routine footprint's IR.         ws_routines_ir.c ---*/
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

/* Owns the IR that --ws-routines=yes adds among the core's (through
   the core's instrumentation hook, so a run without the option has
   none of it).  ws_routines.c keeps the state it reads.

   Per superblock, before its first access: if the stack pointer is
   above the top frame's (in the shadow area), a helper pops the frames
   below it.  At the end of a superblock that calls: a helper pushes a
   frame (after the clock has counted the call), given the routine
   itself when the call's target is a constant.

   Per data access, for the line of its first byte:

      chunk = LOAD(lines + ((addr >> 30) & 0x1FFFF) * 8)
      slot  = chunk + ((addr >> 6) & 0xFFFFFF) * 4
      e     = LOAD32(slot)
      STORE32(slot) = read ? (e & 1) | read_stamp : write_stamp
      keep  = (((addr & 63) + size - 1) >> 6) - 1    -- 0 if it crosses
      if ((e & keep) <u threshold)                   -- into the next line
         helper(addr, e, size)

   the threshold being, for a read, the later of the top activation's
   stamp and the thread's slice, for a write the slice alone (a write
   counts no input; it needs the helper only to take the line from
   another thread or after the kernel wrote it).  The store comes before
   the compare, so that the slot's address dies there.  An access whose
   bytes an earlier check of the same exit-free stretch covered (off the
   same root; a write only by a write's) needs none; accesses of one
   kind off one root spanning less than a line share a check of each
   end (the lines it reaches).  The
   load that gives a `ret` its target is no input, and is not checked. */

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_machine.h"
#include "pub_tool_tooliface.h"

#include "ws_analyses.h"

#define MAX_DONE 64

static struct {
   IRSB* out;
   Int   base;           /* the shadow area's offset */
   Int   offset_sp;
   Int   n_done;
   struct { Int root; Long lo, hi; Int segment; WS_AccessKind kind; }
         done[MAX_DONE];
} sb;

static IRExpr* bind(IRType ty, IRExpr* e)
{
   IRTemp t = newIRTemp(sb.out->tyenv, ty);
   addStmtToIRSB(sb.out, IRStmt_WrTmp(t, e));
   return IRExpr_RdTmp(t);
}

static IRExpr* c64(ULong v)
{
   return IRExpr_Const(IRConst_U64(v));
}

static IRExpr* shadow32(Int off)
{
   return bind(Ity_I32, IRExpr_Get(sb.base + off, Ity_I32));
}

/* A call of |fn| that reads the clock's countdown and may change the
   routines' shadow words. */
static void frame_call(const HChar* name, void* fn, IRExpr** args,
                       IRExpr* guard)
{
   IRDirty* di = unsafeIRDirty_0_N(0, name, VG_(fnptr_to_fnentry)(fn), args);
   di->guard = guard;
   di->nFxState = 2;
   VG_(memset)(&di->fxState, 0, sizeof di->fxState);
   di->fxState[0].fx = Ifx_Modify;
   di->fxState[0].offset = sb.base + WS_SHADOW_RT_TOPSP;
   di->fxState[0].size = WS_SHADOW_RT_BYTES;
   di->fxState[1].fx = Ifx_Read;
   di->fxState[1].offset = sb.base + WS_SHADOW_LEFT;
   di->fxState[1].size = sizeof(Long);
   addStmtToIRSB(sb.out, IRStmt_Dirty(di));
}

static void enter(IRSB* out, IRSB* sbIn, const VexGuestLayout* layout)
{
   IRExpr *sp, *top;
   sb.out = out;
   sb.base = layout->total_sizeB;
   sb.offset_sp = layout->offset_SP;
   sb.n_done = 0;
   WS_(routines_set_shadow_base)(sb.base);
   sp = bind(Ity_I64, IRExpr_Get(sb.offset_sp, Ity_I64));
   top = bind(Ity_I64, IRExpr_Get(sb.base + WS_SHADOW_RT_TOPSP, Ity_I64));
   frame_call("ws_rt_pop", WS_(rt_pop), mkIRExprVec_2(IRExpr_GSPTR(), sp),
              bind(Ity_I1, IRExpr_Binop(Iop_CmpLT64U, top, sp)));
}

static Bool is_ret_target(IRSB* sbIn, Int i)
{
   IRStmt* st = sbIn->stmts[i];
   return sbIn->jumpkind == Ijk_Ret && sbIn->next->tag == Iex_RdTmp
          && st->tag == Ist_WrTmp
          && st->Ist.WrTmp.tmp == sbIn->next->Iex.RdTmp.tmp
          && st->Ist.WrTmp.data->tag == Iex_Load;
}

static Bool covered(const WS_Access* a)
{
   Int i;
   if (a->guard != NULL || a->sym.root == WS_ROOT_NONE)
      return False;
   for (i = 0; i < sb.n_done; i++)
      if (sb.done[i].segment == a->segment && sb.done[i].root == a->sym.root
          && sb.done[i].lo <= a->sym.off
          && a->sym.off + a->size - 1 <= sb.done[i].hi
          && ((a->kind & ~sb.done[i].kind) == 0 || a->kind == WS_Read))
         return True;
   return False;
}

/* The entry at |index| of |chunk|, an address expression of its own at
   each use, so that the instruction selector makes it an addressing
   mode (chunk + index * 4) rather than a register. */
static IRExpr* slot(IRExpr* chunk, IRExpr* index)
{
   return bind(Ity_I64, IRExpr_Binop(Iop_Add64, chunk,
               bind(Ity_I64, IRExpr_Binop(Iop_Shl64, index,
                                          IRExpr_Const(IRConst_U8(2))))));
}

static void check(IRExpr* addr, Long size, WS_AccessKind kind, IRExpr* guard)
{
   IRExpr *chunk, *index, *e, *value, *stale, *thr;
   const HChar* name;
   void* fn;
   chunk = bind(Ity_I64, IRExpr_Load(Iend_LE, Ity_I64,
                bind(Ity_I64, IRExpr_Binop(Iop_Add64,
                     bind(Ity_I64, IRExpr_Binop(Iop_And64,
                          bind(Ity_I64, IRExpr_Binop(Iop_Shr64, addr,
                               IRExpr_Const(IRConst_U8(WS_RT_LINE_SHIFT
                                                       + WS_RT_CHUNK_BITS
                                                       - 3)))),
                          c64((WS_RT_L1_ENTRIES - 1ULL) << 3))),
                     c64((Addr)WS_(rt_lines))))));
   index = bind(Ity_I64, IRExpr_Binop(Iop_And64,
                bind(Ity_I64, IRExpr_Binop(Iop_Shr64, addr,
                     IRExpr_Const(IRConst_U8(WS_RT_LINE_SHIFT)))),
                c64((1ULL << WS_RT_CHUNK_BITS) - 1)));
   e = bind(Ity_I32, IRExpr_Load(Iend_LE, Ity_I32, slot(chunk, index)));
   if (kind & WS_Write)
      value = shadow32(WS_SHADOW_RT_WRITE_STAMP);
   else
      value = bind(Ity_I32, IRExpr_Binop(Iop_Or32,
                   bind(Ity_I32, IRExpr_Binop(Iop_And32, e,
                                              IRExpr_Const(IRConst_U32(1)))),
                   shadow32(WS_SHADOW_RT_READ_STAMP)));
   if (guard)
      addStmtToIRSB(sb.out, IRStmt_StoreG(Iend_LE, slot(chunk, index), value,
                                          guard));
   else
      addStmtToIRSB(sb.out, IRStmt_Store(Iend_LE, slot(chunk, index), value));
   thr = shadow32(kind == WS_Write ? WS_SHADOW_RT_WRITE_THR
                                   : WS_SHADOW_RT_READ_THR);
   if (size > 64) {
      stale = IRExpr_Const(IRConst_U1(True));
   } else if (size > 1) {
      /* e, or 0 when the access crosses into the next line (every
         threshold is above 0): one compare for both */
      IRExpr* keep = bind(Ity_I32, IRExpr_Unop(Iop_64to32,
                     bind(Ity_I64, IRExpr_Binop(Iop_Sub64,
                          bind(Ity_I64, IRExpr_Binop(Iop_Shr64,
                               bind(Ity_I64, IRExpr_Binop(Iop_Add64,
                                    bind(Ity_I64, IRExpr_Binop(Iop_And64, addr,
                                                               c64(63))),
                                    c64(size - 1))),
                               IRExpr_Const(IRConst_U8(WS_RT_LINE_SHIFT)))),
                          c64(1)))));
      stale = bind(Ity_I1, IRExpr_Binop(Iop_CmpLT32U,
                   bind(Ity_I32, IRExpr_Binop(Iop_And32, e, keep)), thr));
   } else {
      stale = bind(Ity_I1, IRExpr_Binop(Iop_CmpLT32U, e, thr));
   }
   if (guard)
      stale = bind(Ity_I1, IRExpr_Binop(Iop_And1, stale, guard));
   switch (kind) {
      case WS_Read:  name = "ws_rt_read";   fn = WS_(rt_read);   break;
      case WS_Write: name = "ws_rt_write";  fn = WS_(rt_write);  break;
      default:       name = "ws_rt_modify"; fn = WS_(rt_modify); break;
   }
   {
      IRDirty* di = unsafeIRDirty_0_N(0, name, VG_(fnptr_to_fnentry)(fn),
                       mkIRExprVec_3(addr,
                                     bind(Ity_I64, IRExpr_Unop(Iop_32Uto64, e)),
                                     c64(size)));
      di->guard = stale;
      addStmtToIRSB(sb.out, IRStmt_Dirty(di));
   }
}

/* Root temporary |root| (or an absolute address) plus |off|. */
static IRExpr* at(Int root, Long off)
{
   return root == WS_ROOT_CONST
             ? c64(off)
             : bind(Ity_I64, IRExpr_Binop(Iop_Add64, IRExpr_RdTmp(root),
                                          c64(off)));
}

static void access(IRSB* out, IRSB* sbIn, const WS_Access* all, Int i)
{
   const WS_Access* a = &all[i];
   Long lo = a->sym.off, hi = a->sym.off + a->size - 1;
   IRExpr* addr = a->addr;
   Int j;
   if (a->size <= 0 || is_ret_target(sbIn, i) || covered(a))
      return;
   if (a->guard == NULL && a->sym.root != WS_ROOT_NONE) {
      for (j = i + 1; j < sbIn->stmts_used; j++) {
         const WS_Access* b = &all[j];
         Long nlo, nhi;
         if (sbIn->stmts[j]->tag == Ist_Exit)
            break;
         if (b->addr == NULL || b->guard != NULL || b->size <= 0
             || b->sym.root != a->sym.root || b->kind != a->kind
             || is_ret_target(sbIn, j))
            continue;
         nlo = b->sym.off < lo ? b->sym.off : lo;
         nhi = b->sym.off + b->size - 1 > hi ? b->sym.off + b->size - 1 : hi;
         if (nhi - nlo < 64) {
            lo = nlo;
            hi = nhi;
         }
      }
      if (sb.n_done < MAX_DONE) {
         sb.done[sb.n_done].root = a->sym.root;
         sb.done[sb.n_done].lo = lo;
         sb.done[sb.n_done].hi = hi;
         sb.done[sb.n_done].segment = a->segment;
         sb.done[sb.n_done].kind = a->kind;
         sb.n_done++;
      }
      if (lo != a->sym.off || hi != a->sym.off + a->size - 1) {
         /* a group: it reaches two lines at most, those of its ends (a
            check of its whole span would cross a line, and call the
            helper, most of the time) */
         check(at(a->sym.root, lo), 1, a->kind, NULL);
         check(at(a->sym.root, hi), 1, a->kind, NULL);
         return;
      }
   }
   check(addr, hi - lo + 1, a->kind, a->guard);
}

static void leave(IRSB* out, IRSB* sbIn)
{
   sb.out = out;
   if (sbIn->jumpkind == Ijk_Call) {
      IRExpr* sp = bind(Ity_I64, IRExpr_Get(sb.offset_sp, Ity_I64));
      IRExpr* yes = IRExpr_Const(IRConst_U1(True));
      if (sbIn->next->tag == Iex_Const)
         /* the routine looked up once, here */
         frame_call("ws_rt_call_to", WS_(rt_call_to),
                    mkIRExprVec_3(IRExpr_GSPTR(),
                       c64((Addr)WS_(rt_routine_at)(
                              sbIn->next->Iex.Const.con->Ico.U64)), sp),
                    yes);
      else
         frame_call("ws_rt_call", WS_(rt_call),
                    mkIRExprVec_3(IRExpr_GSPTR(), sbIn->next, sp), yes);
   }
}

static const WS_InstrumentHook hook = { enter, access, leave };

void WS_(routines_instrument_init)(void)
{
   WS_(hook_instrument)(&hook);
}

/*--------------------------------------------------------------------*/
/*--- end                                          ws_routines_ir.c ---*/
/*--------------------------------------------------------------------*/

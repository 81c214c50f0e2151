/*--------------------------------------------------------------------*/
/*--- ws: the calls the miss profile counts.            ws_calls.c ---*/
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

/* Owns the count of calls per call site and target that the miss
   profile's calls= lines give (callgrind's meaning: how often that
   caller called that callee), and the reading of PLT stubs that turns
   a call to a stub into a call to the function its GOT slot holds;
   and, from the targets seen, the entry of the function a frame's call
   entered, which names code without symbols.

   An instrumentation pass (added only with --ws-miss-file, so that a
   run without it has none of it) ends each superblock that calls
   (Ijk_Call: ws turns off chasing, so a call ends its superblock) with
   a count of that call: for a direct call, inline, the counter of the
   (call site, target) pair plus WS_(measuring), so that calls count
   while measuring only, as misses do; for an indirect call, a helper
   that finds the target's counter.  A counter is made once, when its
   call is first translated, and never freed: the translations hold its
   address.  A forked child or a new image sets them to zero. */

#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_hashtable.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_vki.h"

#include "ws_analyses.h"

typedef struct _Target {
   struct _Target* next;
   Addr            at;
   ULong           count;
} Target;

typedef struct _CallSite {
   struct _CallSite* next;
   UWord             key;       /* the call's last byte: its return
                                   address less one, as stacks give it */
   Target*           targets;   /* newest first */
} CallSite;

static VgHashTable* call_sites = NULL;

static CallSite* call_site(Addr key)
{
   CallSite* s = VG_(HT_lookup)(call_sites, key);
   if (s == NULL) {
      s = VG_(calloc)("ws.calls.site", 1, sizeof *s);
      s->key = key;
      VG_(HT_add_node)(call_sites, s);
   }
   return s;
}

static Target* target_of(CallSite* s, Addr at)
{
   Target* t;
   for (t = s->targets; t && t->at != at; t = t->next)
      ;
   if (t == NULL) {
      t = VG_(calloc)("ws.calls.target", 1, sizeof *t);
      t->at = at;
      t->next = s->targets;
      s->targets = t;
   }
   return t;
}

/* Every target is kept, measuring or not, for WS_(called_entry). */
static VG_REGPARM(2) void count_indirect(CallSite* s, Addr at)
{
   Target* t = target_of(s, at);
   if (WS_(measuring))
      t->count++;
}

static IRExpr* bind(IRSB* sb, IRType ty, IRExpr* e)
{
   IRTemp t = newIRTemp(sb->tyenv, ty);
   addStmtToIRSB(sb, IRStmt_WrTmp(t, e));
   return IRExpr_RdTmp(t);
}

static IRExpr* host(const void* p)
{
   return WS_(cW)((Addr)p);
}

static IRSB* count_calls(IRSB* sb, const VexGuestLayout* layout,
                         const VexGuestExtents* vge)
{
   const IRStmt* mark = NULL;
   CallSite*     s;
   Int           i;
   if (sb->jumpkind != Ijk_Call)
      return sb;
   for (i = sb->stmts_used - 1; i >= 0 && mark == NULL; i--)
      if (sb->stmts[i] && sb->stmts[i]->tag == Ist_IMark)
         mark = sb->stmts[i];
   if (mark == NULL)
      return sb;
   s = call_site(mark->Ist.IMark.addr + mark->Ist.IMark.len - 1);
   if (sb->next->tag == Iex_Const) {
      ULong*   count = &target_of(s, WS_ICO_W(sb->next->Iex.Const.con))
                           ->count;
      IRExpr*  on = bind(sb, Ity_I8, IRExpr_Load(Iend_LE, Ity_I8,
                                                 host(&WS_(measuring))));
#if VG_WORDSIZE == 8
      on = bind(sb, Ity_I64, IRExpr_Unop(Iop_8Uto64, on));
#else
      /* VEX's x86 back end has no 8Uto64, into which its optimiser
         folds 32Uto64(8Uto32(x)): the high word is put beside */
      on = bind(sb, Ity_I64, IRExpr_Binop(Iop_32HLto64,
                IRExpr_Const(IRConst_U32(0)),
                bind(sb, Ity_I32, IRExpr_Unop(Iop_8Uto32, on))));
#endif
      IRExpr*  old = bind(sb, Ity_I64, IRExpr_Load(Iend_LE, Ity_I64,
                                                   host(count)));
      addStmtToIRSB(sb, IRStmt_Store(Iend_LE, host(count),
                                     bind(sb, Ity_I64,
                                          IRExpr_Binop(Iop_Add64, old, on))));
   } else {
      IRDirty* d = unsafeIRDirty_0_N(2, "ws_count_indirect",
                                     VG_(fnptr_to_fnentry)(count_indirect),
                                     mkIRExprVec_2(host(s), sb->next));
      addStmtToIRSB(sb, IRStmt_Dirty(d));
   }
   return sb;
}

void WS_(calls_init)(void)
{
   call_sites = VG_(HT_construct)("ws.calls.sites");
   WS_(add_instrument_pass)(count_calls);
}

void WS_(calls_reset)(void)
{
   CallSite* s;
   Target*   t;
   if (call_sites == NULL)
      return;
   VG_(HT_ResetIter)(call_sites);
   while ((s = VG_(HT_Next)(call_sites)) != NULL)
      for (t = s->targets; t; t = t->next)
         t->count = 0;
}

void WS_(calls_each)(void (*f)(Addr site, Addr target, ULong count))
{
   CallSite* s;
   Target*   t;
   if (call_sites == NULL)
      return;
   VG_(HT_ResetIter)(call_sites);
   while ((s = VG_(HT_Next)(call_sites)) != NULL)
      for (t = s->targets; t; t = t->next)
         if (t->count > 0)
            f(s->key, t->at, t->count);
}

Addr WS_(called_entry)(Addr site, Addr ip)
{
   const CallSite* s = call_sites ? VG_(HT_lookup)(call_sites, site) : NULL;
   const Target*   t;
   Addr            best = 0;
   for (t = s ? s->targets : NULL; t; t = t->next)
      if (t->at <= ip && t->at > best)
         best = t->at;
   return best;
}

/* Code in a PLT section, or of no function: maybe a PLT stub. */
static Bool maybe_stub(Addr a)
{
   const HChar* name;
   return VG_(DebugInfo_sect_kind)(NULL, a) == Vg_SectPLT
          || !VG_(get_fnname)(VG_(current_DiEpoch)(), a, &name);
}

/* The slot a PLT stub at |entry| jumps through: `jmp *d(%rip)`, after
   an `endbr64` and with a `bnd` prefix or not; 0 for other code. */
Addr WS_(plt_slot)(Addr entry)
{
   static const UChar endbr64[4] = { 0xf3, 0x0f, 0x1e, 0xfa };
   const UChar* c = (const UChar*)entry;
   Addr at = entry, slot;
   if (!maybe_stub(entry)
       || !VG_(am_is_valid_for_client)(entry, 16, VKI_PROT_READ))
      return 0;
   if (VG_(memcmp)(c, endbr64, 4) == 0)
      at += 4;
   if (*(const UChar*)at == 0xf2)                 /* bnd */
      at++;
   c = (const UChar*)at;
   if (c[0] != 0xff || c[1] != 0x25)
      return 0;
   slot = at + 6 + (Long)*(const Int*)(c + 2);
   return VG_(am_is_valid_for_client)(slot, sizeof(Addr), VKI_PROT_READ)
          ? slot : 0;
}

Addr WS_(plt_target)(Addr entry)
{
   Addr slot = WS_(plt_slot)(entry);
   return slot ? *(const Addr*)slot : entry;
}

/*--------------------------------------------------------------------*/
/*--- end                                                ws_calls.c ---*/
/*--------------------------------------------------------------------*/

/*--------------------------------------------------------------------*/
/*--- ws: instrumentation.                         ws_instrument.c ---*/
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

/* Owns the IR that runs on every superblock.  This is where ws wins or
   loses on speed, so the common case is inline IR and a helper is
   called only when a page's stamp is not the current epoch's (at most
   once per page per epoch).  It does not print and does not count:
   the helpers it calls (ws_dtlb.c) do.

   Per superblock:
     - on entry, one test of the clock's countdown (the instructions
       left before the next boundary, in the guest state's shadow area:
       ws_core.h), and a guarded call to WS_(boundary) when it has
       run out; then the current stamp is read once into a temporary;
     - the countdown is lowered by the instructions run since its last
       update before every side exit and at the end: the clock is
       exact at every superblock boundary;
     - one check per distinct code page, placed at the first
       instruction on that page (a page after a taken side exit is not
       counted), and its instructions added to its access count before
       each side exit and at the end.  The page's code slot
       (ws_codeslots.c) is known at translation time: the check is one
       compare of the stamp with the slot's (a 64-bit load, which VEX
       folds into the compare; the slot's address still takes a movabs,
       as VEX's amd64 back end has no absolute addressing mode), and
       the count reaches the slot through a zero loaded from the guest
       state, with the slot's address (below 2^31) as the displacement
       (code_stale, count_code_accesses).  A page that found no slot
       left is checked against its page-table stamp and counted in its
       page record, both at constant addresses.
   A rep-prefixed string instruction (rep movs, rep stos, ...) is one
   instruction however often it iterates (--ws-count-rep=once, as the
   processor retires it): ws_rep.c says how.
   Per data access: one load from the data TLB (pages current in this
   epoch, indexed by the page of the access's last byte) and one compare
   with the page of its first byte; a stale entry, and so any access
   that crosses a page boundary, takes the helper, which refills it,
   walks the page table and touches every page of the access.  The
   helper's arguments are set up on the fast path too, so the common
   case passes the address alone (finish_checks).

   A check is left out when an unconditional check earlier in the same
   exit-free stretch covers the access's bytes.  Addresses are tracked
   (ws_accesses.c) as "root temporary + constant" through Add/Sub of
   constants and through guest registers that were PUT and read back,
   so stack-frame accesses off one stack pointer value,
   read-modify-write pairs and repeated accesses to one global share
   one check: a check is widened to the accesses off its root later in
   its stretch (less than a page in all), and each access it covers is
   counted on it as one of its parts, so that the per-page access
   counts can be shared out by the parts' last bytes when the range
   crosses a page boundary. */

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_tooliface.h"

#include "ws_core.h"

/*------------------------------------------------------------*/
/*--- The superblock's state                               ---*/
/*------------------------------------------------------------*/

/* An emitted data check: the byte range it makes current (off its
   root, in its exit-free stretch), and the accesses counted on it. */
typedef struct {
   IRConst* weight;       /* accesses it counts; grows as later
                             accesses of its stretch lean on it */
   IRDirty* call;         /* the helper call */
   IRExpr*  addr;         /* its address argument */
   Bool     ip_in_guest;  /* the guest state holds |ip| at the call */
   Int      segment;
   Int      root;         /* WS_ROOT_NONE: it covers nothing else */
   Long     lo, hi;       /* the range, off the root */
   Addr     ip;
   Int      n_parts;      /* accesses counted on it */
   Int      first_part;   /* its parts, once gather_parts has run */
   WS_AccessKind kind;    /* what they do */
   IRConst* tag;          /* the address of the TLB tag it compares,
                             which follows |kind|; NULL: none */
} Check;

#define MAX_CODE_PAGES 8

typedef struct {
   IRSB*    sb;
   IRTemp   stamp;        /* current stamp (I64), loaded on entry */
   Int      offset_ip;    /* of the guest's instruction pointer */
   Bool     ip_known;     /* whether it is known to hold... */
   Addr     guest_ip;     /* ...this, where the output now stands */
   Int      shadow_left;  /* guest state offsets of the clock's */
   Int      shadow_stamp; /* countdown and the stamp (ws_core.h) */
   Int      shadow_zero;
   Int      shadow_rep;   /* the rep instruction whose iteration comes */
   Addr     rep;          /* the rep string instruction counted once in
                             this superblock (its last), or 0 */
   IRTemp   rep_fresh;    /* I1: the superblock starts with it and a new
                             execution of it begins; IRTemp_INVALID if
                             the superblock does not start with it */
   Bool     rep_uncounted;   /* rep_fresh not yet added to the clock */
   UInt     insns;        /* IMarks seen so far */
   UInt     insns_clocked;   /* of which added to the clock */
   Addr     ip;           /* address of the current instruction */
   Int      segment;      /* side exits passed so far */
   WS_Access* access;             /* per input statement */
   Check*   checks;               /* per emitted data check */
   Int      n_checks;
   WS_CheckPart* parts;           /* per access counted on a check, */
   Int*     part_check;           /* in the order they were counted, */
   Int      n_parts;              /* and the check of each, */
   WS_GroupPart* part_group;      /* and its instruction and bytes */
   Addr     code_pages[MAX_CODE_PAGES];     /* code pages checked */
   ULong*   code_counter[MAX_CODE_PAGES];   /* their access counters */
   Bool     code_slotted[MAX_CODE_PAGES];   /* ...in a code slot */
   UInt     code_pending[MAX_CODE_PAGES];   /* instructions not yet
                                               added to them */
   Int      code_slot_index[MAX_CODE_PAGES];
   ULong    code_lines[MAX_CODE_PAGES];     /* lines apart: the lines
                                               run on since the last
                                               flags were set, as bits
                                               (flags inline), */
   Addr     code_lo[MAX_CODE_PAGES];        /* or as the bytes run on */
   Addr     code_hi[MAX_CODE_PAGES];        /* (code_hi 0: none) */
   Int      n_code_pages;
} SBState;

/* Follows what the guest state's instruction pointer holds as |st|
   runs.  VEX stores it at the end of an instruction only where the
   next one may fault (--vex-iropt-register-updates), and not at all
   at the first instruction of code a superblock chases into, so a
   check knows it holds the check's instruction only from the stores
   it has seen. */
static void track_guest_ip(SBState* s, IRStmt* st)
{
   Int i;
   switch (st->tag) {
      case Ist_Put:
         if (st->Ist.Put.offset == s->offset_ip) {
            IRExpr* e = st->Ist.Put.data;
            s->ip_known = e->tag == Iex_Const
                          && e->Iex.Const.con->tag == WS_Ico_W;
            if (s->ip_known)
               s->guest_ip = WS_ICO_W(e->Iex.Const.con);
         }
         break;
      case Ist_PutI:
         s->ip_known = False;
         break;
      case Ist_Dirty:
         for (i = 0; i < st->Ist.Dirty.details->nFxState; i++)
            if (st->Ist.Dirty.details->fxState[i].fx != Ifx_Read)
               s->ip_known = False;
         break;
      default:
         break;
   }
}

/*------------------------------------------------------------*/
/*--- IR building                                          ---*/
/*------------------------------------------------------------*/

static IRExpr* bind(SBState* s, IRType ty, IRExpr* e)
{
   IRTemp t = newIRTemp(s->sb->tyenv, ty);
   addStmtToIRSB(s->sb, IRStmt_WrTmp(t, e));
   return IRExpr_RdTmp(t);
}

static IRExpr* c64(ULong v)
{
   return IRExpr_Const(IRConst_U64(v));
}

#define cW WS_(cW)

static IRDirty* call_if(SBState* s, IRExpr* guard, const HChar* name,
                        void* fn, Int regparms, IRExpr** args)
{
   IRDirty* di = unsafeIRDirty_0_N(regparms, name,
                                   VG_(fnptr_to_fnentry)(fn), args);
   di->guard = guard;
   addStmtToIRSB(s->sb, IRStmt_Dirty(di));
   return di;
}

/* True (an Ity_I1 expression) if the code page whose slot is |slot|
   or, without one, whose page-table stamp is |stamp|, is stale.  A
   slot's stamp is 64 bits wide and the compare's second operand, so
   that VEX folds its load into the compare (it folds no 32-bit
   load). */
static IRExpr* code_stale(SBState* s, WS_CodeSlot* slot, Stamp* stamp)
{
   IRExpr* now = IRExpr_RdTmp(s->stamp);
   if (slot != NULL)
      return bind(s, Ity_I1, IRExpr_Binop(WS_Iop_CmpNEW, now,
                  bind(s, WS_Ity_W, IRExpr_Load(Iend_LE, WS_Ity_W,
                                                cW((Addr)&slot->stamp)))));
#if VG_WORDSIZE == 8
   now = bind(s, Ity_I32, IRExpr_Unop(Iop_64to32, now));
#endif
   return bind(s, Ity_I1, IRExpr_Binop(Iop_CmpNE32, now,
               bind(s, Ity_I32, IRExpr_Load(Iend_LE, Ity_I32,
                                            cW((Addr)stamp)))));
}

/* The boundary handler rewrites both shadow fields: declared, so that
   VEX neither keeps them in registers across the call nor reads the
   stamp before it. */
static void prologue(SBState* s, Bool starts_rep, Addr ip)
{
   IRExpr* left = bind(s, WS_Ity_W, IRExpr_Get(s->shadow_left, WS_Ity_W));
   IRExpr* due = bind(s, Ity_I1, IRExpr_Binop(WS_Iop_CmpLEWS, left, cW(0)));
   if (starts_rep) {
      /* No boundary between two iterations of one execution: a sample
         there would hold part of the instruction's accesses. */
      IRExpr* looping = bind(s, WS_Ity_W, IRExpr_Get(s->shadow_rep,
                                                     WS_Ity_W));
      s->rep_fresh = newIRTemp(s->sb->tyenv, Ity_I1);
      addStmtToIRSB(s->sb, IRStmt_WrTmp(s->rep_fresh,
                    IRExpr_Binop(WS_Iop_CmpNEW, looping, cW(ip))));
      due = bind(s, Ity_I1, IRExpr_Binop(Iop_And1, due,
                                         IRExpr_RdTmp(s->rep_fresh)));
      s->rep_uncounted = True;
   }
   IRDirty* di = unsafeIRDirty_0_N(0, "ws_boundary",
                                   VG_(fnptr_to_fnentry)(WS_(boundary)),
                                   mkIRExprVec_0());
   di->guard = due;
   di->nFxState = 2;
   VG_(memset)(&di->fxState, 0, sizeof di->fxState);
   di->fxState[0].fx = Ifx_Modify;
   di->fxState[0].offset = s->shadow_left;
   di->fxState[0].size = sizeof(Word);
   di->fxState[1].fx = Ifx_Modify;
   di->fxState[1].offset = s->shadow_stamp;
   di->fxState[1].size = sizeof(ULong);
   addStmtToIRSB(s->sb, IRStmt_Dirty(di));
   s->stamp = newIRTemp(s->sb->tyenv, WS_Ity_W);
   addStmtToIRSB(s->sb, IRStmt_WrTmp(s->stamp,
                 IRExpr_Get(s->shadow_stamp, WS_Ity_W)));
}

/* The address of a counter: a constant, or for a code slot's, its
   address added to |zero| (a word temporary holding 0), bound afresh
   for each use so that VEX makes the slot's address the displacement
   of the load's or store's addressing mode.  A constant address takes
   a 64-bit immediate in a register of its own for the load and again
   for the store (VEX has no absolute addressing mode). */
static IRExpr* counter_address(SBState* s, ULong* counter, IRExpr* zero)
{
   if (zero == NULL)
      return cW((Addr)counter);
   return bind(s, WS_Ity_W, IRExpr_Binop(WS_Iop_AddW, zero,
                                         cW((Addr)counter)));
}

/* counter += n (an I64 atom); |zero| as for counter_address. */
static void add_to_counter(SBState* s, ULong* counter, IRExpr* n,
                           IRExpr* zero)
{
   IRExpr* old = bind(s, Ity_I64, IRExpr_Load(Iend_LE, Ity_I64,
                      counter_address(s, counter, zero)));
   addStmtToIRSB(s->sb, IRStmt_Store(Iend_LE,
                 counter_address(s, counter, zero),
                 bind(s, Ity_I64, IRExpr_Binop(Iop_Add64, old, n))));
}

/* 1 if a superblock that starts with a rep string instruction begins
   a new execution of it, else 0 (a word atom). */
static IRExpr* rep_fresh_count(SBState* s)
{
   return bind(s, WS_Ity_W, IRExpr_Unop(WS_Iop_1UtoW,
                                        IRExpr_RdTmp(s->rep_fresh)));
}

/* The same as an I64 atom, for an access counter. */
static IRExpr* rep_fresh_count64(SBState* s)
{
#if VG_WORDSIZE == 8
   return rep_fresh_count(s);
#else
   /* not 32Uto64, which VEX's optimiser folds with the 1Uto32 into a
      1Uto64 that its x86 back end does not have */
   return bind(s, Ity_I64, IRExpr_Binop(Iop_32HLto64,
                                        IRExpr_Const(IRConst_U32(0)),
                                        rep_fresh_count(s)));
#endif
}

/* Counts the instructions run since the last call off the clock's
   countdown, before each side exit and at the end.  It is updated in
   the guest state rather than kept in a temporary from the entry on:
   a temporary live across the whole superblock takes a callee-saved
   register that the checks' helper calls would otherwise leave to the
   program's values, which are then spilled around every call. */
static void advance_clock(SBState* s)
{
   IRExpr* left;
   IRExpr* n;
   if (s->insns == s->insns_clocked && !s->rep_uncounted)
      return;
   left = bind(s, WS_Ity_W, IRExpr_Get(s->shadow_left, WS_Ity_W));
   n = cW(s->insns - s->insns_clocked);
   if (s->rep_uncounted)
      n = bind(s, WS_Ity_W, IRExpr_Binop(WS_Iop_AddW, n,
                                         rep_fresh_count(s)));
   addStmtToIRSB(s->sb, IRStmt_Put(s->shadow_left,
                 bind(s, WS_Ity_W, IRExpr_Binop(WS_Iop_SubW, left, n))));
   s->insns_clocked = s->insns;
}

/* Whether the IR flags code page |i|'s lines in its slot (else a
   helper touches them). */
static Bool slot_flags_lines(const SBState* s, Int i)
{
   return s->code_slotted[i] && WS_(lines_inline)();
}

/* Whether this exit adds to a code slot, which needs the zero. */
static Bool counts_on_a_slot(const SBState* s)
{
   Int i;
   for (i = 0; i < s->n_code_pages; i++)
      if (s->code_slotted[i]
          && (s->code_pending[i] != 0 || (i == 0 && s->rep_uncounted)
              || (slot_flags_lines(s, i) && s->code_lines[i] != 0)))
         return True;
   return False;
}

/* Sets the flags of the lines of code page |i| run since the last
   exit: a 32-bit store each (the slot's flags reached as its count is),
   or, where the IR flags none, a call that touches them. */
static void flag_code_lines(SBState* s, Int i, IRExpr* zero)
{
   UInt j;
   if (s->code_hi[i] == 0)
      return;
   if (slot_flags_lines(s, i)) {
      UInt*  f = &WS_(code_lines)[(UInt)s->code_slot_index[i]
                                  << WS_MAX_INLINE_LPP_SHIFT];
      for (j = 0; j < 64; j++)
         if (s->code_lines[i] & (1ULL << j))
            addStmtToIRSB(s->sb, IRStmt_Store(Iend_LE,
                          bind(s, WS_Ity_W, IRExpr_Binop(WS_Iop_AddW, zero,
                                                         cW((Addr)&f[j]))),
                          IRExpr_Const(IRConst_U32(1))));
   } else {
      call_if(s, IRExpr_Const(IRConst_U1(True)), "ws_insn_lines",
              WS_(insn_lines), 2,
              mkIRExprVec_2(mkIRExpr_HWord(s->code_lo[i]),
                            mkIRExpr_HWord(s->code_hi[i] - s->code_lo[i]
                                           + 1)));
   }
   s->code_lines[i] = 0;
   s->code_hi[i] = 0;
}

/* Code page |i| ran bytes [a, last] of an instruction. */
static void note_code_bytes(SBState* s, Int i, Addr a, Addr last)
{
   Addr l;
   if (!WS_(lines_apart)())
      return;
   if (a >> WS_(page_shift)() != s->code_pages[i]) {
      /* a page past MAX_CODE_PAGES, counted on another: its lines are
         touched where the instruction runs */
      call_if(s, IRExpr_Const(IRConst_U1(True)), "ws_insn_lines",
              WS_(insn_lines), 2,
              mkIRExprVec_2(mkIRExpr_HWord(a), mkIRExpr_HWord(last - a + 1)));
      return;
   }
   if (s->code_hi[i] == 0 || a < s->code_lo[i])
      s->code_lo[i] = a;
   if (last > s->code_hi[i])
      s->code_hi[i] = last;
   if (slot_flags_lines(s, i))
      for (l = a >> WS_(line_shift)(); l <= last >> WS_(line_shift)(); l++)
         s->code_lines[i] |= 1ULL << (l & ((1u << WS_(lpp_shift)()) - 1));
}

/* Adds the instructions run since the last call to their code pages'
   access counters: before each side exit and at the end, as the clock
   is stored, so that the counts are exact whichever way the
   superblock is left. */
static void count_code_accesses(SBState* s)
{
   Int i;
   IRExpr* zero = counts_on_a_slot(s)
                  ? bind(s, WS_Ity_W, IRExpr_Get(s->shadow_zero, WS_Ity_W))
                  : NULL;
   for (i = 0; i < s->n_code_pages; i++) {
      if (s->code_pending[i] != 0)
         add_to_counter(s, s->code_counter[i], c64(s->code_pending[i]),
                        s->code_slotted[i] ? zero : NULL);
      s->code_pending[i] = 0;
      flag_code_lines(s, i, zero);
   }
   /* A superblock that starts with a rep instruction: its first code
      page is the instruction's. */
   if (s->rep_uncounted)
      add_to_counter(s, s->code_counter[0], rep_fresh_count64(s),
                     s->code_slotted[0] ? zero : NULL);
   s->rep_uncounted = False;
}

/* Before an exit (or the end) of a superblock that holds the rep
   instruction: whether that way goes on with it (|again|). */
static Bool jumps_to(IRExpr* dst, Addr a)
{
   return dst->tag == Iex_Const && dst->Iex.Const.con->tag == WS_Ico_W
          && WS_ICO_W(dst->Iex.Const.con) == a;
}

static void note_rep_path(SBState* s, Bool again)
{
   addStmtToIRSB(s->sb, IRStmt_Put(s->shadow_rep, cW(again ? s->rep : 0)));
}

/* The code page of the instruction being instrumented; checked the
   first time it is seen in the superblock. */
static Int check_code_page(SBState* s, Addr page, Bool counts)
{
   Int i;
   Stamp* stamp;
   WS_CodeSlot* slot;
   for (i = 0; i < s->n_code_pages; i++)
      if (s->code_pages[i] == page)
         break;
   if (i == s->n_code_pages) {
      if (i == MAX_CODE_PAGES) {
         /* A superblock spans at most a few pages; count the rest on
            the last one rather than lose them. */
         i = MAX_CODE_PAGES - 1;
      } else {
         s->code_pages[i] = page;
         slot = WS_(code_slot)(page);
         s->code_slotted[i] = slot != NULL;
         s->code_slot_index[i] = slot != NULL
                                 ? (Int)(slot - WS_(code_slots)) : -1;
         s->code_lines[i] = 0;
         s->code_hi[i] = 0;
         if (slot != NULL) {
            stamp = NULL;
            s->code_counter[i] = &slot->accesses;
         } else {
            stamp = WS_(pt_slot)(&WS_(tables)[WS_Insn], page);
            s->code_counter[i] = WS_(access_counter)(WS_Insn, page);
         }
         s->code_pending[i] = 0;
         s->n_code_pages++;
         WS_(counters).insn_checks++;
         /* The helper finds the page from the instruction's address
            (the first touch's location): at the superblock's first
            instruction in the guest's instruction pointer, where every
            exit leaves it, which leaves no argument to set up (and
            tells the helper that a superblock begins: ws_core.h); for
            the page an instruction straddles into, the page after its
            own. */
         if (page != s->ip >> WS_(page_shift)())
            call_if(s, code_stale(s, slot, stamp),
                    "ws_insn_restamp_straddling",
                    WS_(insn_restamp_straddling), 1,
                    mkIRExprVec_1(mkIRExpr_HWord(s->ip)));
         else if (i == 0)
            call_if(s, code_stale(s, slot, stamp), "ws_insn_restamp_at_ip",
                    WS_(insn_restamp_at_ip), 0, mkIRExprVec_0());
         else
            call_if(s, code_stale(s, slot, stamp), "ws_insn_restamp",
                    WS_(insn_restamp), 1,
                    mkIRExprVec_1(mkIRExpr_HWord(s->ip)));
      }
   }
   if (counts)
      s->code_pending[i]++;
   return i;
}

/* An instruction counts one access, on the page of its first byte
   (unless |counts| is False: a rep instruction's later iterations). */
static void check_insn(SBState* s, Addr a, UInt len, Bool counts)
{
   Addr end   = a + (len ? len : 1) - 1;
   Addr first = a >> WS_(page_shift)();
   Addr last  = end >> WS_(page_shift)();
   Int  i;
   s->ip = a;
   i = check_code_page(s, first, counts);
   if (last != first) {
      note_code_bytes(s, i, a, (last << WS_(page_shift)()) - 1);
      i = check_code_page(s, last, False);
      note_code_bytes(s, i, last << WS_(page_shift)(), end);
   } else {
      note_code_bytes(s, i, a, end);
   }
}

/* The offset into the data TLB of the entry for the page of
   [addr, addr+size-1]'s last byte: index and scale in one shift and
   one mask.  The table's address is added in each load and store
   that uses the offset, where it becomes the displacement of the
   addressing mode: no register holds the entry's address. */
static IRExpr* data_tlb_offset(SBState* s, IRExpr* addr, Int size)
{
   UInt shift = WS_(page_shift)();
   IRExpr* last = size > 1
      ? bind(s, WS_Ity_W, IRExpr_Binop(WS_Iop_AddW, addr, cW(size - 1)))
      : addr;
   return bind(s, WS_Ity_W, IRExpr_Binop(WS_Iop_AndW,
                  bind(s, WS_Ity_W, IRExpr_Binop(WS_Iop_ShrW, last,
                       IRExpr_Const(IRConst_U8(shift
                                               - WS_DTLB_ENTRY_SHIFT)))),
                  cW((ULong)(WS_DTLB_ENTRIES - 1) << WS_DTLB_ENTRY_SHIFT)));
}

/* The address of the field at |field| in the entry at |offset|.
   Bound afresh for each use: a temporary used once is folded into the
   load's or store's addressing mode. */
static IRExpr* dtlb_field(SBState* s, IRExpr* offset, SizeT field)
{
   return bind(s, WS_Ity_W, IRExpr_Binop(WS_Iop_AddW, offset,
                                         cW((Addr)WS_(dtlb) + field)));
}

/* The address of the tag that a check of |kind| compares, in the
   TLB's first entry. */
static Addr tag_address(WS_AccessKind kind)
{
   return (Addr)WS_(dtlb) + offsetof(WS_DtlbEntry, tag)
          + (kind - 1) * sizeof(ULong);
}

/* True (Ity_I1) unless [addr, addr+size-1] lies on one page that the
   data TLB holds for checks of this kind, i.e. one already touched in
   the current epoch.  The TLB is looked up by the page of the *last*
   byte and compared with the page of the first: an access that crosses
   a page boundary can never match, so it always reaches the helper,
   which touches both pages.  The entry's tag is the compare's second
   operand, so that its load is folded into the compare.  |tag| is the
   tag's address in the first entry; a constant the caller may change
   until the superblock is done (a later access of another kind may
   lean on the check). */
static IRExpr* data_tlb_stale(SBState* s, IRExpr* offset, IRExpr* addr,
                              IRConst* tag)
{
   IRExpr* page = bind(s, WS_Ity_W, IRExpr_Binop(WS_Iop_ShrW, addr,
                       IRExpr_Const(IRConst_U8(WS_(page_shift)()))));
   IRExpr* entry_tag = bind(s, WS_Ity_W, IRExpr_Load(Iend_LE, WS_Ity_W,
                            bind(s, WS_Ity_W, IRExpr_Binop(WS_Iop_AddW,
                                 offset, IRExpr_Const(tag)))));
   return bind(s, Ity_I1, IRExpr_Binop(WS_Iop_CmpNEW, page, entry_tag));
}

/* entry->accesses += n, or += (guard ? n : 0), before the check: the
   entry's offset then dies at the compare and is not live across the
   helper call (a caller-saved register would be spilled and reloaded
   around it on the fast path too).  The entry may hold another page
   until the helper runs; the helper takes the count off first and puts
   it on the page it belongs to (ws_dtlb.c). */
static void count_data_accesses(SBState* s, IRExpr* offset, IRExpr* n,
                                IRExpr* guard)
{
   SizeT field = offsetof(WS_DtlbEntry, accesses);
   IRExpr* old = bind(s, Ity_I64, IRExpr_Load(Iend_LE, Ity_I64,
                                              dtlb_field(s, offset, field)));
   if (guard)
      n = bind(s, Ity_I64, IRExpr_Binop(Iop_And64, n,
               bind(s, Ity_I64, IRExpr_Unop(Iop_1Sto64, guard))));
   addStmtToIRSB(s->sb, IRStmt_Store(Iend_LE, dtlb_field(s, offset, field),
                 bind(s, Ity_I64, IRExpr_Binop(Iop_Add64, old, n))));
}

/* The line number of |x|. */
static IRExpr* line_of(SBState* s, IRExpr* x)
{
   return bind(s, WS_Ity_W, IRExpr_Binop(WS_Iop_ShrW, x,
               IRExpr_Const(IRConst_U8(WS_(line_shift)()))));
}

/* The flag of |line| in the data TLB's line flags: the line's index in
   the table is the entry's index and the line's in its page
   (ws_core.h). */
static IRExpr* line_flag_index(SBState* s, IRExpr* line)
{
   ULong mask = ((ULong)WS_DTLB_ENTRIES << WS_(lpp_shift)()) - 1;
   return bind(s, WS_Ity_W, IRExpr_Binop(WS_Iop_AndW, line, cW(mask)));
}

/* After the check (and its helper, which leaves the entries of both
   ends' pages holding them): the flags of the lines of its first and
   last bytes are set, in their pages' entries; settled into the line
   table with the entry (ws_dtlb.c).  A guarded access that does not
   run sets a byte no line owns. */
static void flag_data_lines(SBState* s, IRExpr* addr, Int size,
                            IRExpr* guard)
{
   Int i;
   if (!WS_(lines_apart)())
      return;
   for (i = 0; i < (size > 1 ? 2 : 1); i++) {
      IRExpr* x = i == 0 ? addr
                 : bind(s, WS_Ity_W, IRExpr_Binop(WS_Iop_AddW, addr,
                                                  cW(size - 1)));
      IRExpr* line = line_of(s, x);
      IRExpr* idx = line_flag_index(s, line);
      IRExpr* where = bind(s, WS_Ity_W, IRExpr_Binop(WS_Iop_AddW, idx,
                                         cW((Addr)WS_(dtlb_lines))));
      if (guard)
         where = bind(s, WS_Ity_W, IRExpr_ITE(guard, where,
                                    cW((Addr)&WS_(dtlb_no_line))));
      /* the flag is the index's own low byte (ws_dtlb.c), which is the
         line's: on x86 taken from the line, as VEX's x86 back end
         stores a byte wrongly from the register the address is in */
      addStmtToIRSB(s->sb, IRStmt_Store(Iend_LE, where,
                    bind(s, Ity_I8, IRExpr_Unop(WS_Iop_WtoU8,
                                                VG_WORDSIZE == 8 ? idx
                                                                 : line))));
   }
}

/* The unconditional check of this exit-free stretch whose range holds
   all of [lo, hi] off |root|, or NULL.  An access inside it runs
   whenever the check does (no exit between), and its page is one the
   check made current, so it needs no check of its own: it is counted
   on that check, as one of its parts. */
static Check* covering_check(SBState* s, Int root, Long lo, Long hi)
{
   Int i;
   for (i = s->n_checks - 1; i >= 0; i--) {
      Check* c = &s->checks[i];
      if (c->segment != s->segment)
         return NULL;
      if (c->root == root && c->lo <= lo && hi <= c->hi)
         return c;
   }
   return NULL;
}

static void add_part(SBState* s, Check* c, Long lo, Long hi, Int weight,
                     WS_AccessKind kind)
{
   WS_CheckPart* p = &s->parts[s->n_parts];
   WS_GroupPart* g = &s->part_group[s->n_parts];
   g->ip = s->ip;
   g->first = (UInt)(lo - c->lo);
   g->last = (UInt)(hi - c->lo);
   s->part_check[s->n_parts++] = (Int)(c - s->checks);
   p->last = (UInt)(hi - c->lo);
   p->weight = (UInt)weight;
   c->n_parts++;
   c->weight->Ico.U64 += weight;
   /* A check whose accesses read and write compares the tag that the
      TLB holds only while both may hit. */
   c->kind |= kind;
   if (c->tag != NULL)
      WS_ICO_W(c->tag) = tag_address(c->kind);
}

/* Emits the check for the access at statement |i|, unless a check of
   its stretch already covers it. */
static void check_access(SBState* s, Int i, Int n_stmts)
{
   const WS_Access* a = &s->access[i];
   Long    ps = WS_(page_size)();
   Long    lo = a->sym.off, hi = a->sym.off + a->size - 1;
   IRExpr* addr = a->addr;
   IRExpr* offset;
   IRExpr* cond;
   Check*  c;
   Int     size = a->size;
   Bool    known = a->sym.root != WS_ROOT_NONE && size <= ps;
   /* Accesses share a check unless heap usage attributes each access
      to its own bytes and kind (--ws-heap-usage=exact). */
   Bool    merge = known && a->guard == NULL && !WS_(clo).heap_exact;

   if (size <= 0)
      return;
   if (merge) {
      c = covering_check(s, a->sym.root, lo, hi);
      if (c != NULL) {
         WS_(counters).data_elided++;
         add_part(s, c, lo, hi, a->weight, a->kind);
         return;
      }
   }
   WS_(counters).data_checks++;

   if (merge) {
      WS_(widen_to_group)(s->access, i, n_stmts, &lo, &hi);
      if (lo != a->sym.off) {
         addr = a->sym.root == WS_ROOT_CONST
                   ? cW(lo)
                   : bind(s, WS_Ity_W, IRExpr_Binop(WS_Iop_AddW,
                          IRExpr_RdTmp(a->sym.root), cW(lo)));
      }
      size = hi - lo + 1;
   }

   offset = data_tlb_offset(s, addr, size);
   c = &s->checks[s->n_checks++];
   c->kind = a->kind;
   c->tag = NULL;
   c->weight = IRConst_U64(0);
   count_data_accesses(s, offset, IRExpr_Const(c->weight), a->guard);
   if (size > ps || !WS_(check_flags_lines)(size)) {
      cond = a->guard ? a->guard : IRExpr_Const(IRConst_U1(True));
   } else {
      c->tag = WS_IRConst_W(tag_address(a->kind));
      cond = data_tlb_stale(s, offset, addr, c->tag);
      if (a->guard)
         cond = bind(s, Ity_I1, IRExpr_Binop(Iop_And1, cond, a->guard));
   }
   c->segment = s->segment;
   c->root = known && a->guard == NULL ? a->sym.root : WS_ROOT_NONE;
   c->lo = lo;
   c->hi = hi;
   c->ip = s->ip;
   c->n_parts = 0;
   add_part(s, c, a->sym.off, a->sym.off + a->size - 1, a->weight, a->kind);
   /* The helper and its arguments are chosen once the check's parts
      are all known (finish_checks). */
   c->addr = addr;
   c->ip_in_guest = s->ip_known && s->guest_ip == s->ip;
   c->call = call_if(s, cond, WS_(data_refill_of_kind)(WS_Read)->name,
                     WS_(data_refill_of_kind)(WS_Read)->fn, 2,
                     mkIRExprVec_2(addr, cW(0)));
   if (size <= ps && WS_(check_flags_lines)(size))
      flag_data_lines(s, addr, size, a->guard);
}

/* The parts of each check, one check after another.  An access that
   leans on an earlier check may come after other checks were emitted
   (a group of stack slots read around another pointer's accesses), so
   the order in which parts were counted interleaves the checks. */
static WS_Scratch by_check_buf = { NULL, 0, "ws.instrument.by_check" };

static WS_CheckPart* gather_parts(SBState* s)
{
   WS_CheckPart* by_check = WS_(scratch)(&by_check_buf, (s->n_parts + 1)
                                                        * sizeof(WS_CheckPart));
   Int i, next = 0;
   for (i = 0; i < s->n_checks; i++) {
      s->checks[i].first_part = next;
      next += s->checks[i].n_parts;
      s->checks[i].n_parts = 0;
   }
   for (i = 0; i < s->n_parts; i++) {
      Check* c = &s->checks[s->part_check[i]];
      by_check[c->first_part + c->n_parts++] = s->parts[i];
   }
   return by_check;
}

/* While every access may be observed (ws_core.h): the checks that
   count the accesses of more than one instruction, with each part's
   instruction and bytes, for the helper to tell apart. */
static WS_Scratch group_buf = { NULL, 0, "ws.instrument.group" };

static void note_groups(SBState* s)
{
   WS_GroupPart* g = WS_(scratch)(&group_buf, (s->n_parts + 1)
                                              * sizeof(WS_GroupPart));
   Int i, j, n;
   for (i = 0; i < s->n_checks; i++) {
      Check* c = &s->checks[i];
      Bool   apart = False;
      for (j = 0, n = 0; j < s->n_parts; j++)
         if (s->part_check[j] == i) {
            g[n] = s->part_group[j];
            apart |= g[n++].ip != c->ip;
         }
      if (apart)
         WS_(note_group)(c->ip, (UInt)(c->hi - c->lo + 1),
                         (UInt)c->weight->Ico.U64, c->kind, g, n);
   }
}

/* Gives each check the helper's arguments.  Arguments are set up
   before the guard is tested, on the fast path too, so they are kept
   few: the address alone, for a check of a common size and weight
   whose helper finds the instruction's address in the guest state;
   else the size, the weight and the instruction's address in one
   constant.  A check whose parts do not all end at its last byte may,
   when its range crosses a page boundary, cover accesses on two pages;
   the helper then shares the count out by the parts' last bytes, which
   it finds in a site record, as it does a check too large for the
   constant.  Records are kept for good (a retranslation finds its own
   again), one per distinct site. */
static void finish_checks(SBState* s)
{
   Int i, j;
   WS_CheckPart* by_check = gather_parts(s);
   for (i = 0; i < s->n_checks; i++) {
      Check* c = &s->checks[i];
      const WS_CheckPart* parts = &by_check[c->first_part];
      UInt size = (UInt)(c->hi - c->lo + 1);
      ULong weight = c->weight->Ico.U64;
      const WS_DataRefill* sized
         = c->ip_in_guest ? WS_(data_refill_of_size)(size, weight, c->kind)
                          : NULL;
      const WS_DataRefill* plain = WS_(data_refill_of_kind)(c->kind);
      Bool recorded = weight >= WS_SITE_MAX_WEIGHT
                      || size >= WS_SITE_MAX_SIZE;
      HWord site;
      for (j = 0; j < c->n_parts; j++)
         if (parts[j].last != size - 1)
            recorded = True;
      if (!recorded && sized != NULL) {
         c->call->cee = mkIRCallee(1, sized->name,
                                   VG_(fnptr_to_fnentry)(sized->fn));
         c->call->args = mkIRExprVec_1(c->addr);
         continue;
      }
#if WS_SITE_PACKS
      if (!recorded)
         site = WS_CHECK_SITE(size, weight, c->ip);
      else
#endif
         site = WS_SITE_RECORD
                | (HWord)WS_(site_record)(c->ip, size, parts, c->n_parts);
      c->call->cee = mkIRCallee(2, plain->name,
                                VG_(fnptr_to_fnentry)(plain->fn));
      c->call->args[1] = cW(site);
   }
}

/*------------------------------------------------------------*/
/*--- The instrumentation pass                             ---*/
/*------------------------------------------------------------*/

static const WS_InstrumentHook* hook = NULL;

void WS_(hook_instrument)(const WS_InstrumentHook* h)
{
   tl_assert(hook == NULL);
   hook = h;
}

static WS_Scratch checks_buf     = { NULL, 0, "ws.instrument.checks" };
static WS_Scratch parts_buf      = { NULL, 0, "ws.instrument.parts" };
static WS_Scratch part_check_buf = { NULL, 0, "ws.instrument.part_check" };
static WS_Scratch part_group_buf = { NULL, 0, "ws.instrument.part_group" };

/* The core's IR for |sbIn|. */
static IRSB* measure(IRSB* sbIn, const VexGuestLayout* layout,
                     const VexGuestExtents* vge)
{
   SBState s;
   Int i;
   Bool started = False;

   WS_(counters).sbs++;
   VG_(memset)(&s, 0, sizeof s);
   s.sb = deepCopyIRSBExceptStmts(sbIn);
   s.offset_ip = layout->offset_IP;
   /* Every exit leaves the next superblock's address there. */
   s.ip_known = True;
   s.guest_ip = vge->base[0];
   s.shadow_left = layout->total_sizeB + WS_SHADOW_LEFT;
   s.shadow_stamp = layout->total_sizeB + WS_SHADOW_STAMP;
   s.shadow_rep = layout->total_sizeB + WS_SHADOW_REP;
   s.shadow_zero = layout->total_sizeB + WS_SHADOW_ZERO;
   s.rep_fresh = IRTemp_INVALID;
   s.access = WS_(find_accesses)(sbIn);
   s.checks = WS_(scratch)(&checks_buf,
                           (sbIn->stmts_used + 1) * sizeof(Check));
   s.parts = WS_(scratch)(&parts_buf,
                          (sbIn->stmts_used + 1) * sizeof(WS_CheckPart));
   s.part_check = WS_(scratch)(&part_check_buf,
                               (sbIn->stmts_used + 1) * sizeof(Int));
   s.part_group = WS_(scratch)(&part_group_buf, (sbIn->stmts_used + 1)
                                                * sizeof(WS_GroupPart));

   for (i = 0; i < sbIn->stmts_used; i++) {
      IRStmt* st = sbIn->stmts[i];
      if (st == NULL || st->tag == Ist_NoOp)
         continue;
      if (st->tag == Ist_IMark) {
         Addr a = st->Ist.IMark.addr;
         Bool counted;
         Bool rep = WS_(clo).count_rep_once
                    && WS_(is_rep_string)(a, st->Ist.IMark.len);
         addStmtToIRSB(s.sb, st);
         if (!started) {
            prologue(&s, rep, a);
            if (hook)
               hook->enter(s.sb, sbIn, layout);
            started = True;
         }
         if (rep && s.rep == a) {
            /* another iteration (loop unrolling): counts nothing */
            s.ip = a;
            continue;
         }
         if (rep)
            s.rep = a;
         /* A superblock that starts with the rep instruction counts it
            in advance_clock, if it begins afresh. */
         counted = !rep || s.rep_fresh == IRTemp_INVALID;
         if (counted)
            s.insns++;
         check_insn(&s, a, st->Ist.IMark.len, counted);
         continue;
      }
      if (started) {
         if (s.access[i].addr) {
            check_access(&s, i, sbIn->stmts_used);
            if (hook)
               hook->access(s.sb, sbIn, s.access, i);
         }
         if (st->tag == Ist_Exit) {
            advance_clock(&s);
            count_code_accesses(&s);
            if (s.rep != 0)
               note_rep_path(&s, st->Ist.Exit.dst->tag == WS_Ico_W
                                 && WS_ICO_W(st->Ist.Exit.dst) == s.rep);
            s.segment++;
         }
      }
      addStmtToIRSB(s.sb, st);
      track_guest_ip(&s, st);
   }
   if (started) {
      advance_clock(&s);
      count_code_accesses(&s);
      if (s.rep != 0)
         note_rep_path(&s, jumps_to(s.sb->next, s.rep));
      if (hook)
         hook->leave(s.sb, sbIn);
   }
   if (WS_(observed))
      note_groups(&s);
   finish_checks(&s);
   return s.sb;
}

/* The analyses' passes (ws_core.h), in the order they were added. */
#define WS_MAX_PASSES 4
static WS_InstrumentPass passes[WS_MAX_PASSES];
static UInt n_passes = 0;

void WS_(add_instrument_pass)(WS_InstrumentPass pass)
{
   tl_assert(n_passes < WS_MAX_PASSES);
   passes[n_passes++] = pass;
}

/* The pass that runs before the core's (ws_core.h), or NULL. */
static WS_InstrumentPass first_pass = NULL;

void WS_(set_first_pass)(WS_InstrumentPass pass)
{
   tl_assert(first_pass == NULL);
   first_pass = pass;
}

IRSB* WS_(instrument)(VgCallbackClosure* closure, IRSB* sbIn,
                      const VexGuestLayout* layout,
                      const VexGuestExtents* vge,
                      const VexArchInfo* archinfo_host,
                      IRType gWordTy, IRType hWordTy)
{
   IRSB* sb;
   UInt  i;
   /* The platform's words (ws_core.h, at the top). */
   tl_assert(gWordTy == WS_Ity_W && hWordTy == WS_Ity_W);
   if (first_pass != NULL)
      sbIn = first_pass(sbIn, layout, vge);
   /* While measurement is off, code runs as it is (as callgrind's
      does when collection is off), unless toggles come fast
      (ws_sampler.c).  Code instrumented while off must count nothing
      in the pages' records, as a code page without a slot does: a
      superblock that finds none then runs as it is, and the start
      makes every translation again. */
   if (WS_(instrumenting)()) {
      ULong unslotted = WS_(counters).insn_unslotted;
      sb = measure(sbIn, layout, vge);
      if (!WS_(measuring) && WS_(counters).insn_unslotted != unslotted) {
         sb = sbIn;
         WS_(instrumented_plain)();
      }
   } else {
      sb = sbIn;
   }
   for (i = 0; i < n_passes; i++)
      sb = passes[i](sb, layout, vge);
   return sb;
}

/*--------------------------------------------------------------------*/
/*--- end                                           ws_instrument.c ---*/
/*--------------------------------------------------------------------*/

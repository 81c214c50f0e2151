/*--------------------------------------------------------------------*/
/*--- ws: client requests.                          ws_clientreq.c ---*/
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

/* Owns the door of include/valgrind/ws.h: the program scopes what is
   measured.  Each request goes to the control API (ws_control.c), and
   what it answers becomes a warning here.  Memory the client names (a
   label) is read only after the address space manager says it is
   readable client memory, with a fault catcher for what it does not
   know (WS_(client_string), ws_syscalls.c), and only up to
   WS_LABEL_MAX characters.  A request that cannot
   be used changes nothing and gives one warning per kind of problem (a
   program may repeat the same mistake in a loop).  Monitor commands
   sent from inside the program (VALGRIND_MONITOR_COMMAND) pass through
   here to ws_monitor.c.

   Starts and stops also hand the run over to the other threads soon
   (below): a request costs the tool microseconds, so threads that
   toggle in a loop would otherwise hold Valgrind's lock for the whole
   of their time slices. */

#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_clreq.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcsetjmp.h"
#include "pub_tool_libcsignal.h"
#include "pub_tool_machine.h"
#include "pub_tool_options.h"
#include "pub_tool_signals.h"
#include "pub_tool_stacktrace.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_vki.h"

#include "valgrind/ws.h"      /* the request codes */
#include "ws_control.h"

/*------------------------------------------------------------*/
/*--- Warnings about bad requests, once per kind           ---*/
/*------------------------------------------------------------*/

typedef enum {
   Bad_Unreadable,      /* label pointer not readable client memory */
   Bad_TooLong,         /* no NUL within WS_LABEL_MAX + 1 bytes */
   Bad_Empty,           /* nothing but blanks */
   Bad_Control,         /* a newline, tab or other control character */
   Bad_StartWhileOn,    /* WS_START while measuring: a region begins */
   Bad_StartInRegion,   /* WS_START while a region is open */
   Bad_StopWhileOff,    /* WS_STOP while not measuring */
   Bad_N
} BadKind;

static Bool warned[Bad_N];

/* One warning, with the client's stack, the first time a problem of
   kind |bad| occurs; silence after that. */
static void warn_once(ThreadId tid, BadKind bad, const HChar* format, ...)
   PRINTF_CHECK(3, 4);
static void warn_once(ThreadId tid, BadKind bad, const HChar* format, ...)
{
   va_list vargs;
   if (warned[bad])
      return;
   warned[bad] = True;
   va_start(vargs, format);
   VG_(vmessage)(Vg_UserMsg, format, vargs);
   va_end(vargs);
   VG_(get_and_pp_StackTrace)(tid, VG_(clo_backtrace_size));
   VG_(umsg)("(ws warns about this kind of request only once)\n");
}

/*------------------------------------------------------------*/
/*--- Labels                                               ---*/
/*------------------------------------------------------------*/

/* Copies the client's NUL-terminated string at |a| into |buf| (of
   WS_LABEL_MAX + 2 bytes).  Returns Bad_N if the whole string was
   copied. */
static BadKind copy_client_string(Addr a, HChar* buf)
{
   Bool  whole;
   SizeT n = WS_(client_string)(a, buf, WS_LABEL_MAX + 2, &whole);
   if (n > WS_LABEL_MAX)
      return Bad_TooLong;
   return whole ? Bad_N : Bad_Unreadable;
}

/* Says, the first time, why the label of request |what| at |a| was
   not used. */
static void warn_label(ThreadId tid, const HChar* what, Addr a, BadKind bad)
{
   switch (bad) {
   case Bad_Unreadable:
      warn_once(tid, bad, "ws: %s ignored: its label pointer %#lx does not "
                "point to a string in readable memory\n", what, a);
      break;
   case Bad_TooLong:
      warn_once(tid, bad, "ws: %s ignored: its label at %#lx is longer than "
                "%d characters or not terminated by a NUL\n", what, a,
                WS_LABEL_MAX);
      break;
   case Bad_Empty:
      warn_once(tid, bad, "ws: %s ignored: its label at %#lx is empty\n",
                what, a);
      break;
   case Bad_Control:
      warn_once(tid, bad, "ws: %s ignored: its label at %#lx contains a "
                "control character (newline, tab, ...)\n", what, a);
      break;
   default:
      break;
   }
}

/* What the control API's label check means for a client's label (one
   no longer than WS_LABEL_MAX before it was tidied). */
static BadKind label_problem(WS_LabelCheck check)
{
   switch (check) {
   case WS_Label_Empty:   return Bad_Empty;
   case WS_Label_Control: return Bad_Control;
   case WS_Label_TooLong: return Bad_TooLong;
   default:               return Bad_N;
   }
}

/* WS_MARK(label) and WS_DUMP(label): the label at |a| is copied from
   the client and given to |use| (ws_control.c), which checks it. */
static void label_request(ThreadId tid, const HChar* what, Addr a,
                          WS_LabelCheck (*use)(HChar* label))
{
   HChar   label[WS_LABEL_MAX + 2];
   BadKind bad = copy_client_string(a, label);
   if (bad == Bad_N)
      bad = label_problem(use(label));
   warn_label(tid, what, a, bad);
}

/*------------------------------------------------------------*/
/*--- Handing the run over after a start or a stop         ---*/
/*------------------------------------------------------------*/

/* Valgrind lets one thread run at a time and hands over only at a
   blocking system call or when a time slice of 100,000 superblocks
   ends; its default lock is not fair, so the thread that gives it up
   usually takes it straight back.  A start or a stop costs ws tens of
   microseconds (the final sample, the records), so a thread toggling in
   a loop holds the lock for seconds between two chances for the others,
   where under --tool=none it holds it for milliseconds: two such
   threads kept a main thread from ever reaching exit.  A start or stop
   (and every other request of ws's, and a monitor command the program
   sends) therefore asks for the next superblock that ends in a client
   request to yield, as a spinning `pause' does: it leaves before its first
   statement (so nothing in it has run or been counted) and the
   scheduler cuts the thread's slice to 300 superblocks.  Only such
   superblocks carry the test; the hot path has none. */
static UInt yield_wanted = 0;

static void yield_given(void)
{
   yield_wanted = 0;
}

static IRSB* yield_at_requests(IRSB* sb, const VexGuestLayout* layout,
                               const VexGuestExtents* vge)
{
   IRSB*    out;
   IRTemp   flag, wanted;
   IRDirty* clear;
   Int      i;

   if (sb->jumpkind != Ijk_ClientReq)
      return sb;
   out = deepCopyIRSBExceptStmts(sb);
   flag = newIRTemp(out->tyenv, Ity_I32);
   wanted = newIRTemp(out->tyenv, Ity_I1);
   addStmtToIRSB(out, IRStmt_WrTmp(flag,
      IRExpr_Load(Iend_LE, Ity_I32, mkIRExpr_HWord((HWord)&yield_wanted))));
   addStmtToIRSB(out, IRStmt_WrTmp(wanted,
      IRExpr_Binop(Iop_CmpNE32, IRExpr_RdTmp(flag),
                   IRExpr_Const(IRConst_U32(0)))));
   clear = unsafeIRDirty_0_N(0, "yield_given",
                             VG_(fnptr_to_fnentry)(yield_given),
                             mkIRExprVec_0());
   clear->guard = IRExpr_RdTmp(wanted);
   addStmtToIRSB(out, IRStmt_Dirty(clear));
   addStmtToIRSB(out, IRStmt_Exit(IRExpr_RdTmp(wanted), Ijk_Yield,
                                  WS_IRConst_W(vge->base[0]),
                                  layout->offset_IP));
   for (i = 0; i < sb->stmts_used; i++)
      addStmtToIRSB(out, sb->stmts[i]);
   return out;
}

void WS_(clientreq_init)(void)
{
   WS_(add_instrument_pass)(yield_at_requests);
}

/*------------------------------------------------------------*/
/*--- Requests                                             ---*/
/*------------------------------------------------------------*/

static void client_start(ThreadId tid)
{
   switch (WS_(ctl_start)(NULL)) {
   case WS_Ctl_RegionBegun:
      warn_once(tid, Bad_StartWhileOn, "ws: WS_START while measurement is "
                "already on: the window goes on (pages touched before "
                "count in it), a region begins here (to measure only from "
                "WS_START on, run with --ws-instr-atstart=no)\n");
      break;
   case WS_Ctl_AlreadyOn:
      warn_once(tid, Bad_StartInRegion, "ws: WS_START while measurement "
                "is already on and a region is open: ignored\n");
      break;
   default:
      break;
   }
}

static void client_stop(ThreadId tid)
{
   if (WS_(ctl_stop)(NULL) == WS_Ctl_AlreadyOff)
      warn_once(tid, Bad_StopWhileOff, "ws: WS_STOP while measurement is "
                "already off: ignored\n");
}

Bool WS_(handle_client_request)(ThreadId tid, UWord* arg, UWord* ret)
{
   ULong sizes[2];

   if (arg[0] == VG_USERREQ__GDB_MONITOR_COMMAND) {
      Bool handled = WS_(handle_monitor_command)((const HChar*)arg[1]);
      yield_wanted = 1;
      *ret = handled ? 1 : 0;
      return handled;
   }
   if (!VG_IS_TOOL_USERREQ('W', 'S', arg[0]))
      return False;

   switch (arg[0]) {
   case VG_USERREQ__WS_START:
      client_start(tid);
      *ret = 0;
      break;
   case VG_USERREQ__WS_STOP:
      client_stop(tid);
      *ret = 0;
      break;
   case VG_USERREQ__WS_MARK:
      label_request(tid, "WS_MARK", arg[1], WS_(ctl_mark));
      *ret = 0;
      break;
   case VG_USERREQ__WS_DUMP:
      label_request(tid, "WS_DUMP", arg[1], WS_(ctl_dump_label));
      *ret = 0;
      break;
   case VG_USERREQ__WS_CURRENT_DATA_PAGES:
      WS_(current_sizes)(sizes);
      *ret = sizes[WS_Data];
      break;
   case VG_USERREQ__WS_CURRENT_INSN_PAGES:
      WS_(current_sizes)(sizes);
      *ret = sizes[WS_Insn];
      break;
   default:
      /* A request from a newer ws.h than this tool knows. */
      return False;
   }
   /* Even the two that only read the sizes: a program may poll them in
      a loop while another thread waits for the lock. */
   yield_wanted = 1;
   return True;
}

/*--------------------------------------------------------------------*/
/*--- end                                           ws_clientreq.c ---*/
/*--------------------------------------------------------------------*/

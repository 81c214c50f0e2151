/*--------------------------------------------------------------------*/
/*--- ws: rep-prefixed string instructions.              ws_rep.c ---*/
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

/* Owns what a rep-prefixed string instruction (rep movs, rep stos,
   repe cmps, repne scas, ...) is, for --ws-count-rep=once: one
   instruction however often it iterates, as the processor retires it
   (perf's "instructions" counts a 12 MB memset by rep stosb as one).

   VEX runs such an instruction as a loop of superblocks
   (guest_amd64_toIR.c, dis_REP_op): each iteration is one execution of
   the instruction's IR, which ends its superblock and jumps back to
   the instruction's own address while iterations remain (after VEX's
   loop unrolling, a superblock that starts with the instruction holds
   several iterations, each with its IMark), and leaves to the next
   instruction when done.  So the instrumenter (ws_instrument.c):

     - counts the instruction once, at the first iteration of an
       execution: at its IMark when it is not the superblock's first
       instruction (a superblock that reaches it from elsewhere), and
       in a superblock that starts with it only when the thread is not
       in the middle of an execution of it; the clock and the code
       page's access count alike;
     - keeps in the thread's shadow area (WS_SHADOW_REP) the
       instruction's address while an execution goes on: every path
       out of a superblock that jumps back to it stores the address,
       every path that leaves stores 0; and the boundary check at the
       entry of a superblock that starts with it waits while it is
       set, so that no sample and no epoch falls between two
       iterations of one execution.

   Everything else (each iteration's data checks, the code page's
   stamp check) is as for any instruction, so the accesses of all the
   iterations are the instruction's, made at one time.  A signal whose
   handler runs between two iterations and executes the same
   instruction would be taken for the rest of the execution
   (docs/manual.md, Limits).  With --ws-count-rep=each nothing of this
   is emitted: every iteration is an instruction, as lackey and
   cachegrind count them. */

#include "pub_tool_basics.h"

#include "ws_core.h"

Bool WS_(is_rep_string)(Addr a, UInt len)
{
   const UChar* p = (const UChar*)a;
   Bool rep = False;
   UInt i;
   for (i = 0; i < len; i++) {
      UChar b = p[i];
      if (b == 0xF2 || b == 0xF3)
         rep = True;
      else if (b == 0x66 || b == 0x67 || b == 0xF0 || b == 0x2E
               || b == 0x36 || b == 0x3E || b == 0x26 || b == 0x64
               || b == 0x65 || (VG_WORDSIZE == 8 && (b & 0xF0) == 0x40))
         continue;          /* other prefixes and amd64's REX (on x86,
                               0x40-0x4F are inc and dec) */
      else                  /* movs, cmps, stos, lods, scas */
         return rep && b >= 0xA4 && b <= 0xAF && b != 0xA8 && b != 0xA9;
   }
   return False;
}

/*--------------------------------------------------------------------*/
/*--- end                                                 ws_rep.c ---*/
/*--------------------------------------------------------------------*/

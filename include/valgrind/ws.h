/*
   ----------------------------------------------------------------

   The BSD-style licence below covers this one file (ws.h) only, so
   that programs of any licence may include it.  The ws tool itself
   is licensed under the GNU General Public License, version 2 or
   (at your option) any later version; see COPYING.

   ----------------------------------------------------------------

   This file is part of ws, a Valgrind tool that measures how the
   working set of a program (the pages it fetches instructions from
   and the pages it reads or writes) changes over time.

   Copyright (C) 2026 the ws authors.  All rights reserved.

   SPDX-License-Identifier: BSD-3-Clause

   Redistribution and use in source and binary forms, with or without
   modification, are permitted provided that the following conditions
   are met:

   1. Redistributions of source code must retain the above copyright
      notice, this list of conditions and the following disclaimer.

   2. Redistributions in binary form must reproduce the above copyright
      notice, this list of conditions and the following disclaimer in
      the documentation and/or other materials provided with the
      distribution.

   3. Neither the name of the copyright holder nor the names of its
      contributors may be used to endorse or promote products derived
      from this software without specific prior written permission.

   THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS
   "AS IS" AND ANY EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT
   LIMITED TO, THE IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS
   FOR A PARTICULAR PURPOSE ARE DISCLAIMED.  IN NO EVENT SHALL THE
   COPYRIGHT HOLDER OR CONTRIBUTORS BE LIABLE FOR ANY DIRECT, INDIRECT,
   INCIDENTAL, SPECIAL, EXEMPLARY, OR CONSEQUENTIAL DAMAGES (INCLUDING,
   BUT NOT LIMITED TO, PROCUREMENT OF SUBSTITUTE GOODS OR SERVICES;
   LOSS OF USE, DATA, OR PROFITS; OR BUSINESS INTERRUPTION) HOWEVER
   CAUSED AND ON ANY THEORY OF LIABILITY, WHETHER IN CONTRACT, STRICT
   LIABILITY, OR TORT (INCLUDING NEGLIGENCE OR OTHERWISE) ARISING IN
   ANY WAY OUT OF THE USE OF THIS SOFTWARE, EVEN IF ADVISED OF THE
   POSSIBILITY OF SUCH DAMAGE.

   ----------------------------------------------------------------
*/

/* Client requests for the ws tool.  Use them as

      #include <valgrind/ws.h>

   When the program does not run under Valgrind with --tool=ws, every
   macro below does nothing and costs only a few instructions; the
   two expression macros then give 0. */

#ifndef __WS_H
#define __WS_H

#include "valgrind.h"

/* !! ABI WARNING !!
   These request codes are an ABI between ws and the programs built
   against this header.  Never reorder or delete an entry: add new ones
   at the end.  ('W','S') is used by no other Valgrind tool. */
typedef
   enum {
      VG_USERREQ__WS_START = VG_USERREQ_TOOL_BASE('W','S'),
      VG_USERREQ__WS_STOP,
      VG_USERREQ__WS_MARK,
      VG_USERREQ__WS_DUMP,
      VG_USERREQ__WS_CURRENT_DATA_PAGES,
      VG_USERREQ__WS_CURRENT_INSN_PAGES
   } Vg_WSClientRequest;

/* Switch measurement on.  A fresh window begins: pages touched before
   this point are not counted in the working sets that follow. */
#define WS_START                                                  \
   VALGRIND_DO_CLIENT_REQUEST_STMT(VG_USERREQ__WS_START,          \
                                   0, 0, 0, 0, 0)

/* Switch measurement off: from here on no accesses are recorded, no
   samples are taken and the ws clock stands still. */
#define WS_STOP                                                   \
   VALGRIND_DO_CLIENT_REQUEST_STMT(VG_USERREQ__WS_STOP,           \
                                   0, 0, 0, 0, 0)

/* Record an event named by the string _qzz_label at the current time.
   The label is kept in the output file; a WS_START ... WS_STOP region
   whose latest mark names it gets its own summary. */
#define WS_MARK(_qzz_label)                                       \
   VALGRIND_DO_CLIENT_REQUEST_STMT(VG_USERREQ__WS_MARK,           \
                                   (_qzz_label), 0, 0, 0, 0)

/* Write the current working set to the output file now, tagged with
   the string _qzz_label (as the monitor command "ws dump" does). */
#define WS_DUMP(_qzz_label)                                       \
   VALGRIND_DO_CLIENT_REQUEST_STMT(VG_USERREQ__WS_DUMP,           \
                                   (_qzz_label), 0, 0, 0, 0)

/* An expression: the number of pages in the current data working set
   (0 when not running under ws). */
#define WS_CURRENT_DATA_PAGES                                     \
   ((unsigned long)VALGRIND_DO_CLIENT_REQUEST_EXPR(               \
      0, VG_USERREQ__WS_CURRENT_DATA_PAGES, 0, 0, 0, 0, 0))

/* An expression: the number of pages in the current instruction
   working set (0 when not running under ws). */
#define WS_CURRENT_INSN_PAGES                                     \
   ((unsigned long)VALGRIND_DO_CLIENT_REQUEST_EXPR(               \
      0, VG_USERREQ__WS_CURRENT_INSN_PAGES, 0, 0, 0, 0, 0))

#endif /* __WS_H */

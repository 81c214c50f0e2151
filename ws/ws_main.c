/*--------------------------------------------------------------------*/
/*--- ws: a working-set measurement tool.                ws_main.c ---*/
/*--------------------------------------------------------------------*/

/*
   This file is part of ws, a Valgrind tool that measures a program's
   instruction and data working sets over time.

   Copyright (C) 2026 the ws authors.

   This program is free software; you can redistribute it and/or
   modify it under the terms of the GNU General Public License as
   published by the Free Software Foundation; either version 2 of the
   License, or (at your option) any later version.

   This program is distributed in the hope that it will be useful, but
   WITHOUT ANY WARRANTY; without even the implied warranty of
   MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
   General Public License for more details.

   The GNU General Public License is contained in the file COPYING.
*/

/* ws measures the working set of a program over time: the pages (or
   cache lines) from which it fetched instructions, and those it loaded
   from or stored to, in the last tau time units, sampled every T time
   units.  See docs/ for the definitions and the output format.

   This file only wires the modules into the core: registration,
   start-up in the right order, and exit.  ws_global.h lists the
   modules and what each owns. */

#include "pub_tool_basics.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_options.h"
#include "pub_tool_tooliface.h"

#include "ws_global.h"
#include "ws_heap.h"

/* ws's instrumentation, then the heap hooks, which ws must not count
   (ws_heap.c says why they come after it). */
static IRSB* ws_instrument_and_hook(VgCallbackClosure* closure, IRSB* sbIn,
                                    const VexGuestLayout* layout,
                                    const VexGuestExtents* vge,
                                    const VexArchInfo* archinfo_host,
                                    IRType gWordTy, IRType hWordTy)
{
   IRSB* sb = WS_(instrument)(closure, sbIn, layout, vge, archinfo_host,
                              gWordTy, hWordTy);
   return WS_(heap_instrument)(sb, layout, vge);
}

/* The core's --read-inline-info.  Only the core may include the header
   that declares it; see ws_pre_clo_init for why ws sets it. */
extern Bool VG_(clo_read_inline_info);

static void ws_after_fork_child(ThreadId tid)
{
   WS_(sampler_after_fork)();
   WS_(regions_after_fork)();
   WS_(threads_after_fork)(tid);
   WS_(peaks_after_fork)();
   WS_(heapuse_after_fork)();
   WS_(out_after_fork)(tid);
}

/* Per-thread mode may begin an epoch as another thread starts, before
   the clock and the stamp pass to the thread. */
static void ws_start_client_code(ThreadId tid, ULong blocks_dispatched)
{
   WS_(thread_running)(tid);
   WS_(heapuse_thread_running)(tid);
   WS_(clock_to_thread)(tid);
}

static void ws_stop_client_code(ThreadId tid, ULong blocks_dispatched)
{
   WS_(clock_from_thread)(tid);
}

static void ws_post_clo_init(void)
{
   WS_(post_clo_check)();
   WS_(measuring) = WS_(clo_instr_atstart);
   /* Both exit with status 1 if they cannot create their files; the
      miss file first, so that refusing it leaves no output file. */
   WS_(misses_init)();
   WS_(out_open)();
   WS_(sampler_init)();
   WS_(threads_init)();
   WS_(syscalls_init)();
   WS_(heap_init)();
   WS_(heapuse_init)();
   WS_(out_header)();
   VG_(atfork)(NULL, NULL, ws_after_fork_child);
}

static void ws_fini(Int exitcode)
{
   WS_(region_close)();
   WS_(out_trailer)();
   WS_(out_stderr_summary)();
   WS_(misses_write)();
   if (VG_(clo_stats)) {
      WS_(print_counters)();
      WS_(heap_print_stats)();
      WS_(heapuse_print_stats)();
   }
}

static void ws_pre_clo_init(void)
{
   VG_(details_name)            ("ws");
   VG_(details_version)         (WS_VERSION);
   VG_(details_description)     ("a working-set profiler");
   VG_(details_copyright_author)("Copyright (C) 2026, the ws authors.");
   VG_(details_bug_reports_to)  ("the ws issue tracker");
   /* Measured: 486 bytes on python3, 420 on sqlite3 (--stats=yes,
      "avg tce size").  The core sizes each sector's code area from
      it; too small a figure fills sectors early, and a program with
      more code than the sectors hold then has its translations thrown
      away and made again sooner. */
   VG_(details_avg_translation_sizeB)(480);

   /* The stacks of peaks (and the locations of hot pages) name the
      functions the compiler inlined, which needs --read-inline-info;
      the core makes it the default only for memcheck, helgrind, drd,
      massif and dhat, by tool name.  This runs before the core parses
      the command line (coregrind/m_main.c: tl_pre_clo_init, then
      main_process_cmd_line_options), so --read-inline-info=no still
      wins, as it does for those tools. */
   VG_(clo_read_inline_info) = True;

   VG_(basic_tool_funcs)        (ws_post_clo_init,
                                 ws_instrument_and_hook,
                                 ws_fini);
   VG_(needs_command_line_options)(WS_(process_cmd_line_option),
                                   WS_(print_usage),
                                   WS_(print_debug_usage));
   VG_(needs_print_stats)         (WS_(print_counters));
   VG_(needs_syscall_wrapper)     (WS_(pre_syscall), WS_(post_syscall));
   VG_(needs_client_requests)     (WS_(handle_client_request));

   VG_(track_pre_thread_ll_create)(WS_(thread_created));
   VG_(track_pre_thread_ll_exit)  (WS_(thread_exited));
   VG_(track_start_client_code)   (ws_start_client_code);
   VG_(track_stop_client_code)    (ws_stop_client_code);
}

VG_DETERMINE_INTERFACE_VERSION(ws_pre_clo_init)

/*--------------------------------------------------------------------*/
/*--- end                                                 ws_main.c ---*/
/*--------------------------------------------------------------------*/

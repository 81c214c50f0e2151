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

   The GNU General Public License is contained in the file COPYING.
*/

/* ws measures the working set of a program over time: the pages (or
   cache lines) from which it fetched instructions, and those it loaded
   from or stored to, in the last tau time units, sampled every T time
   units.  See docs/ for the definitions and the output format.

   This file only wires the layers together and into Valgrind's core:
   registration, start-up in the right order (the order in which the
   layers above the core register for its events), the end of a program
   by exit or by exec, and a fork.  Each layer's header lists its files
   and what each owns: core/ws_core.h (what measures), output/ws_output.h
   (files), analyses/ws_analyses.h (what reads the core),
   control/ws_control.h (options and the doors). */

#include "pub_tool_basics.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"
#include "pub_tool_xarray.h"

#include "ws_control.h"

/*------------------------------------------------------------*/
/*--- The end of a program                                 ---*/
/*------------------------------------------------------------*/

/* Measurement ends (at exit, or |exec_path| replaces the program): a
   final sample, every file finished, the summary. */
static void finish(const HChar* exec_path)
{
   WS_(measure_end)();
   /* The trailer, in the grammar's order: regions, hot pages, heap
      sites, routines, miss stacks, curves, peaks, summaries.  The hot
      pages' owners are looked up first, so that the stack blocks they
      name come before it. */
   WS_(out_trailer_begin)(exec_path);
   WS_(hot_prepare)();
   WS_(regions_trailer)();
   WS_(hot_trailer)();
   WS_(heapsites_trailer)();
   WS_(routines_trailer)();
   WS_(misses_trailer)();
   WS_(curves_trailer)();
   WS_(peaks_trailer)();
   WS_(out_trailer_end)();
   if (exec_path != NULL)
      VG_(umsg)("The program execs %s: ws's files of this program end "
                "here.\n", exec_path);
   WS_(out_summary_sizes)();
   WS_(peaks_summary)();
   WS_(regions_summary)();
   WS_(out_summary_file)();
   WS_(out_view_hint)(WS_(misses_write)(exec_path));
}

static void print_stats(void)
{
   WS_(print_counters)();
   WS_(peaks_print_stats)();
}

static void ws_fini(Int exitcode)
{
   finish(NULL);
   if (VG_(clo_stats)) {
      print_stats();
      WS_(heap_print_stats)();
      WS_(heapuse_print_stats)();
      WS_(routines_print_stats)();
   }
}

/*------------------------------------------------------------*/
/*--- Exec: the end of one program, the start of another   ---*/
/*------------------------------------------------------------*/

/* When the program execs, Valgrind goes away without calling ws_fini
   (or, with --trace-children=yes, starts again on the new program in
   the same process): ws finishes its files first, as at exit, and says
   in them that the program exec'd.  The Valgrind that runs the next
   program learns from a hidden option, added to the options the core
   passes on (VG_(args_for_valgrind)), which program of the process it
   is (its files are "<name>.exec<k>", so that they do not overwrite
   this one's) and whether this process has files of its own (a forked
   child with a fixed name has none, and its programs write none
   either). */

static Bool finished_for_exec = False;

static void pass_image_on(void)
{
   XArray* args = VG_(args_for_valgrind);
   HChar*  opt = VG_(malloc)("ws.main.image", 48);
   Word    i;
   VG_(sprintf)(opt, "--ws-image=%u,%d,%d", WS_(image) + 1,
                WS_(out_name)() != NULL, WS_(misses_name)() != NULL);
   for (i = 0; i < VG_(sizeXA)(args); i++) {
      HChar** a = VG_(indexXA)(args, i);
      if (VG_(strncmp)(*a, "--ws-image=", 11) == 0) {
         *a = opt;
         return;
      }
   }
   VG_(addToXA)(args, &opt);
}

/* Whether the core will exec |path| (a path that the kernel resolves
   as the program's own): the core checks the file before it commits
   to the exec and fails the call without exec'ing if it is missing, no
   executable file, or neither ELF nor a script, as it is for every
   directory but one of a PATH search (execvp).  The same checks here,
   so that ws finishes its files only for an exec that happens; one
   that fails all the same goes on in files of its own (below). */
static Bool will_exec(const HChar* path)
{
   struct vg_stat st;
   UInt   x;
   Int    fd;
   UChar  magic[4];
   if (sr_isError(VG_(stat)(path, &st)) || !VKI_S_ISREG(st.mode))
      return False;
   x = VG_(geteuid)() == 0 ? (VKI_S_IXUSR | VKI_S_IXGRP | VKI_S_IXOTH)
     : (Int)st.uid == VG_(geteuid)() ? VKI_S_IXUSR
     : (Int)st.gid == VG_(getegid)() ? VKI_S_IXGRP
     : VKI_S_IXOTH | VKI_S_IXGRP;     /* a supplementary group may match */
   if ((st.mode & x) == 0)
      return False;
   fd = VG_(fd_open)(path, VKI_O_RDONLY, 0);
   if (fd < 0)
      return False;
   x = VG_(read)(fd, magic, sizeof magic);
   VG_(close)(fd);
   return (x == 4 && magic[0] == 0x7f && magic[1] == 'E' && magic[2] == 'L'
           && magic[3] == 'F') || (x >= 2 && magic[0] == '#'
                                   && magic[1] == '!');
}

/* The path execve(2) (or execveat(2) relative to |dirfd|) would run. */
static Bool exec_path(Int dirfd, Addr name, HChar* path, SizeT size)
{
   Bool  whole;
   HChar rel[VKI_PATH_MAX + 1];
   SizeT n = WS_(client_string)(name, rel, sizeof rel, &whole);
   if (!whole)
      return False;
   if (n == 0)                             /* fexecve: AT_EMPTY_PATH */
      VG_(snprintf)(path, size, "/proc/self/fd/%d", dirfd);
   else if (rel[0] == '/' || dirfd == VKI_AT_FDCWD)
      VG_(snprintf)(path, size, "%s", rel);
   else
      VG_(snprintf)(path, size, "/proc/self/fd/%d/%s", dirfd, rel);
   return True;
}

/* The core is about to exec |path|: ws finishes as at exit. */
static void image_end(const HChar* path)
{
   finish(path);
   pass_image_on();
   finished_for_exec = True;
}

/* The exec failed after all: the program goes on, with files of its
   own as the next program would have had (those of the first part are
   complete). */
static void image_exec_failed(void)
{
   if (!finished_for_exec)
      return;
   finished_for_exec = False;
   WS_(image)++;
   VG_(umsg)("ws: the exec failed; ws goes on measuring in files named "
             "for the next program (.exec%u)\n", WS_(image));
   WS_(sampler_after_fork)();
   WS_(regions_after_fork)();
   WS_(peaks_after_fork)();
   if (WS_(measuring))
      WS_(region_open)();
   WS_(out_stacks_forget)();
   WS_(out_new_image)();
   WS_(misses_new_image)();
}

/* A system call may block for ever, or be the program's last: what is
   measured so far reaches the file first.  An exec ends the program:
   ws finishes its files. */
static void ws_pre_syscall(ThreadId tid, UInt syscallno, UWord* args,
                           UInt nArgs)
{
   HChar path[VKI_PATH_MAX + 32];
   WS_(out_flush)();
   if ((syscallno == __NR_execve
        && exec_path(VKI_AT_FDCWD, args[0], path, sizeof path))
       || (syscallno == __NR_execveat
           && exec_path((Int)args[0], args[1], path, sizeof path))) {
      if (will_exec(path))
         image_end(path);
   }
}

static void ws_post_syscall(ThreadId tid, UInt syscallno, UWord* args,
                            UInt nArgs, SysRes res)
{
   WS_(stacks_forget_mappings)();
   /* Only an exec that failed returns. */
   if (syscallno == __NR_execve || syscallno == __NR_execveat)
      image_exec_failed();
}

/*------------------------------------------------------------*/
/*--- Start-up, threads, forks                             ---*/
/*------------------------------------------------------------*/

static void ws_after_fork_child(ThreadId tid)
{
   WS_(image) = 0;           /* the child's first program: file names */
   WS_(sampler_after_fork)();
   WS_(regions_after_fork)();
   WS_(threads_after_fork)(tid);
   WS_(peaks_after_fork)();
   WS_(heapuse_after_fork)();
   WS_(routines_after_fork)(tid);
   WS_(curves_after_fork)();
   WS_(out_stacks_forget)();
   WS_(out_after_fork)(tid);
   WS_(misses_after_fork)();
}

static void ws_start_client_code(ThreadId tid, ULong blocks_dispatched)
{
   WS_(thread_running)(tid);
}

static void ws_stop_client_code(ThreadId tid, ULong blocks_dispatched)
{
   WS_(clock_from_thread)(tid);
}

static void ws_post_clo_init(void)
{
   HChar* out_name;
   WS_(post_clo_check)();
   WS_(measuring) = WS_(clo).instr_atstart;
   /* Both exit with status 1 if they cannot create their files; the
      miss file first, so that refusing it leaves no output file. */
   out_name = WS_(out_expected_name)();
   if (WS_(clo).image_miss)
      WS_(misses_init)(out_name);
   else if (WS_(clo).miss_file)
      VG_(umsg)("ws: this process writes no miss profile (--ws-miss-file=%s "
                "names its parent's; use %%p)\n", WS_(clo).miss_file);
   if (WS_(clo).image_out) {
      if (!WS_(out_open)(out_name)) {
         WS_(misses_abandon)();
         VG_(exit)(1);
      }
   } else {
      VG_(umsg)("ws: this process writes no output file (%s=%s names its "
                "parent's; use %%p)\n", WS_(clo).file_option,
                WS_(clo).file);
      VG_(free)(out_name);
   }
   WS_(sampler_init)();
   WS_(threads_init)();
   WS_(syscalls_init)();
   /* The layers above register for the core's events here, and hear
      each in this order: the output file's lines first; the peaks hear
      of a sample before the heap forgets the blocks freed since the
      one before (their breakdowns look them up), and of a stop before
      the regions close theirs; the breaks hear of a sample after the
      peaks have judged it. */
   WS_(output_init)();
   WS_(stacks_init)();
   WS_(peaks_init)();
   WS_(regions_init)();
   WS_(owners_init)();
   WS_(heap_init)();
   WS_(heapuse_init)();
   WS_(routines_init)();
   WS_(curves_init)();
   WS_(breaks_init)();
   WS_(clientreq_init)();
   WS_(out_header)();
   VG_(atfork)(NULL, NULL, ws_after_fork_child);
}

/* The stacks of peaks (and the locations of hot pages) name the
   functions the compiler inlined, which needs --read-inline-info; the
   core makes it the default only for memcheck, helgrind, drd, massif and
   dhat, by tool name, and only its own header declares the option's
   variable.  So ws puts "--read-inline-info=yes" in front of the options
   the core is about to read: this runs before the core parses them
   (coregrind/m_main.c: tl_pre_clo_init, then
   main_process_cmd_line_options), so a --read-inline-info=no given
   anywhere (~/.valgrindrc, $VALGRIND_OPTS, the command line) comes later
   and still wins, as it does for those tools.  It counts as one of the
   leading options the core does not pass on to an exec'd Valgrind
   (VG_(args_for_valgrind_noexecpass)), which makes its own. */
static void read_inline_info_by_default(void)
{
   static HChar yes[] = "--read-inline-info=yes";
   HChar* arg = yes;
   VG_(insertIndexXA)(VG_(args_for_valgrind), 0, &arg);
   VG_(args_for_valgrind_noexecpass)++;
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

   read_inline_info_by_default();

   /* VEX follows calls and jumps into their targets by default
      (--vex-guest-chase=yes), and then also recovers an "A && B"
      condition spread over two blocks by appending the second block
      with its statements guarded but its IMarks not: ws would count
      that block's instructions, and its code page, also when they do
      not run.  Chasing also translates a function's first blocks again
      into every superblock that calls it: python3's start-up
      translates 225,000 guest instructions with it and 159,000
      without, and a translation costs ws 1.7 times what it costs none.
      So ws does not chase, as callgrind does not; set here, before the
      command line, so that --vex-guest-chase=yes still wins. */
   VG_(clo_vex_control).guest_chase = False;

   VG_(basic_tool_funcs)        (ws_post_clo_init,
                                 WS_(instrument),
                                 ws_fini);
   VG_(needs_command_line_options)(WS_(process_cmd_line_option),
                                   WS_(print_usage),
                                   WS_(print_debug_usage));
   VG_(needs_print_stats)         (print_stats);
   VG_(needs_syscall_wrapper)     (ws_pre_syscall, ws_post_syscall);
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

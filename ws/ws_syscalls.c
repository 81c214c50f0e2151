/*--------------------------------------------------------------------*/
/*--- ws: memory touched by the kernel; unmapped ranges.           ---*/
/*---                                                 ws_syscalls.c ---*/
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

/* Owns ws's view of what the core does around system calls: memory a
   system call reads or writes on the program's behalf (the buffer of
   read(), the struct of stat()) counts as data accessed, unless
   --ws-syscalls=no; the output reaches its file before each system
   call; and memory that is unmapped (munmap, brk shrink)
   marks its pages so that a later touch counts as a new page.

   Reads are counted as the kernel is about to do them; writes only
   after the call, with the size the kernel actually wrote (a read()
   of 1 MiB that returns 10 bytes touches one page, not 256). */

#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_machine.h"
#include "pub_tool_vki.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_tooliface.h"

#include "ws_global.h"

static Bool is_syscall(CorePart part)
{
   return part == Vg_CoreSysCall || part == Vg_CoreSysCallArgInMem;
}

/* The kernel accesses [a, a+size) for the program. */
static void syscall_access(ThreadId tid, Addr a, SizeT size,
                           WS_AccessKind kind)
{
   WS_(touch_range)(WS_Data, a, size, VG_(get_IP)(tid));
   if (WS_(heap_usage) && WS_(measuring))
      WS_(heapuse_kernel_access)(a, size, kind, tid);
}

static void syscall_reads(CorePart part, ThreadId tid, const HChar* what,
                          Addr a, SizeT size)
{
   if (is_syscall(part))
      syscall_access(tid, a, size, WS_Read);
}

/* The length of the string at |a| including its NUL, reading only
   client memory that is mapped readable: the kernel will refuse a bad
   pointer, and ws must not fault on it first. */
static SizeT safe_string_size(Addr a)
{
   Addr p = a;
   for (;;) {
      Addr page_end = (p | (VKI_PAGE_SIZE - 1)) + 1;
      if (!VG_(am_is_valid_for_client)(p, page_end - p, VKI_PROT_READ))
         return p - a;
      for (; p < page_end; p++)
         if (*(const HChar*)p == '\0')
            return p - a + 1;
   }
}

static void syscall_reads_string(CorePart part, ThreadId tid,
                                 const HChar* what, Addr a)
{
   if (is_syscall(part))
      syscall_access(tid, a, safe_string_size(a), WS_Read);
}

static void syscall_wrote(CorePart part, ThreadId tid, Addr a, SizeT size)
{
   if (is_syscall(part))
      syscall_access(tid, a, size, WS_Write);
}

/* A system call may block for ever, or be the program's last: what is
   measured so far reaches the file first. */
void WS_(pre_syscall)(ThreadId tid, UInt syscallno, UWord* args,
                      UInt nArgs)
{
   WS_(out_flush)();
}

void WS_(post_syscall)(ThreadId tid, UInt syscallno, UWord* args,
                       UInt nArgs, SysRes res)
{
}

void WS_(syscalls_init)(void)
{
   if (WS_(clo_syscalls)) {
      VG_(track_pre_mem_read)       (syscall_reads);
      VG_(track_pre_mem_read_asciiz)(syscall_reads_string);
      VG_(track_post_mem_write)     (syscall_wrote);
   }
   VG_(track_die_mem_munmap)(WS_(unmapped));
   VG_(track_die_mem_brk)   (WS_(unmapped));
}

/*--------------------------------------------------------------------*/
/*--- end                                             ws_syscalls.c ---*/
/*--------------------------------------------------------------------*/

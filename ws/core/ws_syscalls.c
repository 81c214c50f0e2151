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
   call; an exec that will happen ends the program's files first; and
   memory that is unmapped (munmap, brk shrink) marks its pages so that
   a later touch counts as a new page.

   Reads are counted as the kernel is about to do them; writes only
   after the call, with the size the kernel actually wrote (a read()
   of 1 MiB that returns 10 bytes touches one page, not 256). */

#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_machine.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"

#include "ws_core.h"
#include "ws_control.h"   /* until the core has its events */

static Bool is_syscall(CorePart part)
{
   return part == Vg_CoreSysCall || part == Vg_CoreSysCallArgInMem;
}

/* How many bytes from |a| on, at most |size|, lie in client memory
   mapped readable: what the kernel can have read.  A system call given
   a length far beyond its buffer (write(fd, buf, 1 << 40)) reads up to
   the first unmapped byte and fails there; ws counts that much, at the
   cost of one lookup per mapping rather than one per page claimed. */
static SizeT mapped_prefix(Addr a, SizeT size)
{
   Addr p = a, end = a + size;
   if (end < a)
      end = ~(Addr)0;
   while (p < end) {
      NSegment const* seg = VG_(am_find_nsegment)(p);
      if (seg == NULL
          || !(seg->kind == SkShmC
               || ((seg->kind == SkAnonC || seg->kind == SkFileC)
                   && seg->hasR)))
         break;
      if (seg->end >= end - 1)
         return end - a;
      p = seg->end + 1;
   }
   return p - a;
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
      syscall_access(tid, a, mapped_prefix(a, size), WS_Read);
}

/* The kernel reads at most this much of a string argument (an argument
   of execve, MAX_ARG_STRLEN; a path is shorter). */
#define WS_SYSCALL_STRING_MAX (128 * 1024)

/* The length of the string at |a| including its NUL, or up to the
   first byte that cannot be read: the kernel will refuse a bad
   pointer, and ws must not fault on it first. */
static SizeT safe_string_size(Addr a)
{
   Bool  whole;
   SizeT n = WS_(client_string)(a, NULL, WS_SYSCALL_STRING_MAX + 1, &whole);
   return whole ? n + 1 : n;
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

/*------------------------------------------------------------*/
/*--- Exec                                                 ---*/
/*------------------------------------------------------------*/

/* Whether the core will exec |path| (a path that the kernel resolves
   as the program's own): the core checks the file before it commits
   to the exec and fails the call without exec'ing if it is missing, no
   executable file, or neither ELF nor a script, as it is for every
   directory but one of a PATH search (execvp).  The same checks here,
   so that ws finishes its files only for an exec that happens; one
   that fails all the same goes on in files of its own (ws_main.c). */
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

/* A system call may block for ever, or be the program's last: what is
   measured so far reaches the file first.  An exec ends the program:
   ws finishes its files. */
void WS_(pre_syscall)(ThreadId tid, UInt syscallno, UWord* args,
                      UInt nArgs)
{
   HChar path[VKI_PATH_MAX + 32];
   WS_(out_flush)();
   if ((syscallno == __NR_execve
        && exec_path(VKI_AT_FDCWD, args[0], path, sizeof path))
       || (syscallno == __NR_execveat
           && exec_path((Int)args[0], args[1], path, sizeof path))) {
      if (will_exec(path))
         WS_(image_end)(path);
   }
}

void WS_(post_syscall)(ThreadId tid, UInt syscallno, UWord* args,
                       UInt nArgs, SysRes res)
{
   WS_(stacks_forget_mappings)();
   /* Only an exec that failed returns. */
   if (syscallno == __NR_execve || syscallno == __NR_execveat)
      WS_(image_exec_failed)();
}

/* Valgrind reports a brk shrink as the bytes [new break, old break),
   neither rounded (syswrap-generic.c, sys_brk), while munmap comes
   already in whole kernel pages.  The kernel keeps the page the new
   break falls in and gives back up to the end of the old break's page:
   [round_up(new), round_up(old)). */
static void brk_shrunk(Addr a, SizeT len)
{
   Addr start = VG_PGROUNDUP(a);
   Addr end   = VG_PGROUNDUP(a + len);
   if (end > start)
      WS_(unmapped)(start, end - start);
}

void WS_(syscalls_init)(void)
{
   if (WS_(clo_syscalls)) {
      VG_(track_pre_mem_read)       (syscall_reads);
      VG_(track_pre_mem_read_asciiz)(syscall_reads_string);
      VG_(track_post_mem_write)     (syscall_wrote);
   }
   VG_(track_die_mem_munmap)(WS_(unmapped));
   VG_(track_die_mem_brk)   (brk_shrunk);
}

/*--------------------------------------------------------------------*/
/*--- end                                             ws_syscalls.c ---*/
/*--------------------------------------------------------------------*/

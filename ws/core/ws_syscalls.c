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

/* Owns the core's view of what the kernel does for the program: memory
   a system call reads or writes on the program's behalf (the buffer of
   read(), the struct of stat()) counts as data accessed, unless
   --ws-syscalls=no, and memory that is unmapped (munmap, brk shrink)
   marks its pages so that a later touch counts as a new page.  And how
   ws reads a string of the client's (a path the kernel reads, a label)
   without faulting on it.

   Reads are counted as the kernel is about to do them; writes only
   after the call, with the size the kernel actually wrote (a read()
   of 1 MiB that returns 10 bytes touches one page, not 256). */

#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_libcsetjmp.h"
#include "pub_tool_libcsignal.h"
#include "pub_tool_signals.h"
#include "pub_tool_machine.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"

#include "ws_core.h"

/* Reading the client's memory can fault although the address space
   manager says it is readable: the page past the end of a file mapping
   (SIGBUS), a mapping the program changed behind Valgrind's back.  A
   fault while ws reads comes back here (as memcheck's leak search
   does) and ends the string where it happened, as the kernel would
   answer EFAULT. */
static VG_MINIMAL_JMP_BUF(read_fault);

static void read_fault_catcher(Int sig, Addr addr)
{
   vki_sigset_t mask;
   /* The handler runs with the signal blocked: unblock it before
      jumping out, or the next fault would kill the process. */
   VG_(sigprocmask)(VKI_SIG_SETMASK, NULL, &mask);
   VG_(sigdelset)(&mask, sig);
   VG_(sigprocmask)(VKI_SIG_SETMASK, &mask, NULL);
   if (sig == VKI_SIGSEGV || sig == VKI_SIGBUS)
      VG_MINIMAL_LONGJMP(read_fault);
}

SizeT WS_(client_string)(Addr a, HChar* buf, SizeT size, Bool* whole)
{
   volatile SizeT n = 0;
   volatile Bool  done = False;
   fault_catcher_t previous = VG_(set_fault_catcher)(read_fault_catcher);
   if (VG_MINIMAL_SETJMP(read_fault) == 0) {
      while (a != 0 && n + 1 < size) {
         Addr  p = a + n;
         HChar c;
         if (p < a)                                /* wrapped around */
            break;
         if ((n == 0 || (p & (VKI_PAGE_SIZE - 1)) == 0)
             && !VG_(am_is_valid_for_client)(p, 1, VKI_PROT_READ))
            break;
         c = *(volatile const HChar*)p;
         if (c == '\0') {
            done = True;
            break;
         }
         if (buf)
            buf[n] = c;
         n++;
      }
   }
   VG_(set_fault_catcher)(previous);
   if (buf && size > 0)
      buf[n] = '\0';
   *whole = done;
   return n;
}

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

static void (*kernel_listener)(Addr a, SizeT size, WS_AccessKind kind,
                                ThreadId tid) = NULL;

void WS_(hear_kernel)(void (*fn)(Addr a, SizeT size, WS_AccessKind kind,
                                 ThreadId tid))
{
   tl_assert(kernel_listener == NULL);
   kernel_listener = fn;
}

/* The kernel accesses [a, a+size) for the program. */
static void syscall_access(ThreadId tid, Addr a, SizeT size,
                           WS_AccessKind kind)
{
   if (kernel_listener)
      kernel_listener(a, size, kind, tid);
   if (!WS_(clo).syscalls)
      return;
   WS_(touch_range)(WS_Data, a, size, VG_(get_IP)(tid));
   if (WS_(measuring))
      WS_(touch_line_range)(WS_Data, a, size);
   WS_(watch_kernel)(a, size, kind, tid);
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

static void mark_dead(Stamp* slot, Addr page, void* opaque)
{
   if (*slot != WS_STAMP_NEVER)
      *slot |= WS_STAMP_DEAD;
}

/* A code page's slot (ws_codeslots.c) follows its page-table stamp. */
static void mark_code_dead(Stamp* slot, Addr page, void* opaque)
{
   mark_dead(slot, page, opaque);
   if (*slot != WS_STAMP_NEVER)
      WS_(code_slot_stamp)(page, *slot);
}

/* Marks pages [a, a+len) as unmapped, so that a later touch counts
   them as new pages. */
static void unmapped(Addr a, SizeT len)
{
   /* Only pages wholly inside the range are gone: with pages larger
      than the kernel's, the rest of a partly unmapped page lives on. */
   Addr first = (a + (1UL << WS_(page_shift)()) - 1) >> WS_(page_shift)();
   Addr end   = (a + len) >> WS_(page_shift)();
   Int  kind;
   if (len == 0 || end <= first)
      return;
   /* The next touch of these pages must reach touch_page; the lines
   flagged so far are theirs while they lived (the flush settles
   them). */
   WS_(dtlb_flush)();
   for (kind = 0; kind < 2; kind++) {
      WS_(pt_for_range)(&WS_(tables)[kind], first, end - 1,
                        kind == WS_Insn ? mark_code_dead : mark_dead, NULL);
      if (WS_(lines_apart)()) {
         WS_(lines_unmapping)(kind, first, end - 1);
         WS_(pt_for_range)(&WS_(line_tables)[kind],
                           first << WS_(lpp_shift)(),
                           (end << WS_(lpp_shift)()) - 1, mark_dead, NULL);
      }
   }
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
      unmapped(start, end - start);
}

void WS_(syscalls_init)(void)
{
   if (WS_(clo).syscalls || WS_(clo).routines) {
      VG_(track_pre_mem_read)       (syscall_reads);
      VG_(track_pre_mem_read_asciiz)(syscall_reads_string);
      VG_(track_post_mem_write)     (syscall_wrote);
   }
   VG_(track_die_mem_munmap)(unmapped);
   VG_(track_die_mem_brk)   (brk_shrunk);
}

/*--------------------------------------------------------------------*/
/*--- end                                             ws_syscalls.c ---*/
/*--------------------------------------------------------------------*/

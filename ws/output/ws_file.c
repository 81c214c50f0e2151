/*--------------------------------------------------------------------*/
/*--- ws: every file ws writes, written one way.         ws_file.c ---*/
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

/* Owns how ws writes: the output file, the miss profile, dump files
   and the gdb/vgdb output (WS_(monitor_file), the monitor's replies)
   all go through a WS_File.  What they write is the formatters'
   business (ws_output.c, ws_stacks.c, ws_owners.c, ws_control.c,
   ws_misses.c ...), each writing to the WS_File it is given; this
   file knows nothing of any grammar but one rule shared by all of
   them, the escaping of strings.  It must never reach into the
   program:

   - a file is opened without blocking (a FIFO with no reader is
     refused at once) and its descriptor moved out of the program's
     range, into the descriptors Valgrind keeps for itself (above the
     limit the program is given), with close-on-exec, as the core does
     for its log file;
   - a file is told apart from the others by device and inode, not by
     name: one that ws, Valgrind or the program already has open is
     refused with a reason;
   - text reaches the file in whole lines (a run killed even by SIGKILL
     leaves lines that parse);
   - a write that fails is reported once, and that file is written no
     more; what it wrote of a line is cut off again (a full disk, the
     file-size limit), so that the file ends in a whole line; it never
     raises a signal in the program (a pipe whose reader went away, a
     file past the program's RLIMIT_FSIZE), and never waits for long (a
     reader that stops reading: ten seconds, then the file is given up);
   - names are checked and %q{VAR} expanded once, when the name is
     first given, so that a program changing its environment cannot
     make a later expansion (in a forked child) fail.

   A forked child shares its parent's open files: each owner calls
   WS_(file_after_fork), which drops the parent's descriptor and makes
   the child's own file when the name expands to a new one (%p). */

#include "pub_tool_basics.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_libcsignal.h"
#include "pub_tool_gdbserver.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"
#include "pub_tool_xarray.h"

#include "ws_output.h"

/*------------------------------------------------------------*/
/*--- What the public API lacks                            ---*/
/*------------------------------------------------------------*/

/* Four things a file of ws's needs are not in pub_tool_*.h: where the
   descriptors that Valgrind keeps for itself begin, fcntl() to move a
   descriptor there with close-on-exec, sigaction() to discard a signal
   a failed write raised and ftruncate() to cut off the part of a line
   it wrote (write_out).  Rather than declare the core's own
   VG_(fd_hard_limit), VG_(fcntl) and VG_(sigaction), which a Valgrind
   update could change without a word, ws asks the kernel:

   - The core raises the kernel's soft RLIMIT_NOFILE by the descriptors
     it keeps for itself (N_RESERVED_FDS in coregrind/m_main.c: 12 on
     Linux since Valgrind 3.0) and shows the program a limit that many
     below it: its log file and vgdb's FIFOs live there, where the
     program's system calls cannot reach them.  VG_(getrlimit) asks the
     kernel, so the reserve begins WS_CORE_FDS below its answer.
     tests/test_descriptors.py sees a file of ws's put below the
     program's limit: the program's descriptors would differ from
     --tool=none's.
   - fcntl, rt_sigaction and ftruncate are system calls of their own
     here, as the core makes them (the kernel's interface: amd64's
     syscall, x86's int $0x80). */
#define WS_CORE_FDS  12

static Long sys4(Long no, Long a1, Long a2, Long a3, Long a4)
{
#if defined(VGA_amd64)
   Long ret;
   register Long r10 __asm__("r10") = a4;
   __asm__ volatile ("syscall"
                     : "=a" (ret)
                     : "0" (no), "D" (a1), "S" (a2), "d" (a3), "r" (r10)
                     : "rcx", "r11", "memory");
   return ret;               /* -errno on failure */
#elif defined(VGA_x86)
   Long ret;
   Int  r;
   __asm__ volatile ("pushl %%ebx\n\tmovl %2, %%ebx\n\tint $0x80\n\t"
                     "popl %%ebx"
                     : "=a" (r)
                     : "0" ((Int)no), "r" ((Int)a1), "c" ((Int)a2),
                       "d" ((Int)a3), "S" ((Int)a4)
                     : "memory");
   ret = r;
   return ret;               /* -errno on failure */
#else
#  error "ws_file.c makes its system calls for amd64 and x86 only"
#endif
}

/* The first descriptor of Valgrind's own. */
static Int core_fds_begin(void)
{
   struct vki_rlimit rl;
   if (VG_(getrlimit)(VKI_RLIMIT_NOFILE, &rl) < 0)
      return -1;
   return (Int)rl.rlim_cur - WS_CORE_FDS;
}

/* A copy of |fd| at the lowest free descriptor from |from| on, closed
   on exec; -1 if none. */
static Int dup_from(Int fd, Int from)
{
   Long r = sys4(__NR_fcntl, fd, VKI_F_DUPFD_CLOEXEC, from, 0);
   return r < 0 ? -1 : (Int)r;
}

static void set_action(Int sig, const vki_sigaction_toK_t* act,
                       vki_sigaction_fromK_t* old)
{
   sys4(__NR_rt_sigaction, sig, (Long)(Addr)act, (Long)(Addr)old,
        sizeof(vki_sigset_t));
}

#define WS_POLLOUT          0x0004
/* How long a write may wait for a reader that stopped reading. */
#define WS_WRITE_WAIT_MS    10000
/* The largest line kept whole in a buffer (a command line of ARG_MAX
   bytes, escaped); longer ones are written in pieces. */
#define WS_LINE_MAX         (16 * 1024 * 1024)

/*------------------------------------------------------------*/
/*--- Escaping                                             ---*/
/*------------------------------------------------------------*/

/* The length of the well-formed UTF-8 sequence at |s| (1 to 4), or 0
   if there is none (a stray continuation byte, an overlong form, a
   surrogate, past U+10FFFF, cut short by the end). */
static UInt utf8_length(const UChar* s)
{
   UChar c = s[0];
   UInt  n, i;
   UChar lo = 0x80, hi = 0xbf;
   if (c < 0x80)
      return 1;
   if (c >= 0xc2 && c <= 0xdf)
      n = 2;
   else if (c >= 0xe0 && c <= 0xef)
      n = 3;
   else if (c >= 0xf0 && c <= 0xf4)
      n = 4;
   else
      return 0;
   if (c == 0xe0) lo = 0xa0;
   if (c == 0xed) hi = 0x9f;
   if (c == 0xf0) lo = 0x90;
   if (c == 0xf4) hi = 0x8f;
   if (s[1] < lo || s[1] > hi)
      return 0;
   for (i = 2; i < n; i++)
      if (s[i] < 0x80 || s[i] > 0xbf)
         return 0;
   return n;
}

/* The escaped form of the unit of |s| at |i| (a character, or a byte
   that must be escaped) into |u|; returns the bytes of |s| it stands
   for.  |*space_before|: the unit written last was a plain space. */
static UInt escape_unit(const UChar* s, SizeT i, WS_Escape how,
                        Bool* space_before, HChar* u, UInt* ulen)
{
   static const HChar hex[] = "0123456789abcdef";
   UChar c = s[i];
   UInt  n = 1, k;
   Bool  plain;
   if (c == ' ')
      plain = how == WS_EscText && i > 0 && !*space_before
              && s[i + 1] != '\0';
   else if (c == '\\' || c < 0x20 || c == 0x7f)
      plain = False;
   else
      plain = (n = utf8_length(s + i)) > 0;
   *space_before = plain && c == ' ';
   if (c == '\\') {
      u[0] = u[1] = '\\';
      *ulen = 2;
   } else if (!plain) {
      u[0] = '\\';
      u[1] = 'x';
      u[2] = hex[c >> 4];
      u[3] = hex[c & 15];
      *ulen = 4;
      n = 1;
   } else {
      for (k = 0; k < n; k++)
         u[k] = s[i + k];
      *ulen = n;
   }
   return n;
}

void WS_(escape)(const HChar* s, WS_Escape how,
                 void (*put)(HChar c, void* opaque), void* opaque)
{
   const UChar* us = (const UChar*)s;
   SizeT i = 0;
   Bool  space_before = False;
   while (us[i] != '\0') {
      HChar u[4];
      UInt  ulen, k;
      i += escape_unit(us, i, how, &space_before, u, &ulen);
      for (k = 0; k < ulen; k++)
         put(u[k], opaque);
   }
}

SizeT WS_(escape_into)(const HChar* s, WS_Escape how, HChar* buf,
                       SizeT size)
{
   const UChar* us = (const UChar*)s;
   SizeT i = 0, out = 0;
   Bool  space_before = False;
   if (size == 0)
      return 0;
   while (us[i] != '\0') {
      HChar u[4];
      UInt  ulen, k;
      Bool  before = space_before;
      SizeT took = escape_unit(us, i, how, &space_before, u, &ulen);
      if (out + ulen >= size) {
         space_before = before;
         break;               /* cut before a whole unit, never inside */
      }
      for (k = 0; k < ulen; k++)
         buf[out++] = u[k];
      i += took;
   }
   /* A text cut short must not end with a space either. */
   if (how == WS_EscText && out > 0 && buf[out - 1] == ' ')
      out--;
   buf[out] = '\0';
   return out;
}

/*------------------------------------------------------------*/
/*--- File names                                           ---*/
/*------------------------------------------------------------*/

/* Appends |s| to the growing |*out|, doubling each '%' when |quote|
   (an environment variable's value is text, not a format). */
static void append(HChar** out, SizeT* used, SizeT* cap, const HChar* s,
                   SizeT len, Bool quote)
{
   SizeT i;
   for (i = 0; i < len; i++) {
      if (*used + 3 > *cap) {
         *cap = *cap * 2 + len + 3;
         *out = VG_(realloc)("ws.file.name", *out, *cap);
      }
      (*out)[(*used)++] = s[i];
      if (quote && s[i] == '%')
         (*out)[(*used)++] = '%';
   }
   (*out)[*used] = '\0';
}

HChar* WS_(name_template)(const HChar* name, const HChar** why)
{
   SizeT  cap = VG_(strlen)(name) + 1, used = 0;
   HChar* out = VG_(malloc)("ws.file.name", cap);
   const HChar* p;
   out[0] = '\0';
   *why = NULL;
   if (name[0] == '\0')
      *why = "the name is empty";
   else if (name[0] == '~')
      *why = "'~' is not expanded; give the full path";
   for (p = name; *p && *why == NULL; p++) {
      const HChar* close;
      if (*p != '%') {
         append(&out, &used, &cap, p, 1, False);
         continue;
      }
      p++;
      if (*p == '%' || *p == 'p' || *p == 'n') {
         append(&out, &used, &cap, p - 1, 2, False);
         continue;
      }
      if (*p != 'q' || p[1] != '{') {
         *why = "'%' must be followed by p, n, q{VAR} or %";
         break;
      }
      close = VG_(strchr)(p + 2, '}');
      if (close == NULL) {
         *why = "'}' is missing after %q{";
         break;
      }
      {
         SizeT len = close - (p + 2);
         HChar var[len + 1];
         const HChar* value;
         VG_(strncpy)(var, p + 2, len);
         var[len] = '\0';
         value = VG_(getenv)(var);
         if (value == NULL) {
            *why = "a %q{VAR} names an environment variable that is not "
                   "set";
            break;
         }
         append(&out, &used, &cap, value, VG_(strlen)(value), True);
      }
      p = close;
   }
   for (p = out; *p && *why == NULL; p++)
      if ((UChar)*p < 0x20 || *p == 0x7f)
         *why = "it contains a control character (after expansion)";
   if (*why == NULL && out[0] != '/' && VG_(get_startup_wd)() == NULL)
      *why = "the start-up directory is gone; give an absolute path";
   if (*why == NULL && out[0] == '\0')
      *why = "the name is empty (after expansion)";
   if (*why != NULL) {
      VG_(free)(out);
      return NULL;
   }
   return out;
}

UInt WS_(image) = 0;

/* Only %p, %n and %% are left in a template, so the core's expansion
   cannot fail (it would end the process). */
HChar* WS_(name_expand)(const HChar* option, const HChar* template)
{
   HChar* name = VG_(expand_file_name)(option, template);
   if (WS_(image) > 0) {
      HChar* suffixed = VG_(malloc)("ws.file.name",
                                    VG_(strlen)(name) + 16);
      VG_(sprintf)(suffixed, "%s.exec%u", name, WS_(image));
      VG_(free)(name);
      name = suffixed;
   }
   return name;
}

/*------------------------------------------------------------*/
/*--- Telling files apart                                  ---*/
/*------------------------------------------------------------*/

static WS_File* open_files = NULL;    /* ws's, linked by next */

static void register_file(WS_File* f)
{
   f->next = open_files;
   open_files = f;
}

static void unregister_file(WS_File* f)
{
   WS_File** p;
   for (p = &open_files; *p; p = &(*p)->next)
      if (*p == f) {
         *p = f->next;
         break;
      }
   f->next = NULL;
}

static Bool ours(Int fd)
{
   const WS_File* f;
   for (f = open_files; f; f = f->next)
      if (f->fd == fd)
         return True;
   return False;
}

/* Two names for one terminal or /dev/null may well be meant; two for
   one file or pipe would mix two grammars or overwrite each other. */
static Bool shareable(ULong mode)
{
   return VKI_S_ISCHR(mode);
}

/* Why the file |st| may not be written: another file of ws, a file
   Valgrind or the program has open (a regular file only: a pipe or a
   terminal they share is shared by design), or NULL. */
static const HChar* in_use(const WS_File* self, const struct vg_stat* st,
                           HChar* buf, SizeT size)
{
   const WS_File* f;
   Int    dir;
   HChar  dents[2048];
   Int    n;
   if (shareable(st->mode))
      return NULL;
   for (f = open_files; f; f = f->next)
      if (f != self && f->fd >= 0 && f->dev == st->dev && f->ino == st->ino) {
         VG_(snprintf)(buf, size, "it is the %s (%s)", f->what, f->name);
         return buf;
      }
   if (!VKI_S_ISREG(st->mode))
      return NULL;
   /* Every descriptor open in the process, ws's own left out. */
   dir = VG_(fd_open)("/proc/self/fd", VKI_O_RDONLY, 0);
   if (dir < 0)
      return NULL;
   while ((n = VG_(getdents64)(dir, (struct vki_dirent64*)dents,
                               sizeof dents)) > 0) {
      Int off = 0;
      while (off < n) {
         struct vki_dirent64* d = (struct vki_dirent64*)(dents + off);
         Long  fd = VG_(strtoll10)(d->d_name, NULL);
         struct vg_stat other;
         off += d->d_reclen;
         if (d->d_name[0] < '0' || d->d_name[0] > '9' || fd == dir
             || fd == self->fd || ours((Int)fd)
             || VG_(fstat)((Int)fd, &other) != 0
             || other.dev != st->dev || other.ino != st->ino)
            continue;
         VG_(close)(dir);
         if (fd >= core_fds_begin())
            return "Valgrind writes to it already (--log-file, "
                   "--xml-file)";
         /* At start-up Valgrind's log file is there too, before the
            core moves it up. */
         VG_(snprintf)(buf, size, "it is open already as descriptor %lld, "
                       "the program's or Valgrind's (--log-file)", fd);
         return buf;
      }
   }
   VG_(close)(dir);
   return NULL;
}

/*------------------------------------------------------------*/
/*--- Opening and closing                                  ---*/
/*------------------------------------------------------------*/

static const HChar* errno_text(Int err)
{
   switch (err) {
   case VKI_ENOENT: return "no such file or directory";
   case VKI_EACCES: return "permission denied";
   case VKI_EISDIR: return "it is a directory";
   case VKI_ENXIO:  return "it is a FIFO that no process has open for "
                           "reading";
   case VKI_ENOSPC: return "no space left on the device";
   case VKI_EPIPE:  return "its reader has gone";
   case VKI_EROFS:  return "read-only file system";
   case VKI_ENOTDIR: return "a directory in the path is not one";
   case VKI_EMFILE: return "too many open files";
   case VKI_EFBIG:  return "the file reached the size limit (ulimit -f)";
   case VKI_EIO:    return "input/output error";
   default: {
      static HChar other[32];
      VG_(sprintf)(other, "system error %d", err);
      return other;
   }
   }
}

Bool WS_(file_create)(WS_File* f, const HChar* name, HChar* why,
                      SizeT why_size)
{
   struct vg_stat st;
   const HChar* busy;
   Bool   existed;
   SysRes sres;
   Int    fd, safe;

   tl_assert(f->fd < 0 && !f->to_monitor);
   f->failed = False;
   f->used = f->lines = f->partial = 0;
   existed = !sr_isError(VG_(stat)(name, &st));
   if (existed && (busy = in_use(f, &st, why, why_size)) != NULL) {
      if (busy != why)
         VG_(snprintf)(why, why_size, "%s", busy);
      return False;
   }
   /* O_NONBLOCK: a FIFO without a reader is refused (ENXIO) rather than
      waited for; writes handle EAGAIN (write_out). */
   sres = VG_(open)(name, VKI_O_CREAT | VKI_O_TRUNC | VKI_O_WRONLY
                    | VKI_O_NONBLOCK,
                    VKI_S_IRUSR | VKI_S_IWUSR | VKI_S_IRGRP | VKI_S_IROTH);
   if (sr_isError(sres)) {
      VG_(snprintf)(why, why_size, "%s", errno_text((Int)sr_Err(sres)));
      return False;
   }
   fd = (Int)sr_Res(sres);
   safe = dup_from(fd, core_fds_begin());
   VG_(close)(fd);
   if (safe < 0) {
      VG_(snprintf)(why, why_size, "the descriptors Valgrind keeps for "
                    "itself are all in use");
      if (!existed)
         VG_(unlink)(name);
      return False;
   }
   VG_(fstat)(safe, &st);
   f->fd = safe;
   f->dev = st.dev;
   f->ino = st.ino;
   f->created = !existed;
   f->name = VG_(strdup)("ws.file.name", name);
   /* A name that did not exist may still have led to an open file (a
      symbolic link to one). */
   if (!existed && (busy = in_use(f, &st, why, why_size)) != NULL) {
      if (busy != why)
         VG_(snprintf)(why, why_size, "%s", busy);
      WS_(file_abandon)(f);
      return False;
   }
   register_file(f);
   return True;
}

static void release(WS_File* f)
{
   unregister_file(f);
   if (f->fd >= 0)
      VG_(close)(f->fd);
   f->fd = -1;
   f->used = f->lines = 0;
}

void WS_(file_abandon)(WS_File* f)
{
   Int   fd = f->fd;
   HChar target[VKI_PATH_MAX + 1];
   SSizeT n;
   release(f);
   if (fd < 0 || !f->created || f->name == NULL)
      return;
   /* The file ws made, not a symbolic link of the user's to it. */
   n = VG_(readlink)(f->name, target, sizeof target - 1);
   if (n < 0) {
      VG_(unlink)(f->name);
      return;
   }
   target[n] = '\0';
   if (target[0] == '/') {
      VG_(unlink)(target);
   } else {
      const HChar* dir = VG_(dirname)(f->name);
      HChar path[VG_(strlen)(dir) + n + 2];
      VG_(sprintf)(path, "%s/%s", dir, target);
      VG_(unlink)(path);
   }
}

void WS_(file_forget)(WS_File* f)
{
   release(f);
   f->failed = False;
}

Bool WS_(file_close)(WS_File* f)
{
   if (f->fd >= 0 && f->used > 0) {
      f->lines = f->used;
      WS_(file_flush)(f);
   }
   release(f);
   return !f->failed;
}

/* Whether |template| names a file per process: only %p differs from
   one process to the next (%n counts afresh in each). */
static Bool per_process(const HChar* template)
{
   const HChar* p;
   for (p = template; *p; p++)
      if (p[0] == '%' && p[1] != '\0') {
         if (p[1] == 'p')
            return True;
         p++;                          /* %% or %n */
      }
   return False;
}

Bool WS_(file_after_fork)(WS_File* f, const HChar* option,
                          const HChar* value, const HChar* template)
{
   HChar* name;
   HChar  why[256];
   WS_(file_forget)(f);
   if (template == NULL || f->name == NULL)
      return False;                /* the parent had none: neither has it */
   if (!per_process(template)) {
      VG_(umsg)("ws: %s=%s names the parent's file; this child writes no "
                "%s (use %%p)\n", option, value, f->what);
      VG_(free)(f->name);
      f->name = NULL;
      return False;
   }
   name = WS_(name_expand)(option, template);
   if (f->name)
      VG_(free)(f->name);
   f->name = NULL;
   if (!WS_(file_create)(f, name, why, sizeof why)) {
      VG_(umsg)("ws: cannot create '%s' (%s); this child writes no %s\n",
                name, why, f->what);
      VG_(free)(name);
      return False;
   }
   VG_(free)(name);
   return True;
}

/*------------------------------------------------------------*/
/*--- Writing                                              ---*/
/*------------------------------------------------------------*/

/* Says once why |f| can no longer be written, and stops writing it. */
static void give_up(WS_File* f, const HChar* reason)
{
   VG_(umsg)("ws: writing the %s '%s' failed (%s); ws writes nothing more "
             "to it\n", f->what, f->name, reason);
   f->failed = True;
   release(f);
}

/* Whether |f| became writable within WS_WRITE_WAIT_MS. */
static Bool wait_writable(const WS_File* f)
{
   struct vki_pollfd p;
   SysRes r;
   p.fd = f->fd;
   p.events = WS_POLLOUT;
   p.revents = 0;
   r = VG_(poll)(&p, 1, WS_WRITE_WAIT_MS);
   return !sr_isError(r) && sr_Res(r) > 0;
}

/* A signal that the write just made raised is pending on this thread
   (blocked): making it ignored for a moment discards it (the kernel
   drops the pending signals that become ignored). */
static void discard_pending(Int sig)
{
   vki_sigaction_toK_t   ignore;
   vki_sigaction_fromK_t saved;
   VG_(memset)(&ignore, 0, sizeof ignore);
   ignore.ksa_handler = VKI_SIG_IGN;
   set_action(sig, &ignore, &saved);
   set_action(sig, &saved, NULL);
}

static void add_signal(vki_sigset_t* set, Int sig)
{
   set->sig[(sig - 1) / _VKI_NSIG_BPW] |= 1UL << ((sig - 1) % _VKI_NSIG_BPW);
}

/* |done| more bytes from the front of the buffer reached the file. */
static void note_written(WS_File* f, UInt done)
{
   UInt k = done;
   while (k > 0 && f->buf[k - 1] != '\n')
      k--;
   f->partial = k > 0 ? done - k : f->partial + done;
}

/* A write failed after part of a line reached the file (a full disk,
   the file-size limit): that part is cut off, so that the file ends in
   a whole line.  Not possible for a pipe or a terminal, whose reader
   has what it read; those fail whole (a reader gone) or stay. */
static void cut_partial_line(WS_File* f)
{
   Off64T end;
   if (f->partial == 0)
      return;
   end = VG_(lseek)(f->fd, 0, VKI_SEEK_CUR);
   if (end >= (Off64T)f->partial)
      sys4(__NR_ftruncate, f->fd, end - f->partial, 0, 0);
}

/* Writes |len| bytes from the front of the buffer.  Two failures make
   the kernel signal the writing thread, which would kill the program: a
   pipe whose reader has gone (SIGPIPE) and a file that reached the
   program's RLIMIT_FSIZE (SIGXFSZ).  While ws writes, both are blocked,
   so that neither can be delivered (not even to vgdb, which may be
   tracing the process when a monitor command writes), and one that the
   write raised is discarded. */
static void write_out(WS_File* f, UInt len)
{
   vki_sigset_t ours, saved_mask;
   UInt done = 0;
   Int  err = 0;
   VG_(memset)(&ours, 0, sizeof ours);
   add_signal(&ours, VKI_SIGPIPE);
   add_signal(&ours, VKI_SIGXFSZ);
   VG_(sigprocmask)(VKI_SIG_BLOCK, &ours, &saved_mask);
   while (done < len) {
      Int n = VG_(write)(f->fd, f->buf + done, len - done);
      if (n > 0) {
         done += n;
         continue;
      }
      if (n == -VKI_EINTR)
         continue;
      if (n == -VKI_EAGAIN && wait_writable(f))
         continue;
      err = n == -VKI_EAGAIN ? -1 : n == 0 ? VKI_EIO : -n;
      break;
   }
   if (err == VKI_EPIPE)
      discard_pending(VKI_SIGPIPE);
   else if (err == VKI_EFBIG)
      discard_pending(VKI_SIGXFSZ);
   VG_(sigprocmask)(VKI_SIG_SETMASK, &saved_mask, NULL);
   note_written(f, done);
   if (err != 0)
      cut_partial_line(f);
   VG_(memmove)(f->buf, f->buf + done, f->used - done);
   f->used -= done;
   f->lines = f->lines > done ? f->lines - done : 0;
   if (err == -1)
      give_up(f, "nothing read it for 10 seconds");
   else if (err != 0)
      give_up(f, errno_text(err));
}

/* gdb's output and Valgrind's log take each line as it is made. */
static Bool lines_out(const WS_File* f)
{
   return f->to_monitor || f->to_log;
}

void WS_(file_flush)(WS_File* f)
{
   if (lines_out(f)) {
      if (f->used > 0) {
         f->buf[f->used] = '\0';
         if (f->to_log)
            VG_(umsg)("%s", f->buf);
         else
            VG_(gdb_printf)("%s", f->buf);
      }
      f->used = f->lines = 0;
      return;
   }
   if (f->fd >= 0 && f->lines > 0)
      write_out(f, f->lines);
}

UInt WS_(file_pending)(const WS_File* f)
{
   return f->lines;
}

void WS_(file_put_char)(HChar c, void* opaque)
{
   WS_File* f = opaque;
   if (f->fd < 0 && !lines_out(f))
      return;
   if (f->buf == NULL) {
      f->size = lines_out(f) ? 1024 : WS_FILE_BUF;
      f->buf = VG_(malloc)("ws.file.buf", f->size + 1);
   }
   if (f->used == f->size) {
      if (lines_out(f) || f->lines > 0) {
         WS_(file_flush)(f);
      } else if (f->size < WS_LINE_MAX) {
         /* One line longer than the buffer: keep it whole. */
         f->size *= 2;
         f->buf = VG_(realloc)("ws.file.buf", f->buf, f->size + 1);
      } else {
         f->lines = f->used;
         write_out(f, f->used);
         if (f->fd < 0)
            return;
      }
   }
   f->buf[f->used++] = c;
   if (c == '\n') {
      f->lines = f->used;
      if (lines_out(f))
         WS_(file_flush)(f);
   }
}

void WS_(file_vprintf)(WS_File* f, const HChar* format, va_list vargs)
{
   VG_(vcbprintf)(WS_(file_put_char), f, format, vargs);
   if (f->to_monitor)
      WS_(file_flush)(f);
}

void WS_(file_printf)(WS_File* f, const HChar* format, ...)
{
   va_list vargs;
   va_start(vargs, format);
   WS_(file_vprintf)(f, format, vargs);
   va_end(vargs);
}

void WS_(file_text)(WS_File* f, const HChar* s, WS_Escape how)
{
   WS_(escape)(s, how, WS_(file_put_char), f);
   if (f->to_monitor)
      WS_(file_flush)(f);
}

WS_File* WS_(monitor_file)(void)
{
   static WS_File gdb_output = { "gdb output", -1, True, NULL };
   return &gdb_output;
}

WS_File* WS_(log_file)(void)
{
   static WS_File log = { "Valgrind's log", -1, False, NULL, .to_log = True };
   return &log;
}

Bool WS_(file_writing)(const WS_File* f)
{
   return lines_out(f) || f->fd >= 0;
}

/*------------------------------------------------------------*/
/*--- Lines every file shares                              ---*/
/*------------------------------------------------------------*/

void WS_(file_command)(WS_File* f)
{
   Word i;
   WS_(file_text)(f, VG_(args_the_exename), WS_EscWord);
   for (i = 0; i < VG_(sizeXA)(VG_(args_for_client)); i++) {
      WS_(file_put_char)(' ', f);
      WS_(file_text)(f, *(HChar**)VG_(indexXA)(VG_(args_for_client), i),
                     WS_EscWord);
   }
}

const HChar* WS_(kind_name)(WS_Kind kind)
{
   return kind == WS_Insn ? "insn" : "data";
}

/*--------------------------------------------------------------------*/
/*--- end                                                 ws_file.c ---*/
/*--------------------------------------------------------------------*/

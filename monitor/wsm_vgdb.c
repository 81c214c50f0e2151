/* ws-monitor: running vgdb, and what its failures mean.

   Copyright (C) 2026 the ws authors.

   This program is free software; you can redistribute it and/or
   modify it under the terms of the GNU General Public License as
   published by the Free Software Foundation; either version 2 of the
   License, or (at your option) any later version.

   The GNU General Public License is contained in the file COPYING.
*/

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "wsm.h"

#define PTRACE_GRACE     2.0      /* s to wait for a reply after vgdb
                                     could not ptrace the process */

/*------------------------------------------------------------*/
/*--- Running vgdb                                         ---*/
/*------------------------------------------------------------*/

static int ptrace_refused(const char *err)
{
   return strstr(err, "PTRACE_ATTACH") != NULL
          && strstr(err, "Operation not permitted") != NULL;
}

/* Runs vgdb with |args| after the --vgdb-prefix option (if any); its
   standard input is /dev/null. */
void vgdb_run(const char *const *args, int nargs, VgRun *r)
{
   const char **argv = xrealloc(NULL, (nargs + 3) * sizeof *argv);
   char        *prefix_opt = NULL;
   int          out[2], err[2], st[2];
   int          i, n = 0, open_fds;
   pid_t        child;
   double       deadline = now_s() + timeout_s, ptrace_deadline = 0;

   memset(r, 0, sizeof *r);
   r->status = -1;
   argv[n++] = vgdb_path;
   if (vgdb_prefix) {
      prefix_opt = xrealloc(NULL, strlen(vgdb_prefix) + 16);
      sprintf(prefix_opt, "--vgdb-prefix=%s", vgdb_prefix);
      argv[n++] = prefix_opt;
   }
   for (i = 0; i < nargs; i++)
      argv[n++] = args[i];
   argv[n] = NULL;

   if (pipe(out) != 0 || pipe(err) != 0 || pipe2(st, O_CLOEXEC) != 0) {
      say("cannot make a pipe: %s", strerror(errno));
      exit(EXIT_UNREACHABLE);
   }
   fflush(stdout);
   fflush(stderr);
   child = fork();
   if (child < 0) {
      say("cannot fork: %s", strerror(errno));
      exit(EXIT_UNREACHABLE);
   }
   if (child == 0) {
      int null = open("/dev/null", O_RDONLY);
      int e;
      signal(SIGINT, SIG_DFL);
      if (null >= 0) {
         dup2(null, 0);
         close(null);
      }
      dup2(out[1], 1);
      dup2(err[1], 2);
      close(out[0]);
      close(out[1]);
      close(err[0]);
      close(err[1]);
      close(st[0]);
      execvp(argv[0], (char *const *)argv);
      e = errno;
      if (write(st[1], &e, sizeof e) < 0)
         _exit(127);
      _exit(127);
   }
   close(out[1]);
   close(err[1]);
   close(st[1]);
   free(argv);
   free(prefix_opt);

   {
      int     e;
      ssize_t got = read(st[0], &e, sizeof e);
      close(st[0]);
      if (got == (ssize_t)sizeof e) {
         close(out[0]);
         close(err[0]);
         waitpid(child, NULL, 0);
         r->outcome = Vg_NotRun;
         r->exec_errno = e;
         return;
      }
   }

   r->outcome = Vg_Exited;
   open_fds = 2;
   while (open_fds > 0) {
      struct pollfd pfd[2];
      double        now = now_s(), until = deadline;
      int           wait_ms, k;
      pfd[0].fd = out[0];
      pfd[0].events = POLLIN;
      pfd[1].fd = err[0];
      pfd[1].events = POLLIN;
      if (ptrace_deadline > 0 && ptrace_deadline < until)
         until = ptrace_deadline;
      if (got_sigint) {
         r->outcome = Vg_Interrupted;
         break;
      }
      if (now >= until) {
         r->outcome = until == deadline ? Vg_TimedOut : Vg_PtraceDenied;
         break;
      }
      wait_ms = (int)((until - now) * 1000) + 1;
      if (poll(pfd, 2, wait_ms) < 0) {
         if (errno == EINTR)
            continue;
         break;
      }
      for (k = 0; k < 2; k++) {
         char    chunk[4096];
         ssize_t got;
         if (pfd[k].fd < 0 || !(pfd[k].revents & (POLLIN | POLLHUP | POLLERR)))
            continue;
         got = read(pfd[k].fd, chunk, sizeof chunk);
         if (got > 0) {
            buf_add(k == 0 ? &r->out : &r->err, chunk, got);
         } else if (got == 0 || errno != EINTR) {
            close(k == 0 ? out[0] : err[0]);
            if (k == 0)
               out[0] = -1;
            else
               err[0] = -1;
            open_fds--;
         }
      }
      if (ptrace_deadline == 0 && ptrace_refused(buf_cstr(&r->err)))
         ptrace_deadline = now_s() + PTRACE_GRACE;
   }
   if (out[0] >= 0)
      close(out[0]);
   if (err[0] >= 0)
      close(err[0]);
   if (r->outcome != Vg_Exited) {
      /* vgdb undoes what it did with ptrace when it is told to stop. */
      int waited = 0;
      kill(child, SIGTERM);
      for (i = 0; i < 100 && !waited; i++) {
         if (waitpid(child, NULL, WNOHANG) == child)
            waited = 1;
         else
            usleep(10000);
      }
      if (!waited) {
         kill(child, SIGKILL);
         waitpid(child, NULL, 0);
      }
      return;
   }
   {
      int wst;
      while (waitpid(child, &wst, 0) < 0 && errno == EINTR)
         ;
      r->status = WIFEXITED(wst) ? WEXITSTATUS(wst) : 128 + WTERMSIG(wst);
   }
}

void vgrun_free(VgRun *r)
{
   buf_free(&r->out);
   buf_free(&r->err);
}

/* vgdb's standard error without its "sending command ..." lines. */
static void vgdb_errors(const char *err, Buf *into)
{
   char **lines = split_lines(err, NULL), **l;
   for (l = lines; *l; l++) {
      if (strncmp(*l, "sending command ", 16) == 0 || **l == '\0')
         continue;
      buf_printf(into, "  vgdb: %s\n", *l);
   }
   free_lines(lines);
}

int process_ended(pid_t pid)
{
   char  path[64], stat[512], *paren;
   int   fd;
   ssize_t got;
   if (kill(pid, 0) != 0 && errno == ESRCH)
      return 1;
   /* A zombie still has its pid until its parent waits for it. */
   snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
   fd = open(path, O_RDONLY | O_CLOEXEC);
   if (fd < 0)
      return errno == ENOENT;
   got = read(fd, stat, sizeof stat - 1);
   close(fd);
   if (got <= 0)
      return 0;
   stat[got] = '\0';
   paren = strrchr(stat, ')');         /* the name may hold one too */
   return paren != NULL && paren[1] == ' '
          && (paren[2] == 'Z' || paren[2] == 'X');
}

/* Valgrind removes its vgdb FIFOs as the last step of its exit, so a
   process that answered before and has no FIFO now is ending: it is
   given a moment to end. */
static int ends_soon(pid_t pid)
{
   double deadline = now_s() + 2.0;
   while (!process_ended(pid)) {
      struct timespec nap = { 0, 50 * 1000 * 1000 };
      if (now_s() > deadline || got_sigint)
         return 0;
      nanosleep(&nap, NULL);
   }
   return 1;
}

/* Whether |pid|, which vgdb could not reach, has ended: a process that
   answered before is given a moment (ends_soon). */
static int has_ended(pid_t pid, pid_t answered)
{
   return process_ended(pid) || (answered == pid && ends_soon(pid));
}

static void say_ended(pid_t pid)
{
   if (target_output_file())
      say("process %d has ended; its output file is %s", (int)pid,
          target_output_file());
   else
      say("process %d has ended", (int)pid);
}

/* Says why a vgdb run did not deliver a command to process |pid|, or
   returns 0 if it did. */
int vgdb_trouble(const VgRun *r, pid_t pid)
{
   static pid_t answered = 0;        /* a process that answered before */
   const char *err = buf_cstr(&r->err);
   Buf         detail = { 0 };
   int         trouble = 1;

   if (r->outcome == Vg_Exited && r->status == 0) {
      answered = pid;
      return 0;
   }
   /* A process that ends while vgdb reaches it makes vgdb fail in many
      ways (its FIFOs gone or going, no ptrace of a zombie, no such
      process): whatever vgdb said, it has ended. */
   if (r->outcome != Vg_NotRun && r->outcome != Vg_Interrupted
       && has_ended(pid, answered)) {
      say_ended(pid);
      return 1;
   }
   switch (r->outcome) {
   case Vg_NotRun:
      if (r->exec_errno == ENOENT)
         say("cannot run vgdb: '%s' was not found%s; it comes with "
             "Valgrind (Debian: apt-get install valgrind), or give its path "
             "with --vgdb=PATH", vgdb_path,
             strchr(vgdb_path, '/') ? "" : " on PATH");
      else
         say("cannot run vgdb '%s': %s", vgdb_path,
             strerror(r->exec_errno));
      return 1;
   case Vg_PtraceDenied:
      say("vgdb may not use ptrace on process %d, and the process did not "
          "answer by itself: it is probably blocked in a system call.  "
          "Run ws-monitor as the user who started it (or as root), allow "
          "ptrace (on Yama kernels: echo 0 > "
          "/proc/sys/kernel/yama/ptrace_scope), or retry while the program "
          "is running rather than waiting", (int)pid);
      return 1;
   case Vg_TimedOut:
      say("process %d did not answer within %g s", (int)pid, timeout_s);
      break;
   case Vg_Interrupted:
      say("interrupted");
      return 1;
   case Vg_Exited:
      if (strstr(err, "no FIFO found matching pid")) {
         if (answered == pid)
            say("process %d no longer answers: its gdbserver is gone (it "
                "has exec'd a program that does not run under Valgrind)",
                (int)pid);
         else
            say("vgdb cannot reach process %d: it is not running under "
                "Valgrind, its gdbserver is off (--vgdb=no) or it uses "
                "another --vgdb-prefix", (int)pid);
         return 1;
      }
      if (ptrace_refused(err)) {
         say("vgdb may not use ptrace on process %d (see "
             "/proc/sys/kernel/yama/ptrace_scope)", (int)pid);
         return 1;
      }
      say("vgdb failed (exit status %d)", r->status);
      break;
   }
   vgdb_errors(err, &detail);
   if (detail.len)
      fputs(detail.s, stderr);
   buf_free(&detail);
   return trouble;
}

/* ws-monitor: a console for programs running under Valgrind's ws tool.

   Copyright (C) 2026 the ws authors.

   This program is free software; you can redistribute it and/or
   modify it under the terms of the GNU General Public License as
   published by the Free Software Foundation; either version 2 of the
   License, or (at your option) any later version.

   The GNU General Public License is contained in the file COPYING.

   usage: ws-monitor [OPTIONS]                  lists the running ws processes
          ws-monitor [OPTIONS] --pid N          a prompt for process N
          ws-monitor [OPTIONS] --pid N CMD...   one command, then exit

   Every command goes to the process through vgdb, run once per command
   as `vgdb --pid=N [--vgdb-prefix=P] "<command>"` with the command as a
   single argument (vgdb would take a word starting with '-' for one of
   its own options).  vgdb prints the reply on its standard output and
   exits 0 whether or not the command was accepted, so this program
   judges the reply itself (reply_accepted(), which must agree with the
   replies of ws/ws_monitor.c and ws/ws_control.c), and reads vgdb's
   standard error for the reasons it could not deliver a command
   (vgdb_trouble()).

   Exit status: 0 the command was accepted (or the listing was made),
   1 ws refused the command, 2 the process could not be reached (it does
   not exist or has ended, it is not a ws process, vgdb is missing or
   may not use ptrace, no answer in time), 64 bad usage. */

#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <limits.h>
#include <locale.h>
#include <poll.h>
#include <pwd.h>
#include <regex.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <readline/history.h>
#include <readline/readline.h>

#define EXIT_REFUSED     1
#define EXIT_UNREACHABLE 2
#define EXIT_USAGE       64

#define SERIES_COMMAND   "ws series 60"  /* the samples the live view shows */
#define HISTORY_LINES    1000     /* kept in the history file */
#define PTRACE_GRACE     2.0      /* s to wait for a reply after vgdb
                                     could not ptrace the process */

static const char *vgdb_path = "vgdb";
static const char *vgdb_prefix;   /* NULL: vgdb's default */
static double      timeout_s = 30;
static pid_t       target;
static volatile sig_atomic_t got_sigint;

/*------------------------------------------------------------*/
/*--- Small helpers                                        ---*/
/*------------------------------------------------------------*/

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
   va_list ap;
   fflush(stdout);
   fputs("ws-monitor: ", stderr);
   va_start(ap, fmt);
   vfprintf(stderr, fmt, ap);
   va_end(ap);
   fputc('\n', stderr);
}

static void *xrealloc(void *p, size_t n)
{
   p = realloc(p, n ? n : 1);
   if (p == NULL) {
      say("out of memory");
      exit(EXIT_UNREACHABLE);
   }
   return p;
}

static char *xstrdup(const char *s)
{
   size_t n = strlen(s) + 1;
   return memcpy(xrealloc(NULL, n), s, n);
}

/* A growing NUL-terminated byte string. */
typedef struct {
   char  *s;
   size_t len, cap;
} Buf;

static void buf_add(Buf *b, const char *data, size_t n)
{
   if (b->len + n + 1 > b->cap) {
      b->cap = (b->len + n + 1) * 2;
      b->s = xrealloc(b->s, b->cap);
   }
   memcpy(b->s + b->len, data, n);
   b->len += n;
   b->s[b->len] = '\0';
}

static void buf_str(Buf *b, const char *s)
{
   buf_add(b, s, strlen(s));
}

static void buf_printf(Buf *b, const char *fmt, ...)
   __attribute__((format(printf, 2, 3)));
static void buf_printf(Buf *b, const char *fmt, ...)
{
   char    small[256];
   va_list ap;
   int     n;
   va_start(ap, fmt);
   n = vsnprintf(small, sizeof small, fmt, ap);
   va_end(ap);
   if (n < 0)
      return;
   if ((size_t)n < sizeof small) {
      buf_add(b, small, n);
      return;
   }
   {
      char *big = xrealloc(NULL, n + 1);
      va_start(ap, fmt);
      vsnprintf(big, n + 1, fmt, ap);
      va_end(ap);
      buf_add(b, big, n);
      free(big);
   }
}

static const char *buf_cstr(const Buf *b)
{
   return b->s ? b->s : "";
}

static void buf_free(Buf *b)
{
   free(b->s);
   b->s = NULL;
   b->len = b->cap = 0;
}

static double now_s(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void on_sigint(int sig)
{
   (void)sig;
   got_sigint = 1;
}

/* The lines of |text|, without their newlines, into a NULL-terminated
   array (free with free_lines). */
static char **split_lines(const char *text, int *count)
{
   char      **lines = NULL;
   int         n = 0;
   const char *p = text;
   while (*p) {
      const char *nl = strchr(p, '\n');
      size_t      len = nl ? (size_t)(nl - p) : strlen(p);
      lines = xrealloc(lines, (n + 2) * sizeof *lines);
      lines[n] = xrealloc(NULL, len + 1);
      memcpy(lines[n], p, len);
      lines[n][len] = '\0';
      n++;
      p += len + (nl ? 1 : 0);
   }
   lines = xrealloc(lines, (n + 1) * sizeof *lines);
   lines[n] = NULL;
   if (count)
      *count = n;
   return lines;
}

static void free_lines(char **lines)
{
   char **l;
   for (l = lines; l && *l; l++)
      free(*l);
   free(lines);
}

/*------------------------------------------------------------*/
/*--- Running vgdb                                         ---*/
/*------------------------------------------------------------*/

typedef enum {
   Vg_Exited,        /* vgdb ran and exited; see status */
   Vg_NotRun,        /* vgdb could not be started; see exec_errno */
   Vg_PtraceDenied,  /* vgdb may not ptrace the process, and the
                        process did not answer by itself */
   Vg_TimedOut,      /* no end within timeout_s */
   Vg_Interrupted    /* Ctrl-C */
} VgOutcome;

typedef struct {
   VgOutcome outcome;
   int       status;       /* exit status when Vg_Exited, else -1 */
   int       exec_errno;
   Buf       out, err;
} VgRun;

static int ptrace_refused(const char *err)
{
   return strstr(err, "PTRACE_ATTACH") != NULL
          && strstr(err, "Operation not permitted") != NULL;
}

/* Runs vgdb with |args| after the --vgdb-prefix option (if any); its
   standard input is /dev/null. */
static void vgdb_run(const char *const *args, int nargs, VgRun *r)
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

static void vgrun_free(VgRun *r)
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

/* Says why a vgdb run did not deliver a command to process |pid|, or
   returns 0 if it did. */
static int vgdb_trouble(const VgRun *r, pid_t pid)
{
   const char *err = buf_cstr(&r->err);
   Buf         detail = { 0 };
   int         trouble = 1;

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
      if (r->status == 0)
         return 0;
      if (strstr(err, "no FIFO found matching pid")) {
         if (kill(pid, 0) != 0 && errno == ESRCH)
            say("process %d is gone", (int)pid);
         else
            say("vgdb cannot reach process %d: it is not running under "
                "Valgrind, its gdbserver is off (--vgdb=no) or it uses "
                "another --vgdb-prefix", (int)pid);
         return 1;
      }
      if (strstr(err, "existence failed")) {
         say("process %d ended before it answered", (int)pid);
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

/*------------------------------------------------------------*/
/*--- Valgrind processes: vgdb -l and /proc                ---*/
/*------------------------------------------------------------*/

typedef struct {
   pid_t  pid;
   char **argv;      /* the command line (NULL-terminated) */
   char  *tool;      /* the Valgrind tool, or NULL if not known */
} VgProc;

/* /proc/<pid>/cmdline as an argv, or NULL. */
static char **proc_argv(pid_t pid)
{
   char    path[64], chunk[4096];
   Buf     b = { 0 };
   int     fd, n = 0;
   ssize_t got;
   char  **argv = NULL;
   size_t  i, start = 0;

   snprintf(path, sizeof path, "/proc/%d/cmdline", (int)pid);
   fd = open(path, O_RDONLY);
   if (fd < 0)
      return NULL;
   while ((got = read(fd, chunk, sizeof chunk)) > 0)
      buf_add(&b, chunk, got);
   close(fd);
   if (b.len == 0) {
      buf_free(&b);
      return NULL;
   }
   for (i = 0; i <= b.len; i++) {
      if (i < b.len && b.s[i] != '\0')
         continue;
      if (i == b.len && i == start)
         break;
      argv = xrealloc(argv, (n + 2) * sizeof *argv);
      argv[n] = xrealloc(NULL, i - start + 1);
      memcpy(argv[n], b.s + start, i - start);
      argv[n][i - start] = '\0';
      n++;
      start = i + 1;
   }
   buf_free(&b);
   argv[n] = NULL;
   return argv;
}

/* The words of |s| (split at spaces) as an argv. */
static char **words_argv(const char *s)
{
   char **argv = NULL;
   int    n = 0;
   while (*s) {
      const char *e;
      while (*s == ' ')
         s++;
      if (!*s)
         break;
      e = strchr(s, ' ');
      if (!e)
         e = s + strlen(s);
      argv = xrealloc(argv, (n + 2) * sizeof *argv);
      argv[n] = xrealloc(NULL, e - s + 1);
      memcpy(argv[n], s, e - s);
      argv[n][e - s] = '\0';
      n++;
      s = e;
   }
   argv = xrealloc(argv, (n + 1) * sizeof *argv);
   argv[n] = NULL;
   return argv;
}

/* The index of the client program in a Valgrind command line: the first
   word after argv[0] that is not an option (Valgrind's options are all
   single words), or -1. */
static int client_index(char **argv)
{
   int i;
   for (i = 1; argv[i]; i++) {
      if (strcmp(argv[i], "--") == 0)
         return argv[i + 1] ? i + 1 : -1;
      if (argv[i][0] != '-')
         return i;
   }
   return -1;
}

/* The value of Valgrind option |opt| ("--tool=") in a command line. */
static const char *vg_option(char **argv, const char *opt)
{
   int i, end = client_index(argv);
   const char *val = NULL;
   for (i = 1; argv[i] && (end < 0 || i < end); i++)
      if (strncmp(argv[i], opt, strlen(opt)) == 0)
         val = argv[i] + strlen(opt);
   return val;
}

/* The tool process |pid| runs: from its executable (Valgrind runs the
   tool, e.g. .../ws-amd64-linux), else from --tool= on its command
   line; NULL if neither tells. */
static char *proc_tool(pid_t pid, char **argv)
{
   char        path[64], exe[PATH_MAX];
   ssize_t     n;
   const char *t;
   snprintf(path, sizeof path, "/proc/%d/exe", (int)pid);
   n = readlink(path, exe, sizeof exe - 1);
   if (n > 0) {
      char *base, *dash;
      int   k;
      exe[n] = '\0';
      base = strrchr(exe, '/') ? strrchr(exe, '/') + 1 : exe;
      /* <tool>-<arch>-<os>: drop the last two parts. */
      for (k = 0; k < 2 && (dash = strrchr(base, '-')) != NULL; k++)
         *dash = '\0';
      if (k == 2 && *base)
         return xstrdup(base);
   }
   t = argv ? vg_option(argv, "--tool=") : NULL;
   return t && *t ? xstrdup(t) : NULL;
}

static void free_procs(VgProc *procs, int n)
{
   int i;
   for (i = 0; i < n; i++) {
      free_lines(procs[i].argv);
      free(procs[i].tool);
   }
   free(procs);
}

/* The Valgrind processes vgdb -l lists (with our --vgdb-prefix).
   Returns -1 (having said why) if vgdb could not be run. */
static int list_vg_procs(VgProc **procs)
{
   const char *args[] = { "-l" };
   VgRun       r;
   char      **lines, **l;
   int         n = 0;

   *procs = NULL;
   vgdb_run(args, 1, &r);
   if (r.outcome != Vg_Exited) {
      vgdb_trouble(&r, 0);
      vgrun_free(&r);
      return -1;
   }
   /* vgdb -l exits with status 1 even when it lists processes. */
   lines = split_lines(buf_cstr(&r.out), NULL);
   for (l = lines; *l; l++) {
      int   pid, used = 0;
      char *rest;
      if (sscanf(*l, "use --pid=%d for %n", &pid, &used) < 1 || used == 0)
         continue;
      rest = *l + used;
      *procs = xrealloc(*procs, (n + 1) * sizeof **procs);
      (*procs)[n].pid = pid;
      (*procs)[n].argv = proc_argv(pid);
      if ((*procs)[n].argv == NULL)
         (*procs)[n].argv = words_argv(rest);
      (*procs)[n].tool = proc_tool(pid, (*procs)[n].argv);
      n++;
   }
   free_lines(lines);
   vgrun_free(&r);
   return n;
}

/* The client's command line (program and arguments) from a Valgrind
   command line, into |b|. */
static void client_command(char **argv, Buf *b)
{
   int i = argv ? client_index(argv) : -1;
   if (i < 0) {
      buf_str(b, "(command line not known)");
      return;
   }
   for (; argv[i]; i++) {
      if (b->len)
         buf_str(b, " ");
      buf_str(b, argv[i]);
   }
}

static int is_valgrind_argv0(const char *a0)
{
   const char *base = strrchr(a0, '/') ? strrchr(a0, '/') + 1 : a0;
   return strcmp(base, "valgrind") == 0 || strcmp(base, "valgrind.bin") == 0;
}

/* With no --pid: the ws processes vgdb can reach, then the ws processes
   it cannot (found in /proc), saying why. */
static int list_ws_processes(void)
{
   VgProc        *procs;
   int            n = list_vg_procs(&procs), i, shown = 0, others = 0;
   int            unreachable = 0;
   DIR           *dir;
   struct dirent *de;

   if (n < 0)
      return EXIT_UNREACHABLE;
   for (i = 0; i < n; i++) {
      Buf cmd = { 0 };
      if (!procs[i].tool || strcmp(procs[i].tool, "ws") != 0) {
         others++;
         continue;
      }
      if (shown++ == 0)
         printf("%-8s %s\n", "PID", "COMMAND (under valgrind --tool=ws)");
      client_command(procs[i].argv, &cmd);
      printf("%-8d %s\n", (int)procs[i].pid, buf_cstr(&cmd));
      buf_free(&cmd);
   }
   if (shown == 0)
      printf("no ws process that vgdb can reach%s%s\n",
             vgdb_prefix ? " with --vgdb-prefix=" : "",
             vgdb_prefix ? vgdb_prefix : "");
   if (others)
      printf("(%d other Valgrind process%s, not running ws)\n", others,
             others == 1 ? "" : "es");

   /* ws processes that vgdb -l did not list. */
   dir = opendir("/proc");
   while (dir && (de = readdir(dir)) != NULL) {
      char **argv;
      char  *tool;
      char  *end;
      long   pid = strtol(de->d_name, &end, 10);
      int    j, listed = 0;
      if (*end != '\0' || pid <= 0 || pid == (long)getpid())
         continue;
      for (j = 0; j < n; j++)
         if (procs[j].pid == pid)
            listed = 1;
      if (listed || (argv = proc_argv(pid)) == NULL)
         continue;
      tool = is_valgrind_argv0(argv[0]) ? proc_tool(pid, argv) : NULL;
      if (tool && strcmp(tool, "ws") == 0) {
         Buf         cmd = { 0 };
         const char *vg = vg_option(argv, "--vgdb=");
         const char *pfx = vg_option(argv, "--vgdb-prefix=");
         if (unreachable++ == 0)
            printf("ws processes that vgdb cannot reach%s:\n",
                   vgdb_prefix ? " with this --vgdb-prefix" : "");
         client_command(argv, &cmd);
         printf("%-8ld %s\n", pid, buf_cstr(&cmd));
         if (vg && strcmp(vg, "no") == 0)
            printf("         (started with --vgdb=no)\n");
         else if (pfx && (!vgdb_prefix || strcmp(pfx, vgdb_prefix) != 0))
            printf("         (give ws-monitor --vgdb-prefix=%s)\n", pfx);
         else if (!pfx && vgdb_prefix)
            printf("         (it uses vgdb's default prefix: leave out "
                   "--vgdb-prefix)\n");
         buf_free(&cmd);
      }
      free(tool);
      free_lines(argv);
   }
   if (dir)
      closedir(dir);
   free_procs(procs, n);
   return 0;
}

/* Checks that |pid| is a ws process vgdb can reach; says why not and
   returns EXIT_UNREACHABLE if it is not, 0 if it is (or may be). */
static int check_target(pid_t pid)
{
   VgProc *procs;
   int     n, i, status = 0, found = -1;

   if (kill(pid, 0) != 0 && errno == ESRCH) {
      say("there is no process %d", (int)pid);
      return EXIT_UNREACHABLE;
   }
   n = list_vg_procs(&procs);
   if (n < 0)
      return EXIT_UNREACHABLE;
   for (i = 0; i < n; i++)
      if (procs[i].pid == pid)
         found = i;
   if (found < 0) {
      char **argv = proc_argv(pid);
      char  *tool = argv && is_valgrind_argv0(argv[0])
                    ? proc_tool(pid, argv) : NULL;
      Buf    cmd = { 0 };
      if (argv)
         buf_str(&cmd, argv[0]);
      if (tool == NULL) {
         say("process %d (%s) is not running under Valgrind", (int)pid,
             cmd.len ? cmd.s : "?");
      } else {
         const char *vg = vg_option(argv, "--vgdb=");
         const char *pfx = vg_option(argv, "--vgdb-prefix=");
         if (vg && strcmp(vg, "no") == 0)
            say("process %d runs under Valgrind with --vgdb=no: its "
                "gdbserver is off, so it cannot be reached", (int)pid);
         else if (pfx && (!vgdb_prefix || strcmp(pfx, vgdb_prefix) != 0))
            say("vgdb cannot find process %d: it was started with "
                "--vgdb-prefix=%s; give ws-monitor the same option",
                (int)pid, pfx);
         else if (!pfx && vgdb_prefix)
            say("vgdb cannot find process %d under --vgdb-prefix=%s: it "
                "was started without --vgdb-prefix; leave the option out",
                (int)pid, vgdb_prefix);
         else
            say("vgdb cannot find process %d under %s%s", (int)pid,
                vgdb_prefix ? "--vgdb-prefix=" : "the default prefix",
                vgdb_prefix ? vgdb_prefix : "");
         if (strcmp(tool, "ws") != 0)
            say("(and it runs Valgrind's %s tool, not ws)", tool);
      }
      free(tool);
      free_lines(argv);
      buf_free(&cmd);
      status = EXIT_UNREACHABLE;
   } else if (procs[found].tool && strcmp(procs[found].tool, "ws") != 0) {
      say("process %d runs Valgrind's %s tool, not ws: ws-monitor talks "
          "only to programs run with valgrind --tool=ws", (int)pid,
          procs[found].tool);
      status = EXIT_UNREACHABLE;
   }
   free_procs(procs, n);
   return status;
}

/*------------------------------------------------------------*/
/*--- Commands and replies                                 ---*/
/*------------------------------------------------------------*/

/* The command line to send for what the user typed: ws's commands get
   their leading "ws" (if it was left out); Valgrind's own "v.*"
   commands go as they are. */
static char *to_monitor_command(const char *typed)
{
   Buf b = { 0 };
   while (*typed == ' ' || *typed == '\t')
      typed++;
   if (strncmp(typed, "v.", 2) != 0
       && !(strncmp(typed, "ws", 2) == 0
            && (typed[2] == '\0' || typed[2] == ' ')))
      buf_str(&b, "ws ");
   buf_str(&b, typed);
   while (b.len && (b.s[b.len - 1] == ' ' || b.s[b.len - 1] == '\t'))
      b.s[--b.len] = '\0';
   return b.s;
}

/* The one-line replies of ws/ws_monitor.c and ws/ws_control.c that
   mean the command was accepted.  Every other one-line reply is a
   refusal: ws answers a refused command with exactly one line that says
   why (and changes nothing).  Replies of several lines (status, help, a
   dump, samples) are answers.  tests/test_monitor.py checks this against
   every kind of reply of the ws built with this tree. */
static const char *const accepted_one_line[] = {
   "^ws start: measurement on at t=[0-9]+$",
   "^ws stop: measurement off at t=[0-9]+$",
   "^ws mark: '.*' at t=[0-9]+$",
   "^ws set [a-z-]+: [a-z-]+ is now [0-9]+ \\(was [0-9]+\\) from t=[0-9]+$",
   "^ws dump: [0-9]+ insn pages, [0-9]+ data pages written to .+$",
   "^ws series: no samples yet$",
   "^(Code|Data) pages: the [0-9]+ hottest of [0-9]+ touched .*$",
};

/* What the core answers for a command nobody knows, or for a keyword
   that matches no or several commands (VG_(keyword_id)). */
static int core_refusal(const char *reply)
{
   return (strncmp(reply, "command '", 9) == 0
           && strstr(reply, "' not recognised") != NULL)
          || strstr(reply, " does not match any of '") != NULL
          || strstr(reply, " can match ") != NULL;
}

static int reply_accepted(const char *command, const char *reply)
{
   char **lines;
   int    n, i, nonempty = 0, ok = 0;
   const char *line = NULL;

   if (core_refusal(reply))
      return 0;
   if (strncmp(command, "ws", 2) != 0)
      return 1;                  /* a core command: no more to go on */
   lines = split_lines(reply, &n);
   for (i = 0; i < n; i++)
      if (lines[i][0] != '\0') {
         nonempty++;
         line = lines[i];
      }
   if (nonempty > 1) {
      ok = 1;
   } else if (nonempty == 1) {
      for (i = 0; i < (int)(sizeof accepted_one_line
                            / sizeof accepted_one_line[0]) && !ok; i++) {
         regex_t re;
         if (regcomp(&re, accepted_one_line[i], REG_EXTENDED | REG_NOSUB)
             != 0)
            continue;
         ok = regexec(&re, line, 0, NULL, 0) == 0;
         regfree(&re);
      }
   }
   free_lines(lines);
   return ok;
}

/* Sends |ncmds| monitor commands (already with their "ws") in one vgdb
   run; the replies arrive one after the other in r->out.  Returns 0, or
   EXIT_UNREACHABLE having said why. */
static int send_commands(const char *const *cmds, int ncmds, VgRun *r)
{
   const char **args = xrealloc(NULL, (2 * ncmds + 1) * sizeof *args);
   char         pidopt[32];
   int          i, n = 0;
   snprintf(pidopt, sizeof pidopt, "--pid=%d", (int)target);
   args[n++] = pidopt;
   for (i = 0; i < ncmds; i++) {
      if (i > 0)
         args[n++] = "-c";
      args[n++] = cmds[i];
   }
   vgdb_run(args, n, r);
   free(args);
   return vgdb_trouble(r, target) ? EXIT_UNREACHABLE : 0;
}

/* One command: prints the reply; returns the exit status. */
static int run_command(const char *typed)
{
   char *cmd = to_monitor_command(typed);
   VgRun r;
   int   status = send_commands((const char *const *)&cmd, 1, &r);
   if (status == 0) {
      const char *reply = buf_cstr(&r.out);
      fputs(reply, stdout);
      if (r.out.len && reply[r.out.len - 1] != '\n')
         putchar('\n');
      fflush(stdout);
      if (strncmp(reply, "command 'ws", 11) == 0
          && strstr(reply, "' not recognised")) {
         say("process %d does not know ws's commands: is it running "
             "valgrind --tool=ws?", (int)target);
         status = EXIT_UNREACHABLE;
      } else if (!reply_accepted(cmd, reply)) {
         status = EXIT_REFUSED;
      }
   }
   vgrun_free(&r);
   free(cmd);
   return status;
}

/*------------------------------------------------------------*/
/*--- The live view (watch)                                ---*/
/*------------------------------------------------------------*/

typedef struct {
   unsigned long long t, insn, data;
} Sample;

/* The samples of a "ws series" reply; returns how many (and the total
   the reply names in |total|). */
static int parse_series(const char *reply, Sample **out, unsigned long long
                        *total)
{
   char **lines = split_lines(reply, NULL), **l;
   int    n = 0, in_series = 0;
   *out = NULL;
   *total = 0;
   for (l = lines; *l; l++) {
      Sample s;
      char   extra;
      unsigned long long got;
      if (strncmp(*l, "ws series:", 10) == 0) {
         in_series = 1;
         if (sscanf(*l, "ws series: the last %llu of %llu", &got, total)
             != 2)
            *total = 0;
         continue;
      }
      if (in_series
          && sscanf(*l, "%llu %llu %llu %c", &s.t, &s.insn, &s.data, &extra)
             == 3) {
         *out = xrealloc(*out, (n + 1) * sizeof **out);
         (*out)[n++] = s;
      }
   }
   free_lines(lines);
   return n;
}

static int utf8_locale(void)
{
   const char *cs = nl_langinfo(CODESET);
   return cs && (strcasecmp(cs, "UTF-8") == 0 || strcasecmp(cs, "utf8") == 0);
}

/* A sparkline of |n| values, each scaled to the largest; eight levels,
   Unicode blocks or (not UTF-8) ASCII. */
static void sparkline(Buf *b, const Sample *s, int n, int data, int utf8)
{
   static const char *const blocks[8] = {
      "\xe2\x96\x81", "\xe2\x96\x82", "\xe2\x96\x83", "\xe2\x96\x84",
      "\xe2\x96\x85", "\xe2\x96\x86", "\xe2\x96\x87", "\xe2\x96\x88" };
   static const char ascii[] = "_.-:=+*#";
   unsigned long long max = 0;
   int i;
   for (i = 0; i < n; i++) {
      unsigned long long v = data ? s[i].data : s[i].insn;
      if (v > max)
         max = v;
   }
   for (i = 0; i < n; i++) {
      unsigned long long v = data ? s[i].data : s[i].insn;
      int level = max ? (int)((v * 7 + max / 2) / max) : 0;
      if (utf8)
         buf_str(b, blocks[level]);
      else
         buf_add(b, &ascii[level], 1);
   }
}

static int term_width(void)
{
   struct winsize ws;
   if (ioctl(1, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20)
      return ws.ws_col;
   return 80;
}

/* One frame of the live view into |b|. */
static void watch_frame(Buf *b, int frame, double interval,
                        const char *reply, int utf8)
{
   char  **lines = split_lines(reply, NULL), **l;
   Sample *s;
   unsigned long long total;
   int     n = parse_series(reply, &s, &total), width = term_width() - 40;
   int     first, kind;

   buf_printf(b, "ws-monitor: process %d, every %g s (frame %d); press a "
              "key to stop\n\n", (int)target, interval, frame);
   for (l = lines; *l && strncmp(*l, "ws series:", 10) != 0; l++)
      if (**l)
         buf_printf(b, "%s\n", *l);
   buf_str(b, "\n");
   if (n == 0) {
      buf_str(b, "no samples yet\n");
   } else {
      if (width < 10)
         width = 10;
      first = n > width ? n - width : 0;
      buf_printf(b, "the last %d of %llu samples, t=%llu .. %llu:\n",
                 n - first, total, s[first].t, s[n - 1].t);
      for (kind = 0; kind < 2; kind++) {
         unsigned long long max = 0;
         int i;
         for (i = first; i < n; i++)
            if ((kind ? s[i].data : s[i].insn) > max)
               max = kind ? s[i].data : s[i].insn;
         buf_str(b, kind ? "  data " : "  insn ");
         sparkline(b, s + first, n - first, kind, utf8);
         buf_printf(b, "  last %llu, max %llu pages\n",
                    kind ? s[n - 1].data : s[n - 1].insn, max);
      }
   }
   free(s);
   free_lines(lines);
}

/* Redraws status and samples every |interval| seconds until a key is
   pressed (or Ctrl-C).  Returns EXIT_UNREACHABLE if the process went
   away, else 0. */
static int watch(double interval)
{
   static const char *const cmds[] = { "ws status", SERIES_COMMAND };
   struct termios saved, raw;
   int    tty = isatty(0) && tcgetattr(0, &saved) == 0;
   int    utf8 = utf8_locale(), frame, status = 0;

   if (tty) {
      raw = saved;
      raw.c_lflag &= ~(ICANON | ECHO);
      raw.c_cc[VMIN] = 1;
      raw.c_cc[VTIME] = 0;
      tcsetattr(0, TCSANOW, &raw);
   }
   got_sigint = 0;
   for (frame = 1; ; frame++) {
      VgRun  r;
      Buf    screen = { 0 };
      struct pollfd pfd;
      int    ready, wait_ms;
      double started = now_s();
      if (send_commands(cmds, 2, &r) != 0) {
         vgrun_free(&r);
         if (!got_sigint)
            status = EXIT_UNREACHABLE;
         break;
      }
      buf_str(&screen, "\033[H\033[2J");
      watch_frame(&screen, frame, interval, buf_cstr(&r.out), utf8);
      fputs(screen.s, stdout);
      fflush(stdout);
      buf_free(&screen);
      vgrun_free(&r);
      pfd.fd = 0;
      pfd.events = POLLIN;
      /* The next frame |interval| after this one was asked for, but
         never sooner than 50 ms after it was drawn. */
      wait_ms = (int)((started + interval - now_s()) * 1000);
      if (wait_ms < 50)
         wait_ms = 50;
      do
         ready = poll(&pfd, 1, wait_ms);
      while (ready < 0 && errno == EINTR && !got_sigint);
      if (got_sigint)
         break;
      if (ready > 0) {
         char    keys[64];
         ssize_t got = read(0, keys, sizeof keys);
         (void)got;
         break;
      }
   }
   if (tty)
      tcsetattr(0, TCSANOW, &saved);
   got_sigint = 0;
   return status;
}

/*------------------------------------------------------------*/
/*--- The prompt                                           ---*/
/*------------------------------------------------------------*/

/* ws's commands and the parameters of "ws set", from "ws help". */
static char **ws_commands;
static char **set_params;
static const char *const local_commands[] = { "help", "watch", "quit",
                                              "exit", NULL };

static void add_word(char ***list, const char *w, size_t len)
{
   int n = 0;
   while (*list && (*list)[n]) {
      if (strlen((*list)[n]) == len && strncmp((*list)[n], w, len) == 0)
         return;
      n++;
   }
   *list = xrealloc(*list, (n + 2) * sizeof **list);
   (*list)[n] = xrealloc(NULL, len + 1);
   memcpy((*list)[n], w, len);
   (*list)[n][len] = '\0';
   (*list)[n + 1] = NULL;
}

/* The "  ws <command>" lines of ws's help. */
static void learn_commands(const char *help)
{
   char **lines = split_lines(help, NULL), **l;
   for (l = lines; *l; l++) {
      const char *p = *l, *e;
      if (strncmp(p, "  ws ", 5) != 0)
         continue;
      p += 5;
      for (e = p; *e && *e != ' '; e++)
         ;
      add_word(&ws_commands, p, e - p);
      if (e - p == 3 && strncmp(p, "set", 3) == 0 && *e == ' ') {
         const char *q = e + 1, *qe;
         for (qe = q; *qe && *qe != ' '; qe++)
            ;
         if (qe > q && *q != '<')
            add_word(&set_params, q, qe - q);
      }
   }
   free_lines(lines);
   if (ws_commands == NULL) {
      static const char *const fallback[] = { "help", "status", "dump",
         "series", "set", "start", "stop", "mark", "hot", "peaks", "heap",
         NULL };
      const char *const *f;
      for (f = fallback; *f; f++)
         add_word(&ws_commands, *f, strlen(*f));
   }
   if (set_params == NULL) {
      add_word(&set_params, "tau", 3);
      add_word(&set_params, "every", 5);
   }
}

/* Completion candidates for the word being completed. */
static const char *const *cand_lists[3];

/* The page kinds "ws hot [<n>] [insn|data]" takes, and the keys of
   "ws heap [<n>] [usage|useful|bytes|never]". */
static const char *const page_kinds[] = { "insn", "data", NULL };
static const char *const heap_keys[] = { "usage", "useful", "bytes", "never",
                                         NULL };

static int is_number(const char *w, size_t len)
{
   size_t i;
   for (i = 0; i < len; i++)
      if (w[i] < '0' || w[i] > '9')
         return 0;
   return len > 0;
}

static char *candidates(const char *text, int state)
{
   static int list, idx;
   size_t     len = strlen(text);
   if (state == 0)
      list = idx = 0;
   for (; list < 3 && cand_lists[list]; list++, idx = 0) {
      while (cand_lists[list][idx]) {
         const char *w = cand_lists[list][idx++];
         if (strncmp(w, text, len) == 0)
            return xstrdup(w);
      }
   }
   return NULL;
}

/* The one command of |list| that |word| names or abbreviates, or NULL. */
static const char *resolve(char *const *list, const char *word, size_t len)
{
   const char *found = NULL;
   for (; list && *list; list++) {
      if (strlen(*list) == len && strncmp(*list, word, len) == 0)
         return *list;
      if (strncmp(*list, word, len) == 0) {
         if (found)
            return NULL;
         found = *list;
      }
   }
   return found;
}

static char **complete(const char *text, int start, int end)
{
   const char *line = rl_line_buffer, *p = line, *words[3];
   size_t      lens[3];
   int         n = 0;
   (void)end;
   rl_attempted_completion_over = 1;
   /* The words before the one being completed. */
   while (p < line + start) {
      const char *e;
      while (p < line + start && (*p == ' ' || *p == '\t'))
         p++;
      if (p >= line + start)
         break;
      for (e = p; e < line + start && *e != ' ' && *e != '\t'; e++)
         ;
      if (e == line + start)
         break;                      /* the word being completed */
      if (n < 3) {
         words[n] = p;
         lens[n] = e - p;
      }
      n++;
      p = e;
   }
   if (n > 0 && lens[0] == 2 && strncmp(words[0], "ws", 2) == 0) {
      memmove(words, words + 1, 2 * sizeof *words);
      memmove(lens, lens + 1, 2 * sizeof *lens);
      n--;
      if (n == 0) {
         cand_lists[0] = (const char *const *)ws_commands;
         cand_lists[1] = NULL;
         return rl_completion_matches(text, candidates);
      }
   }
   if (n == 0) {
      cand_lists[0] = (const char *const *)ws_commands;
      cand_lists[1] = local_commands;
      cand_lists[2] = NULL;
      return rl_completion_matches(text, candidates);
   }
   if (n == 1) {
      const char *cmd = resolve(ws_commands, words[0], lens[0]);
      if (cmd && strcmp(cmd, "set") == 0) {
         cand_lists[0] = (const char *const *)set_params;
         cand_lists[1] = NULL;
         return rl_completion_matches(text, candidates);
      }
      if (cmd && strcmp(cmd, "dump") == 0) {
         rl_attempted_completion_over = 0;
         return NULL;                /* readline completes file names */
      }
   }
   /* ws hot's kind and ws heap's key: right after the command, or after
      its count. */
   if (n == 1 || (n == 2 && is_number(words[1], lens[1]))) {
      const char *cmd = resolve(ws_commands, words[0], lens[0]);
      if (cmd && (strcmp(cmd, "hot") == 0 || strcmp(cmd, "heap") == 0)) {
         cand_lists[0] = cmd[1] == 'o' ? page_kinds : heap_keys;
         cand_lists[1] = NULL;
         return rl_completion_matches(text, candidates);
      }
   }
   return NULL;
}

/* Reading a line.  readline's callback interface, so that Ctrl-C (which
   arrives while select() waits, or while readline handles a key and
   passes it on to on_sigint) is seen here: it drops the line and gives a
   fresh prompt, as in a shell. */
static char *cb_line;
static int   cb_got_line;

static void on_line(char *line)
{
   cb_line = line;
   cb_got_line = 1;
   rl_callback_handler_remove();     /* the terminal as it was */
}

/* The next line, or NULL at the end of input (Ctrl-D). */
static char *read_line(const char *prompt)
{
   cb_got_line = 0;
   cb_line = NULL;
   got_sigint = 0;
   rl_callback_handler_install(prompt, on_line);
   while (!cb_got_line) {
      fd_set in;
      if (got_sigint) {
         got_sigint = 0;
         rl_free_line_state();
         rl_callback_sigcleanup();
         rl_replace_line("", 0);
         rl_crlf();
         rl_on_new_line();
         rl_redisplay();
      }
      FD_ZERO(&in);
      FD_SET(0, &in);
      if (select(1, &in, NULL, NULL, NULL) < 0) {
         if (errno == EINTR)
            continue;
         rl_callback_handler_remove();
         break;
      }
      rl_callback_read_char();
   }
   return cb_line;
}

static void local_help(void)
{
   printf("ws-monitor commands (answered here):\n"
          "  help              this text, then the commands of ws\n"
          "  watch [<s>]       a live view of the status and the recent "
          "samples, redrawn\n"
          "                    every <s> seconds (default 1) until a key "
          "is pressed\n"
          "  quit, exit        leave (so does Ctrl-D); the program goes on\n"
          "Everything else goes to process %d: the ws commands below (the "
          "leading \"ws\"\n"
          "may be left out; Tab completes them), or Valgrind's own v.* "
          "commands.\n", (int)target);
}

static char *history_path(void)
{
   const char *env = getenv("WS_MONITOR_HISTORY"), *home;
   Buf         b = { 0 };
   if (env && *env)
      return xstrdup(env);
   home = getenv("HOME");
   if (!home || !*home) {
      struct passwd *pw = getpwuid(getuid());
      home = pw ? pw->pw_dir : NULL;
   }
   if (!home)
      return NULL;
   buf_printf(&b, "%s/.ws_monitor_history", home);
   return b.s;
}

/* Whether |line| is a number of seconds for watch; 0 = the default. */
static int watch_interval(const char *arg, double *s)
{
   char *end;
   while (*arg == ' ')
      arg++;
   if (*arg == '\0') {
      *s = 1;
      return 1;
   }
   *s = strtod(arg, &end);
   while (*end == ' ')
      end++;
   return *end == '\0' && *s >= 0.05 && *s <= 3600;
}

/* Runs one line typed at the prompt; returns 1 to leave. */
static int do_line(const char *line, int *status)
{
   const char *p = line;
   size_t      len;
   while (*p == ' ' || *p == '\t')
      p++;
   for (len = 0; p[len] && p[len] != ' ' && p[len] != '\t'; len++)
      ;
   if (len == 0)
      return 0;
   if ((len == 4 && strncmp(p, "quit", 4) == 0)
       || (len == 4 && strncmp(p, "exit", 4) == 0))
      return 1;
   if (len == 4 && strncmp(p, "help", 4) == 0 && p[len] == '\0') {
      local_help();
      *status = run_command("ws help");
   } else if (len == 5 && strncmp(p, "watch", 5) == 0) {
      double s;
      if (!watch_interval(p + 5, &s)) {
         printf("watch: give a number of seconds from 0.05 to 3600\n");
         return 0;
      }
      *status = watch(s);
   } else {
      *status = run_command(p);
   }
   if (*status == EXIT_UNREACHABLE && kill(target, 0) != 0
       && errno == ESRCH)
      return 1;                      /* the process is gone */
   return 0;
}

static int interactive(void)
{
   char *hist = history_path();
   int   status = check_target(target), tty = isatty(0);
   VgRun r;
   static const char *const help_cmd[] = { "ws help" };
   char  prompt[64];

   if (status != 0) {
      free(hist);
      return status;
   }
   if (send_commands(help_cmd, 1, &r) != 0) {
      vgrun_free(&r);
      free(hist);
      return EXIT_UNREACHABLE;
   }
   learn_commands(buf_cstr(&r.out));
   vgrun_free(&r);

   if (!tty) {
      /* Commands from a pipe or file: no prompt, no history. */
      char   *line = NULL;
      size_t  cap = 0;
      ssize_t got;
      int     last = 0;
      while ((got = getline(&line, &cap, stdin)) > 0) {
         if (line[got - 1] == '\n')
            line[got - 1] = '\0';
         if (do_line(line, &last))
            break;
         if (last > status)
            status = last;
      }
      free(line);
      free(hist);
      return status;
   }

   rl_readline_name = "ws-monitor";
   rl_attempted_completion_function = complete;
   rl_basic_word_break_characters = " \t";
   using_history();
   stifle_history(HISTORY_LINES);
   if (hist)
      read_history(hist);
   printf("ws-monitor: process %d. 'help' lists the commands; Tab "
          "completes.\n", (int)target);
   snprintf(prompt, sizeof prompt, "ws(%d)> ", (int)target);
   status = 0;
   for (;;) {
      char *line;
      got_sigint = 0;
      line = read_line(prompt);
      if (line == NULL) {
         putchar('\n');
         break;
      }
      {
         /* Completion leaves a blank at the end; history need not. */
         size_t len = strlen(line);
         while (len > 0 && (line[len - 1] == ' ' || line[len - 1] == '\t'))
            line[--len] = '\0';
      }
      if (line[strspn(line, " \t")] != '\0') {
         HIST_ENTRY *prev = history_length > 0
                            ? history_get(history_base + history_length - 1)
                            : NULL;
         if (!prev || strcmp(prev->line, line) != 0) {
            add_history(line);
            if (hist) {
               int fd = open(hist, O_WRONLY | O_CREAT | O_APPEND, 0600);
               if (fd >= 0)
                  close(fd);
               append_history(1, hist);
            }
         }
      }
      if (do_line(line, &status)) {
         free(line);
         break;
      }
      free(line);
   }
   if (hist)
      history_truncate_file(hist, HISTORY_LINES);
   free(hist);
   /* The process gone (vgdb_trouble said so) is the one failure. */
   return status == EXIT_UNREACHABLE && kill(target, 0) != 0
          ? EXIT_UNREACHABLE : 0;
}

/*------------------------------------------------------------*/
/*--- main                                                 ---*/
/*------------------------------------------------------------*/

static void usage(FILE *f)
{
   fprintf(f,
"usage: ws-monitor [OPTIONS]                 list the running ws processes\n"
"       ws-monitor [OPTIONS] --pid=N         a prompt for process N\n"
"       ws-monitor [OPTIONS] --pid=N CMD...  run one command and exit\n"
"\n"
"CMD is a ws monitor command (status, dump [file], series [n], set tau n,\n"
"set every n, start, stop, mark label, help; the leading \"ws\" may be left\n"
"out) or one of Valgrind's own v.* commands.\n"
"\n"
"options:\n"
"  --pid=N               the process (as vgdb -l or ws-monitor lists it)\n"
"  --vgdb-prefix=P       the --vgdb-prefix the process was started with\n"
"  --vgdb=PATH           the vgdb program [vgdb, from PATH]\n"
"  --timeout=S           give up when there is no answer in S seconds [30]\n"
"  -h, --help            this text\n"
"\n"
"Exit status: 0 done; 1 ws refused the command; 2 the process could not be\n"
"reached (no such process, not a ws process, vgdb missing or not allowed to\n"
"use ptrace, no answer); 64 bad usage.  The prompt keeps its history in\n"
"~/.ws_monitor_history (or in $WS_MONITOR_HISTORY).\n");
}

/* --name=value or --name value; returns the value or NULL. */
static const char *option_value(const char *name, int argc, char **argv,
                                int *i)
{
   size_t n = strlen(name);
   if (strncmp(argv[*i], name, n) != 0)
      return NULL;
   if (argv[*i][n] == '=')
      return argv[*i] + n + 1;
   if (argv[*i][n] == '\0') {
      if (*i + 1 >= argc) {
         say("%s needs a value", name);
         exit(EXIT_USAGE);
      }
      return argv[++*i];
   }
   return NULL;
}

int main(int argc, char **argv)
{
   int              i, status;
   const char      *v;
   struct sigaction sa;

   setlocale(LC_ALL, "");
   memset(&sa, 0, sizeof sa);
   sa.sa_handler = on_sigint;
   sigemptyset(&sa.sa_mask);
   sigaction(SIGINT, &sa, NULL);     /* no SA_RESTART: poll() returns */

   for (i = 1; i < argc && argv[i][0] == '-'; i++) {
      if (strcmp(argv[i], "--") == 0) {
         i++;
         break;
      } else if (strcmp(argv[i], "-h") == 0
                 || strcmp(argv[i], "--help") == 0) {
         usage(stdout);
         return 0;
      } else if ((v = option_value("--pid", argc, argv, &i)) != NULL) {
         char *end;
         long  pid = strtol(v, &end, 10);
         if (*v == '\0' || *end != '\0' || pid <= 0 || pid > INT_MAX) {
            say("--pid: '%s' is not a process id", v);
            return EXIT_USAGE;
         }
         target = (pid_t)pid;
      } else if ((v = option_value("--vgdb-prefix", argc, argv, &i)) != NULL) {
         vgdb_prefix = v;
      } else if ((v = option_value("--vgdb", argc, argv, &i)) != NULL) {
         vgdb_path = v;
      } else if ((v = option_value("--timeout", argc, argv, &i)) != NULL) {
         char *end;
         timeout_s = strtod(v, &end);
         if (*v == '\0' || *end != '\0' || !(timeout_s > 0)) {
            say("--timeout: '%s' is not a number of seconds", v);
            return EXIT_USAGE;
         }
      } else {
         say("unknown option '%s' (ws-monitor --help lists them)", argv[i]);
         return EXIT_USAGE;
      }
   }

   if (target == 0) {
      if (i < argc) {
         say("a command needs --pid=N (ws-monitor alone lists the "
             "processes)");
         return EXIT_USAGE;
      }
      return list_ws_processes();
   }
   if (i == argc)
      return interactive();

   status = check_target(target);
   if (status == 0) {
      Buf cmd = { 0 };
      for (; i < argc; i++) {
         if (cmd.len)
            buf_str(&cmd, " ");
         buf_str(&cmd, argv[i]);
      }
      status = run_command(buf_cstr(&cmd));
      buf_free(&cmd);
   }
   return status;
}

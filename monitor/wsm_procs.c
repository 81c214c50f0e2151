/* ws-monitor: the Valgrind processes: vgdb -l and /proc.

   Copyright (C) 2026 the ws authors.

   This program is free software; you can redistribute it and/or
   modify it under the terms of the GNU General Public License as
   published by the Free Software Foundation; either version 2 of the
   License, or (at your option) any later version.

   The GNU General Public License is contained in the file COPYING.
*/

#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <unistd.h>

#include "wsm.h"

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

/* Whether a Valgrind process's own options put it out of vgdb's reach
   under this run's prefix.  They decide even when FIFOs for its pid are
   found: a process killed by SIGKILL leaves its FIFOs behind, and its
   pid may now be another Valgrind's, under another prefix. */
typedef enum {
   Reach_Ok,
   Reach_GdbserverOff,          /* --vgdb=no */
   Reach_OtherPrefix,           /* its --vgdb-prefix is not ours */
   Reach_DefaultPrefix          /* ours is given, it uses the default */
} Reach;

static Reach reach_by_options(char **argv, const char **its_prefix)
{
   const char *vg = argv ? vg_option(argv, "--vgdb=") : NULL;
   const char *pfx = argv ? vg_option(argv, "--vgdb-prefix=") : NULL;
   *its_prefix = pfx;
   if (vg && strcmp(vg, "no") == 0)
      return Reach_GdbserverOff;
   if (pfx && (!vgdb_prefix || strcmp(pfx, vgdb_prefix) != 0))
      return Reach_OtherPrefix;
   if (!pfx && vgdb_prefix)
      return Reach_DefaultPrefix;
   return Reach_Ok;
}

static void free_proc_parts(VgProc *proc)
{
   free_lines(proc->argv);
   free(proc->tool);
}

static void free_procs(VgProc *procs, int n)
{
   int i;
   for (i = 0; i < n; i++)
      free_proc_parts(&procs[i]);
   free(procs);
}

/* Whether the FIFOs vgdb found for a Valgrind process with command line
   |argv| cannot be its own: it runs with its gdbserver off, or under a
   --vgdb-prefix other than ours.  A process killed by SIGKILL leaves its
   FIFOs behind, and its pid may since have gone to another Valgrind;
   vgdb would write to them and wait in vain. */
static int left_over_fifos(char **argv)
{
   const char *pfx;
   Reach       reach = reach_by_options(argv, &pfx);
   return reach == Reach_GdbserverOff || reach == Reach_OtherPrefix;
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
         (*procs)[n].argv = split_words(rest);
      (*procs)[n].tool = proc_tool(pid, (*procs)[n].argv);
      if ((*procs)[n].tool && left_over_fifos((*procs)[n].argv)) {
         free_proc_parts(&(*procs)[n]);
         continue;
      }
      n++;
   }
   free_lines(lines);
   vgrun_free(&r);
   return n;
}

/* |arg| as the output file's command: line has it (docs/output-format.md,
   "Escaping"): a backslash as \\, a control character, a space or a
   byte of no UTF-8 character as \xHH, so that an argument holding a
   newline cannot make a row of its own. */
static void buf_escaped_word(Buf *b, const char *arg)
{
   const unsigned char *s = (const unsigned char *)arg;
   while (*s) {
      unsigned char c = *s;
      size_t n = 1, k;
      if (c >= 0x80) {
         n = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3
           : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
         for (k = 1; k < n; k++)
            if ((s[k] & 0xc0) != 0x80)
               n = 0;
      }
      if (c == '\\')
         buf_str(b, "\\\\");
      else if (c <= ' ' || c == 0x7f || n == 0)
         buf_printf(b, "\\x%02x", c);
      else
         buf_add(b, (const char *)s, n);
      s += n ? n : 1;
   }
}

/* The client's command line (program and arguments) from a Valgrind
   command line, into |b|, each argument escaped. */
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
      buf_escaped_word(b, argv[i]);
   }
}

static int is_valgrind_argv0(const char *a0)
{
   const char *base = strrchr(a0, '/') ? strrchr(a0, '/') + 1 : a0;
   return strcmp(base, "valgrind") == 0 || strcmp(base, "valgrind.bin") == 0;
}

/* With no --pid: the ws processes vgdb can reach, then the ws processes
   it cannot (found in /proc), saying why. */
int list_ws_processes(void)
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
         const char *pfx;
         Reach       reach = reach_by_options(argv, &pfx);
         if (unreachable++ == 0)
            printf("ws processes that vgdb cannot reach%s:\n",
                   vgdb_prefix ? " with this --vgdb-prefix" : "");
         client_command(argv, &cmd);
         printf("%-8ld %s\n", pid, buf_cstr(&cmd));
         if (reach == Reach_GdbserverOff)
            printf("         (started with --vgdb=no)\n");
         else if (reach == Reach_OtherPrefix)
            printf("         (give ws-monitor --vgdb-prefix=%s)\n", pfx);
         else if (reach == Reach_DefaultPrefix)
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
int check_target(pid_t pid)
{
   VgProc *procs;
   int     n, i, status = 0, found = -1;

   if (kill(pid, 0) != 0 && errno == ESRCH) {
      say("there is no process %d", (int)pid);
      return EXIT_UNREACHABLE;
   }
   if (process_ended(pid)) {
      say("process %d has ended", (int)pid);
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
         const char *pfx;
         Reach       reach = reach_by_options(argv, &pfx);
         if (reach == Reach_GdbserverOff)
            say("process %d runs under Valgrind with --vgdb=no: its "
                "gdbserver is off, so it cannot be reached", (int)pid);
         else if (reach == Reach_OtherPrefix)
            say("vgdb cannot find process %d: it was started with "
                "--vgdb-prefix=%s; give ws-monitor the same option",
                (int)pid, pfx);
         else if (reach == Reach_DefaultPrefix)
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
   } else if (procs[found].tool == NULL) {
      /* vgdb found FIFOs for |pid|, but the process is no Valgrind: a
         Valgrind killed by SIGKILL left them, and its pid is now
         another program's.  vgdb would wait for an answer for ever. */
      char      **argv = proc_argv(pid);
      const char *tmp = getenv("TMPDIR");
      Buf         prefix = { 0 };
      if (vgdb_prefix)
         buf_str(&prefix, vgdb_prefix);
      else
         buf_printf(&prefix, "%s/vgdb-pipe", tmp && *tmp ? tmp : "/tmp");
      say("process %d (%s) is not running under Valgrind; the vgdb FIFOs "
          "for pid %d are left over from an earlier process that was "
          "killed: remove %s-*-%d-*", (int)pid,
          argv && argv[0] ? argv[0] : "?", (int)pid, buf_cstr(&prefix),
          (int)pid);
      buf_free(&prefix);
      free_lines(argv);
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

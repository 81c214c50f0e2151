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
   exits 0 whether or not the command was accepted; ws says which in a
   status line at the end of the reply (wsm_commands.c), and vgdb's
   standard error gives the reasons it could not deliver a command
   (wsm_vgdb.c).  wsm.h lists the files.

   Exit status: 0 the command was accepted (or the listing was made),
   1 ws refused the command, 2 the process could not be reached (it does
   not exist or has ended, also while the prompt or watch runs, it is not
   a ws process, vgdb is missing or may not use ptrace, no answer in
   time), 64 bad usage. */

#define _GNU_SOURCE
#include <limits.h>
#include <locale.h>

#include "wsm.h"

const char *vgdb_path = "vgdb";
const char *vgdb_prefix;
double      timeout_s = 30;
pid_t       target;
volatile sig_atomic_t got_sigint;

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
"CMD is a ws monitor command (`ws-monitor --pid=N help` lists them; the\n"
"leading \"ws\" may be left out) or one of Valgrind's own v.* commands.\n"
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
"use ptrace, no answer) or it ended while the prompt or watch ran; 64 bad\n"
"usage.  The prompt keeps its history in ~/.ws_monitor_history (or in\n"
"$WS_MONITOR_HISTORY).  More in man ws-monitor; the monitor commands are in\n"
WS_DOCDIR "/docs/control.md.\n");
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

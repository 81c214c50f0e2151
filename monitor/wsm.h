/* ws-monitor: what its files share.

   Copyright (C) 2026 the ws authors.

   This program is free software; you can redistribute it and/or
   modify it under the terms of the GNU General Public License as
   published by the Free Software Foundation; either version 2 of the
   License, or (at your option) any later version.

   The GNU General Public License is contained in the file COPYING.

   ws-monitor.c     options and main
   wsm_util.c       small helpers: messages, memory, growing strings
   wsm_vgdb.c       running vgdb, and what its failures mean
   wsm_procs.c      the Valgrind processes: the listing, the target
   wsm_commands.c   sending commands, status lines, what ws knows
   wsm_watch.c      the live view
   wsm_prompt.c     the prompt: readline, completion, history

   ws-monitor carries no list of ws's commands: it learns them, their
   arguments and the settable parameters from the process's own "ws
   help internal" (wsm_commands.c), and whether a command was carried
   out from the status line ws puts at the end of the reply to a
   command sent as "WS <command>" (docs/control.md, "For programs"). */

#ifndef WSM_H
#define WSM_H

#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#define EXIT_REFUSED     1
#define EXIT_UNREACHABLE 2
#define EXIT_USAGE       64

/* The options (ws-monitor.c). */
extern const char *vgdb_path;
extern const char *vgdb_prefix;      /* NULL: vgdb's default */
extern double      timeout_s;
extern pid_t       target;
extern volatile sig_atomic_t got_sigint;

/*------------------------------------------------------------*/
/*--- Small helpers (wsm_util.c)                           ---*/
/*------------------------------------------------------------*/

/* "ws-monitor: ..." on standard error. */
void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

/* A growing NUL-terminated byte string. */
typedef struct {
   char  *s;
   size_t len, cap;
} Buf;

void buf_add(Buf *b, const char *data, size_t n);
void buf_str(Buf *b, const char *s);
void buf_printf(Buf *b, const char *fmt, ...)
   __attribute__((format(printf, 2, 3)));
const char *buf_cstr(const Buf *b);
void buf_free(Buf *b);

double now_s(void);
void on_sigint(int sig);
/* The lines of |text|, without their newlines, into a NULL-terminated
   array (free with free_lines). */
char **split_lines(const char *text, int *count);
void free_lines(char **lines);
/* The words of |s| (split at spaces), the same way. */
char **split_words(const char *s);

/*------------------------------------------------------------*/
/*--- Running vgdb (wsm_vgdb.c)                            ---*/
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

/* Runs vgdb with |args| after the --vgdb-prefix option (if any). */
void vgdb_run(const char *const *args, int nargs, VgRun *r);
void vgrun_free(VgRun *r);
/* Says why a vgdb run did not deliver a command to process |pid|, or
   returns 0 if it did. */
int vgdb_trouble(const VgRun *r, pid_t pid);
/* Whether |pid| has ended: no such process, or a zombie. */
int process_ended(pid_t pid);

/*------------------------------------------------------------*/
/*--- Valgrind processes (wsm_procs.c)                     ---*/
/*------------------------------------------------------------*/

/* With no --pid: the ws processes, reachable or not; exit status. */
int list_ws_processes(void);
/* 0 if |pid| is a ws process vgdb can reach (or may be), else
   EXIT_UNREACHABLE having said why. */
int check_target(pid_t pid);

/*------------------------------------------------------------*/
/*--- Commands (wsm_commands.c)                            ---*/
/*------------------------------------------------------------*/

/* Sends |ncmds| monitor commands (with their "ws") in one vgdb run;
   the replies arrive one after the other in r->out.  0, or
   EXIT_UNREACHABLE having said why. */
int send_commands(const char *const *cmds, int ncmds, VgRun *r);
/* One command as typed: prints the reply; returns the exit status. */
int run_command(const char *typed);
/* The output file the target's replies named last ("output file:" of
   ws status), or NULL: what ws-monitor says when the target has ended. */
const char *target_output_file(void);

/* What "ws help internal" says the target knows.  0, or the exit
   status having said why not. */
int learn_commands(void);
/* The names of ws's commands (NULL-terminated; empty before
   learn_commands). */
const char *const *command_names(void);
/* The candidates for the word after |words| (|n| words of |lens|
   bytes, the command first, without "ws"): a NULL-terminated list
   (free the array, not the strings), or NULL; *file set if a file
   name may come there. */
const char **argument_candidates(const char *const *words,
                                 const size_t *lens, int n, int *file);

/*------------------------------------------------------------*/
/*--- The live view and the prompt                         ---*/
/*------------------------------------------------------------*/

/* Redraws status and samples every |interval| seconds until a key is
   pressed; EXIT_UNREACHABLE if the process went away, else 0. */
int watch(double interval);
/* The prompt for |target|; its exit status. */
int interactive(void);

#endif

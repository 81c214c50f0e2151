/* ws-monitor: the prompt: readline, completion, history.

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
#include <pwd.h>
#include <sys/select.h>
#include <unistd.h>
#include <readline/history.h>
#include <readline/readline.h>

#include "wsm.h"

#define HISTORY_LINES    1000     /* kept in the history file */

/*------------------------------------------------------------*/
/*--- The prompt                                           ---*/
/*------------------------------------------------------------*/

static const char *const local_commands[] = { "help", "watch", "quit",
                                              "exit", NULL };

/* Completion candidates for the word being completed. */
static const char *const *cand_lists[2];

static char *candidates(const char *text, int state)
{
   static int list, idx;
   size_t     len = strlen(text);
   if (state == 0)
      list = idx = 0;
   for (; list < 2 && cand_lists[list]; list++, idx = 0) {
      while (cand_lists[list][idx]) {
         const char *w = cand_lists[list][idx++];
         if (strncmp(w, text, len) == 0)
            return xstrdup(w);
      }
   }
   return NULL;
}

/* Up to this many words before the one being completed are read. */
#define WORDS_MAX 8

/* ws's commands first (and ws-monitor's own, unless the line starts
   with "ws"), then what ws says may follow them (wsm_commands.c). */
static char **complete(const char *text, int start, int end)
{
   const char  *line = rl_line_buffer, *p = line, *words[WORDS_MAX];
   const char **args;
   size_t       lens[WORDS_MAX];
   int          n = 0, first = 0, file;
   char       **matches;
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
      if (n == WORDS_MAX)
         return NULL;
      words[n] = p;
      lens[n++] = e - p;
      p = e;
   }
   if (n > 0 && lens[0] == 2 && strncmp(words[0], "ws", 2) == 0)
      first = 1;
   if (n == first) {
      cand_lists[0] = command_names();
      cand_lists[1] = first ? NULL : local_commands;
      return rl_completion_matches(text, candidates);
   }
   args = argument_candidates(words + first, lens + first, n - first, &file);
   cand_lists[0] = args;
   cand_lists[1] = NULL;
   matches = args ? rl_completion_matches(text, candidates) : NULL;
   free(args);
   if (matches == NULL && file) {
      /* no word of an argument before a file name ("full" of "ws
         dump") fits: readline completes file names */
      rl_attempted_completion_over = 0;
      return NULL;
   }
   return matches;
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
   if (*status == EXIT_UNREACHABLE && process_ended(target))
      return 1;                      /* the process has ended */
   return 0;
}

int interactive(void)
{
   char *hist = history_path();
   int   status = check_target(target), tty = isatty(0);
   char  prompt[64];

   if (status != 0) {
      free(hist);
      return status;
   }
   status = learn_commands();
   if (status != 0) {
      free(hist);
      return status;
   }

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
   /* The process ended (vgdb_trouble said so) is the one failure. */
   return status == EXIT_UNREACHABLE && process_ended(target)
          ? EXIT_UNREACHABLE : 0;
}

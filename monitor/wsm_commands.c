/* ws-monitor: sending commands, reading their status lines, and what
   the process says its ws knows.

   Copyright (C) 2026 the ws authors.

   This program is free software; you can redistribute it and/or
   modify it under the terms of the GNU General Public License as
   published by the Free Software Foundation; either version 2 of the
   License, or (at your option) any later version.

   The GNU General Public License is contained in the file COPYING.

   A command the user types for ws goes as "WS <command>": ws answers
   as it answers "ws <command>" and adds a last line, "ws-reply ok" or
   "ws-reply refused" (docs/control.md, "For programs"), which decides
   the exit status and is not shown.  Valgrind's own "v.*" commands go
   as they are; the core gives no status line, so only its words for a
   command it does not know count as a refusal.

   The commands, their arguments and the settable parameters, for
   completion, come from the process's "ws help internal". */

#define _GNU_SOURCE
#include "wsm.h"

/*------------------------------------------------------------*/
/*--- Commands and replies                                 ---*/
/*------------------------------------------------------------*/

#define STATUS_OK       "ws-reply ok"
#define STATUS_REFUSED  "ws-reply refused"

static int is_core_command(const char *cmd)
{
   return strncmp(cmd, "v.", 2) == 0;
}

/* The command line to send for what the user typed: "WS" and the
   command (the leading "ws" may have been typed or left out);
   Valgrind's own "v.*" commands as they are.  "WS " is as long as
   "ws ", so the length is the one the user's command has with "ws". */
static char *to_monitor_command(const char *typed)
{
   Buf b = { 0 };
   while (*typed == ' ' || *typed == '\t')
      typed++;
   if (!is_core_command(typed)) {
      if (strncmp(typed, "ws", 2) == 0 && (typed[2] == '\0'
                                           || typed[2] == ' '))
         typed += 2;
      buf_str(&b, "WS");
      if (*typed != '\0' && *typed != ' ')
         buf_str(&b, " ");
   }
   buf_str(&b, typed);
   while (b.len && (b.s[b.len - 1] == ' ' || b.s[b.len - 1] == '\t'))
      b.s[--b.len] = '\0';
   return b.s;
}

/* What the core answers for a command nobody knows. */
static int core_refusal(const char *reply)
{
   return strncmp(reply, "command '", 9) == 0
          && strstr(reply, "' not recognised") != NULL;
}

/* Takes ws's status line off the end of |reply|: 1 accepted, 0
   refused, -1 there is none. */
static int take_status_line(Buf *reply)
{
   size_t end = reply->len, start;
   int    res;
   if (end > 0 && reply->s[end - 1] == '\n')
      end--;
   start = end;
   while (start > 0 && reply->s[start - 1] != '\n')
      start--;
   if (end - start == strlen(STATUS_OK)
       && strncmp(reply->s + start, STATUS_OK, end - start) == 0)
      res = 1;
   else if (end - start == strlen(STATUS_REFUSED)
            && strncmp(reply->s + start, STATUS_REFUSED, end - start) == 0)
      res = 0;
   else
      return -1;
   reply->len = start;
   reply->s[start] = '\0';
   return res;
}

static char *output_file;

const char *target_output_file(void)
{
   return output_file;
}

/* Keeps the output file a reply names (ws status: "  output file: F"). */
static void note_output_file(const char *reply)
{
   char **lines = split_lines(reply, NULL), **l;
   for (l = lines; *l; l++)
      if (strncmp(*l, "  output file: ", 15) == 0 && (*l)[15]) {
         free(output_file);
         output_file = xstrdup(*l + 15);
      }
   free_lines(lines);
}

int send_commands(const char *const *cmds, int ncmds, VgRun *r)
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
   if (vgdb_trouble(r, target))
      return EXIT_UNREACHABLE;
   note_output_file(buf_cstr(&r->out));
   return 0;
}

/* vgdb sends a command as one packet of its PBUFSIZ (16384) bytes,
   "$qRcmd," and the command in hexadecimal, "#cc" and a NUL: longer
   commands it refuses with "too long" (exit status 1). */
#define VGDB_COMMAND_MAX ((16384 - 7 - 3 - 1) / 2)

/* The exit status a reply to |cmd| means, its status line taken off. */
static int reply_status(const char *cmd, Buf *reply)
{
   int accepted;
   if (core_refusal(buf_cstr(reply))) {
      if (is_core_command(cmd))
         return EXIT_REFUSED;
      say("process %d does not know ws's commands: is it running "
          "valgrind --tool=ws?", (int)target);
      return EXIT_UNREACHABLE;
   }
   if (is_core_command(cmd))
      return 0;                   /* the core's: no more to go on */
   accepted = take_status_line(reply);
   if (accepted < 0) {
      say("process %d gave no status line (a ws of another version?)",
          (int)target);
      return EXIT_UNREACHABLE;
   }
   return accepted ? 0 : EXIT_REFUSED;
}

int run_command(const char *typed)
{
   char *cmd = to_monitor_command(typed);
   VgRun r;
   int   status;
   if (strlen(cmd) > VGDB_COMMAND_MAX) {
      say("the command is %zu characters long; vgdb passes at most %d (the "
          "command was not sent)", strlen(cmd), VGDB_COMMAND_MAX);
      free(cmd);
      return EXIT_REFUSED;
   }
   status = send_commands((const char *const *)&cmd, 1, &r);
   if (status == 0) {
      int refused_or_not = reply_status(cmd, &r.out);
      const char *reply = buf_cstr(&r.out);
      fputs(reply, stdout);
      if (r.out.len && reply[r.out.len - 1] != '\n')
         putchar('\n');
      fflush(stdout);
      status = refused_or_not;
   }
   vgrun_free(&r);
   free(cmd);
   return status;
}

/*------------------------------------------------------------*/
/*--- What ws knows: "ws help internal"                    ---*/
/*------------------------------------------------------------*/

#define INTERNAL_VERSION 1     /* of the lines this program reads */

typedef enum {
   Arg_Number, Arg_Choice, Arg_File, Arg_Text, Arg_Param, Arg_Value,
   Arg_Other              /* a kind this version does not know */
} ArgKind;

typedef struct {
   ArgKind kind;
   int     optional;
   char  **choices;       /* Arg_Choice, NULL-terminated */
} Arg;

typedef struct {
   Arg *args;
   int  nargs;
} Command;

static char   **names;        /* of the commands, NULL-terminated */
static Command *commands;     /* in the order of names */
static int      ncommands;
static char   **params;       /* of the settable parameters */

/* Appends a copy of |w| to the NULL-terminated list |*list|. */
static void add_word(char ***list, const char *w)
{
   int n = 0;
   while (*list && (*list)[n])
      n++;
   *list = xrealloc(*list, (n + 2) * sizeof **list);
   (*list)[n] = xstrdup(w);
   (*list)[n + 1] = NULL;
}

static ArgKind arg_kind(const char *word)
{
   static const char *const kinds[] = { "number", "choice", "file", "text",
                                        "param", "value" };
   int i;
   for (i = 0; i < (int)(sizeof kinds / sizeof kinds[0]); i++)
      if (strcmp(word, kinds[i]) == 0)
         return (ArgKind)i;
   return Arg_Other;
}

/* "arg <command> <position> required|optional <kind> [<details>]",
   its words in |w|; the arguments come in order. */
static void learn_arg(char **w, int nw)
{
   int i;
   for (i = 0; i < ncommands; i++) {
      Command *c = &commands[i];
      Arg     *a;
      int      k;
      if (strcmp(names[i], w[1]) != 0 || atoi(w[2]) != c->nargs + 1)
         continue;
      c->args = xrealloc(c->args, (c->nargs + 1) * sizeof *c->args);
      a = &c->args[c->nargs++];
      a->kind = arg_kind(w[4]);
      a->optional = strcmp(w[3], "optional") == 0;
      a->choices = NULL;
      if (a->kind == Arg_Choice)
         for (k = 5; k < nw; k++)
            add_word(&a->choices, w[k]);
   }
}

/* The records of the reply, one a line; records of other keywords
   are for later versions. */
static int learn_records(const char *reply)
{
   char **lines = split_lines(reply, NULL), **l;
   int    version = -1;
   for (l = lines; *l; l++) {
      char **w = split_words(*l);
      int    nw = 0;
      while (w[nw])
         nw++;
      if (nw == 2 && strcmp(w[0], "ws-internal") == 0) {
         version = atoi(w[1]);
      } else if (version == INTERNAL_VERSION && nw == 2
                 && strcmp(w[0], "command") == 0) {
         add_word(&names, w[1]);
         commands = xrealloc(commands, (ncommands + 1) * sizeof *commands);
         commands[ncommands].args = NULL;
         commands[ncommands++].nargs = 0;
      } else if (version == INTERNAL_VERSION && nw >= 5
                 && strcmp(w[0], "arg") == 0) {
         learn_arg(w, nw);
      } else if (version == INTERNAL_VERSION && nw >= 2
                 && strcmp(w[0], "param") == 0) {
         add_word(&params, w[1]);
      }
      free_lines(w);
   }
   free_lines(lines);
   return version;
}

int learn_commands(void)
{
   /* and the output file, to name when the process ends */
   static const char *const cmd[] = { "ws help internal", "ws status" };
   VgRun r;
   int   version;
   if (send_commands(cmd, 2, &r) != 0) {
      vgrun_free(&r);
      return EXIT_UNREACHABLE;
   }
   version = learn_records(buf_cstr(&r.out));
   vgrun_free(&r);
   if (version != INTERNAL_VERSION)
      say("process %d describes its commands in a form this ws-monitor "
          "does not read (%s %d); Tab will not complete them", (int)target,
          version < 0 ? "no version, or" : "version", version);
   return 0;
}

const char *const *command_names(void)
{
   static const char *const none[] = { NULL };
   return names ? (const char *const *)names : none;
}

/* The one word of |list| that |word| names or abbreviates, as ws's
   VG_(keyword_id) takes it: its index, or -1. */
static int resolve(char *const *list, const char *word, size_t len)
{
   int i, found = -1;
   for (i = 0; list && list[i]; i++) {
      if (strlen(list[i]) == len && strncmp(list[i], word, len) == 0)
         return i;
      if (strncmp(list[i], word, len) == 0) {
         if (found >= 0)
            return -1;
         found = i;
      }
   }
   return found;
}

/* Whether a word of the line may be argument |a|. */
static int fits(const Arg *a, const char *word, size_t len)
{
   size_t i;
   switch (a->kind) {
   case Arg_Number:
      for (i = 0; i < len; i++)
         if (word[i] < '0' || word[i] > '9')
            return 0;
      return len > 0;
   case Arg_Choice:
      for (i = 0; a->choices && a->choices[i]; i++)
         if (strlen(a->choices[i]) == len
             && strncmp(a->choices[i], word, len) == 0)
            return 1;
      return 0;
   case Arg_Param:
      return resolve(params, word, len) >= 0;
   default:
      return 1;
   }
}

static void add_candidates(const char ***out, int *n, char *const *words)
{
   for (; words && *words; words++) {
      *out = xrealloc(*out, (*n + 2) * sizeof **out);
      (*out)[(*n)++] = *words;
      (*out)[*n] = NULL;
   }
}

const char **argument_candidates(const char *const *words,
                                 const size_t *lens, int n, int *file)
{
   int          c = resolve(names, words[0], lens[0]), i = 0, k, count = 0;
   const char **out = NULL;
   *file = 0;
   if (c < 0)
      return NULL;
   /* Each word given takes the first argument it may be, passing over
      optional ones it may not. */
   for (k = 1; k < n; k++) {
      while (i < commands[c].nargs) {
         const Arg *a = &commands[c].args[i];
         if (a->kind == Arg_Text)
            return NULL;              /* the rest of the line is text */
         if (fits(a, words[k], lens[k]))
            break;
         if (!a->optional)
            return NULL;
         i++;
      }
      if (i++ >= commands[c].nargs)
         return NULL;                 /* one word too many */
   }
   /* The next argument, and those after it while they are optional. */
   for (; i < commands[c].nargs; i++) {
      const Arg *a = &commands[c].args[i];
      if (a->kind == Arg_Choice)
         add_candidates(&out, &count, a->choices);
      else if (a->kind == Arg_Param)
         add_candidates(&out, &count, params);
      else if (a->kind == Arg_File)
         *file = 1;
      if (!a->optional)
         break;
   }
   return out;
}

/* rel_fork: a parent that works, starts a child, works again.

   usage: rel_fork MODE CHILD_INSNS [PROGRAM ARGS...]

   The parent writes one byte to each of 10 pages of its own, sweep after
   sweep, for about 1,000,000 instructions (the loop alone on its page),
   then by MODE:

     fork     forks a child that writes to 20 other pages (mapped after
              the fork) for about CHILD_INSNS instructions in a loop of
              its own page and exits with status 5; the parent waits for
              it and checks that status
     exec     forks a child that executes PROGRAM ARGS...; the parent
              waits and checks that it exited with status 0
     kill     forks a child like `fork`, which after its loop tells the
              parent through a pipe and waits; the parent then kills it
              with SIGKILL and checks that it died of it
     system   runs system(PROGRAM) and checks that it exited with status 0

   and then works on its 10 pages for another 1,000,000 instructions.
   The parent's instructions do not depend on CHILD_INSNS (give it with
   the same number of digits to compare two runs).

   Exit status 0; 2 on bad arguments, 3 if fork or pipe fails, 4 if the
   child did not end as expected. */

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "wsprog.h"

WS_LOOP(rel_parent_touch, "movb $1, (%rdi)");
WS_LOOP(rel_child_touch, "movb $1, (%rdi)");

#define DELAY 10

static void child_work(long insns)
{
   char *mine = ws_map(20 * 4096);
   rel_child_touch(mine, 20, 4096, DELAY,
                   ws_sweeps_for(insns, 20, WS_LOOP_PER_ELEMENT(1, DELAY)));
}

int main(int argc, char **argv)
{
   if (argc < 3) {
      fprintf(stderr, "usage: rel_fork MODE CHILD_INSNS [PROGRAM ARGS...]\n");
      return 2;
   }
   const char *m = argv[1];
   long child_insns = ws_arg(argv[2], "child insns");
   int exec = !strcmp(m, "exec"), sys = !strcmp(m, "system");
   int kil = !strcmp(m, "kill"), frk = !strcmp(m, "fork");
   if (!(exec || sys || kil || frk) || ((exec || sys) && argc < 4))
      return 2;
   char *base = ws_map(10 * 4096);
   long sweeps = ws_sweeps_for(1000000, 10, WS_LOOP_PER_ELEMENT(1, DELAY));
   rel_parent_touch(base, 10, 4096, DELAY, sweeps);

   int ok;
   if (sys) {
      int st = system(argv[3]);
      ok = st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0;
   } else {
      int pfd[2];
      if (kil && pipe(pfd) != 0)
         return 3;
      pid_t pid = fork();
      if (pid < 0)
         return 3;
      if (pid == 0) {
         if (exec) {
            execv(argv[3], &argv[3]);
            _exit(127);
         }
         child_work(child_insns);
         if (kil) {
            if (write(pfd[1], "x", 1) != 1)
               _exit(3);
            for (;;)
               pause();
         }
         exit(5);
      }
      if (kil) {
         char c;
         if (read(pfd[0], &c, 1) != 1)
            return 4;
         kill(pid, SIGKILL);
      }
      int st;
      if (waitpid(pid, &st, 0) != pid)
         return 4;
      if (kil)
         ok = WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL;
      else
         ok = WIFEXITED(st) && WEXITSTATUS(st) == (exec ? 0 : 5);
   }
   if (!ok)
      return 4;
   rel_parent_touch(base, 10, 4096, DELAY, sweeps);
   return 0;
}

/* rel_exit: work, then end in one of the ways a program can end.

   usage: rel_exit MODE STATUS

   Writes one byte to each of 10 pages, sweep after sweep, for about
   500,000 instructions (the loop alone on its page: 5 samples of T =
   100000 inside it), then, by MODE:

     exit     exit(STATUS)
     return   return STATUS from main
     thread   a second thread calls _exit(STATUS) while main waits in
              pthread_join for it
     segv     writes to address 0 (uncaught SIGSEGV)
     term     sends itself SIGTERM (not caught)
     wait     writes "ready\n" to standard output and blocks reading
              standard input (the test signals it from outside); returns
              STATUS at end of file

   Exit status 2 on bad arguments. */

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include "wsprog.h"

WS_LOOP(rel_exit_touch, "movb $1, (%rdi)");

#define DELAY 10

static long status;

static void *quit(void *arg)
{
   (void)arg;
   _exit((int)status);
}

int main(int argc, char **argv)
{
   if (argc != 3) {
      fprintf(stderr, "usage: rel_exit MODE STATUS\n");
      return 2;
   }
   status = ws_arg(argv[2], "status");
   char *base = ws_map(10 * 4096);
   rel_exit_touch(base, 10, 4096, DELAY,
                  ws_sweeps_for(500000, 10, WS_LOOP_PER_ELEMENT(1, DELAY)));
   const char *m = argv[1];
   if (!strcmp(m, "exit"))
      exit((int)status);
   if (!strcmp(m, "return"))
      return (int)status;
   if (!strcmp(m, "thread")) {
      pthread_t t;
      if (pthread_create(&t, NULL, quit, NULL) != 0)
         return 3;
      pthread_join(t, NULL);
      return 4;                  /* not reached */
   }
   if (!strcmp(m, "segv")) {
      *(volatile int *)0 = 1;
      return 4;
   }
   if (!strcmp(m, "term")) {
      kill(getpid(), SIGTERM);
      return 4;
   }
   if (!strcmp(m, "wait")) {
      if (write(1, "ready\n", 6) != 6)
         return 3;
      char c;
      while (read(0, &c, 1) > 0)
         ;
      return (int)status;
   }
   fprintf(stderr, "rel_exit: unknown mode '%s'\n", m);
   return 2;
}

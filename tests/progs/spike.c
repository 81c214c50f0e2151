/* spike: a steady working set with one deliberate burst, for the peak
   detector (tests/test_peaks.py).

   usage: spike spike|flat|fork

   Sweeps the same 50 pages for about 4,000,000 instructions (40 samples
   at the default T), then, with "spike", calls spike(), whose helper
   burst() touches 2,000 fresh pages, sweep after sweep, for several
   sampling intervals (at least 300,000 instructions at -O2, more at
   -O0), then idles for as long again, touching no new page, and then
   main sweeps the 50 pages for another 4,000,000 instructions.  With
   "flat" there is no burst: the working set stays the same.  With
   "fork" the program then forks: the child does the burst and the
   steady sweeps once more and exits with status 0; the parent waits for
   it and sweeps once more.

   The idling keeps the largest sample inside burst(): without it the
   sample taken just after burst() returns, whose window holds the last
   sweeps and the 50 steady pages, could be the largest, and the peak
   would end with main's stack.

   Built twice: tests/progs/spike with -O0 (burst() is a function of its
   own) and tests/progs/spike_o2 with -O2 (burst() is inlined into
   spike()).  The burst runs for several sampling intervals, so samples
   are taken while it runs: the peak's stack is burst's, called from
   spike(), called from main.  The tests find the lines below by their
   marker comments ("burst:", "spike: calls burst", "main: calls
   spike"), so the code may move.

   The steady sweeps are a WS_LOOP (wsprog.h): the same instructions and
   pages at any optimisation level. */

#include <sys/wait.h>
#include <unistd.h>

#include "wsprog.h"

WS_LOOP(spike_steady, "movb $1, (%rdi)");

#define PAGE         4096
#define STEADY_PAGES 50
#define BURST_PAGES  2000
#define BURST_SWEEPS 40
#define IDLE_LOOPS   100000     /* 4 or more instructions each */
#define DELAY        10
#define STEADY_INSNS 4000000

/* Writes one byte to each of |pages| pages at |base|, |sweeps| times
   over (volatile: each sweep's stores must happen), then idles. */
static void burst(volatile char *base, long pages, long sweeps)
{
   for (long s = 0; s < sweeps; s++)                  /* burst: begin */
      for (long p = 0; p < pages; p++)
         base[p * PAGE] = (char)s;
   for (volatile long i = 0; i < IDLE_LOOPS; i++)     /* burst: end */
      ;
}

/* noipa: neither inlined into main nor cloned under another name. */
__attribute__((noipa)) static void spike(char *base)
{
   burst(base, BURST_PAGES, BURST_SWEEPS);            /* spike: calls burst */
}

int main(int argc, char **argv)
{
   if (argc != 2 || (strcmp(argv[1], "spike") && strcmp(argv[1], "flat")
                     && strcmp(argv[1], "fork"))) {
      fprintf(stderr, "usage: spike spike|flat|fork\n");
      return 2;
   }
   char *steady = ws_map(STEADY_PAGES * PAGE);
   char *fresh = ws_map(BURST_PAGES * PAGE);
   long sweeps = ws_sweeps_for(STEADY_INSNS, STEADY_PAGES,
                               WS_LOOP_PER_ELEMENT(1, DELAY));
   spike_steady(steady, STEADY_PAGES, PAGE, DELAY, sweeps);
   if (strcmp(argv[1], "flat") != 0)
      spike(fresh);                                   /* main: calls spike */
   spike_steady(steady, STEADY_PAGES, PAGE, DELAY, sweeps);
   if (strcmp(argv[1], "fork") == 0) {
      int status;
      pid_t child = fork();
      if (child < 0) {
         perror("fork");
         return 3;
      }
      if (child == 0) {
         spike(fresh);                                /* child: calls spike */
         spike_steady(steady, STEADY_PAGES, PAGE, DELAY, sweeps);
         return 0;
      }
      if (waitpid(child, &status, 0) != child || status != 0)
         return 4;
      spike_steady(steady, STEADY_PAGES, PAGE, DELAY, sweeps);
   }
   return 0;
}

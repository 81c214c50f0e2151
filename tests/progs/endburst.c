/* endburst: a burst of memory in the last instructions before the end
   of measurement, for final samples (tests/test_peaks.py).

   usage: endburst exit|stop|fatal N

   Sweeps the same 50 pages for about 2,000,000 instructions (20 samples
   at the default T), then calls final_burst(), which writes one byte to
   each of N fresh pages (a few instructions per page), and then:

     exit   returns from main;
     stop   (run with --ws-instr-atstart=no) measurement runs from a
            WS_START and WS_MARK("burst") before the sweeps to a
            WS_STOP right after final_burst(), and the program then
            touches N other fresh pages, unmeasured, before it returns;
     fatal  raises SIGSEGV (default action: the process dies of it).

   No sample falls after the burst (the next multiple of T is far off),
   so only the final sample at exit, WS_STOP or the fatal signal can
   see it.  Built at -O0 (endburst) and -O2 (endburst_o2, where
   final_burst() may be inlined into main). */

#include <signal.h>

#include <valgrind/ws.h>

#include "wsprog.h"

WS_LOOP(endburst_steady, "movb $1, (%rdi)");

#define PAGE         4096
#define STEADY_PAGES 50
#define DELAY        10
#define STEADY_INSNS 2000000

static void final_burst(volatile char *base, long pages)
{
   for (long p = 0; p < pages; p++)
      base[p * PAGE] = 1;                             /* final_burst: touch */
}

int main(int argc, char **argv)
{
   if (argc != 3 || (strcmp(argv[1], "exit") && strcmp(argv[1], "stop")
                     && strcmp(argv[1], "fatal"))) {
      fprintf(stderr, "usage: endburst exit|stop|fatal N\n");
      return 2;
   }
   long n = ws_arg(argv[2], "N");
   int stop = strcmp(argv[1], "stop") == 0;
   char *steady = ws_map(STEADY_PAGES * PAGE);
   char *fresh = ws_map((n ? n : 1) * PAGE);
   char *after = ws_map((n ? n : 1) * PAGE);
   long sweeps = ws_sweeps_for(STEADY_INSNS, STEADY_PAGES,
                               WS_LOOP_PER_ELEMENT(1, DELAY));
   if (stop) {
      WS_START;
      WS_MARK("burst");
   }
   endburst_steady(steady, STEADY_PAGES, PAGE, DELAY, sweeps);
   final_burst(fresh, n);                            /* main: calls final_burst */
   if (stop) {
      WS_STOP;
      final_burst(after, n);
   }
   if (strcmp(argv[1], "fatal") == 0)
      raise(SIGSEGV);
   return 0;
}

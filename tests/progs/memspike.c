/* memspike: a spike made by memset among a jittery working set, for the
   peaks (tests/test_peaks.py) and --ws-count-rep.

   usage: memspike PAGES

   Runs 60 phases of about 100,000 instructions each over a pool of 190
   pages; each phase touches a pseudo-random number of them, from 50 to
   190 (the jitter).  In phases 20, 35 and 50 it calls clear_table(),
   which memsets a table of PAGES fresh pages (12 MB for 3,000): glibc
   does that with rep stosb, one instruction (--ws-count-rep=once) or
   one per byte (each, as lackey counts: the 3,000 pages then spread
   over 12 million instructions, 120 samples).  The jitter's loops are
   a WS_LOOP (wsprog.h): the same instructions at any optimisation
   level. */

#include "wsprog.h"

WS_LOOP(memspike_jitter, "movb $1, (%rdi)");

#define PAGE      4096
#define POOL      190
#define DELAY     10

/* Returns a byte of the table, so that the memset is no tail call (at
   -O2 clear_table's frame would be gone while memset runs). */
__attribute__((noinline)) static int clear_table(char *table, long pages)
{
   memset(table, 0, pages * PAGE);                   /* clear_table: memset */
   return *(volatile char *)table;
}

int main(int argc, char **argv)
{
   if (argc != 2) {
      fprintf(stderr, "usage: memspike PAGES\n");
      return 2;
   }
   long pages = ws_arg(argv[1], "PAGES");
   char *pool = ws_map(POOL * PAGE);
   char *table = malloc(pages * PAGE);
   unsigned seed = 12345;
   if (table == NULL)
      return 2;
   for (int phase = 0; phase < 60; phase++) {
      seed = seed * 1103515245u + 12345u;
      long n = 50 + (seed >> 16) % (POOL - 50 + 1);
      long sweeps = ws_sweeps_for(100000, n, WS_LOOP_PER_ELEMENT(1, DELAY));
      if ((phase == 20 || phase == 35 || phase == 50)
          && clear_table(table, pages) != 0)         /* main: calls clear_table */
         return 1;
      memspike_jitter(pool, n, PAGE, DELAY, sweeps);
   }
   free(table);
   return 0;
}

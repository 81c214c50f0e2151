/* miss: a line that keeps bringing fresh pages into the working set and
   a line that keeps re-touching a small hot set (tests/test_misses.py).

   usage: miss FRESH_PAGES PASSES HOT_PAGES REPEAT

   Maps FRESH_PAGES pages and, apart from them, HOT_PAGES pages (4096
   bytes each, anonymous, touched by nothing else).  Then, PASSES times
   over, for each fresh page in turn: fresh_touch() stores one byte to it
   (the line marked FRESH), and hot_touch() loads one byte from each hot
   page, REPEAT times over (the line marked HOT).  WS_MARK("loops") and
   WS_MARK("done") bracket the loops; then WS_STOP ends measurement and
   WS_DUMP("end") writes the last, partial window to the output file.

   It is built with -O2, so that the loops keep their variables in
   registers: the marked lines are the only ones that touch the fresh and
   the hot pages, and these two functions touch no other memory but the
   stack, in their call and return (which are on other lines).  Whether
   this holds is for the tests to check: they compare the profile with
   counts computed from these parameters.

   Exit status 0, or 2 on bad arguments.  Prints the sum of the hot
   loads (0: the pages are never written) so that they are not dead. */

#include <stdio.h>
#include <valgrind/ws.h>

#include "wsprog.h"

#define PAGE 4096

__attribute__((noinline)) void fresh_touch(volatile char *p)
{
   *p = 1;                                                /* FRESH */
}

__attribute__((noinline)) long hot_touch(volatile char *hot, long pages,
                                         long repeat)
{
   long sum = 0;
   for (long r = 0; r < repeat; r++)
      for (volatile char *h = hot; h < hot + pages * PAGE; h += PAGE)
         sum += *h;                                       /* HOT */
   return sum;
}

int main(int argc, char **argv)
{
   if (argc != 5) {
      fprintf(stderr, "usage: miss FRESH_PAGES PASSES HOT_PAGES REPEAT\n");
      return 2;
   }
   long fresh = ws_arg(argv[1], "fresh pages");
   long passes = ws_arg(argv[2], "passes");
   long hot = ws_arg(argv[3], "hot pages");
   long repeat = ws_arg(argv[4], "repeat");
   if (fresh < 1 || hot < 1)
      return 2;
   char *f = ws_map(fresh * PAGE);
   char *h = ws_map(hot * PAGE);
   long sum = 0;

   WS_MARK("loops");
   for (long pass = 0; pass < passes; pass++)
      for (long i = 0; i < fresh; i++) {
         fresh_touch(f + i * PAGE);
         sum += hot_touch(h, hot, repeat);
      }
   WS_MARK("done");
   WS_STOP;
   WS_DUMP("end");
   printf("%ld\n", sum);
   return 0;
}

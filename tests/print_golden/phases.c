/* phases: a program in named phases, for ws_print's golden files and the
   picture in the README (tests/print_golden/record.sh runs it under ws
   with --ws-instr-atstart=no).

   Each phase is WS_MARK(name), WS_START, some work on one mapping of
   PAGES pages, WS_STOP, so the output file has marks, starts and stops
   and one region line per name:

     load    writes pages 0, 1, ... 299 in turn, ten sweeps, then ten
             sweeps one page longer (a ramp up to 300 pages)
     sort    reads and writes pseudo-random pages among the 300, with a
             WS_DUMP("sort") half way
     index   sweeps pages 300..379 again and again (a plateau of 80)
     load    a second, shorter ramp up to 150 pages

   Built with -O0 by record.sh; needs <valgrind/ws.h> from include/. */

#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#include <valgrind/ws.h>

#define PAGE  4096
#define PAGES 400

static volatile char *buf;

static void ramp(long top)
{
   for (long n = 1; n <= top; n++)
      for (int rep = 0; rep < 10; rep++)
         for (long p = 0; p < n; p++)
            buf[p * PAGE + (n % 64) * 8]++;
}

static void shuffle(long count, long pages)
{
   unsigned long x = 12345;
   for (long i = 0; i < count; i++) {
      x = x * 6364136223846793005UL + 1442695040888963407UL;
      long p = (long)((x >> 33) % (unsigned long)pages);
      buf[p * PAGE + (long)(x & 63) * 8] += 1;
      if (i == count / 2)
         WS_DUMP("sort");
   }
}

static void sweep(long first, long n, long times)
{
   for (long k = 0; k < times; k++)
      for (long p = first; p < first + n; p++)
         buf[p * PAGE]++;
}

int main(void)
{
   buf = mmap(NULL, PAGES * PAGE, PROT_READ | PROT_WRITE,
              MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
   if (buf == MAP_FAILED) {
      perror("phases: mmap");
      return 1;
   }
   WS_MARK("load");
   WS_START;
   ramp(300);
   WS_STOP;

   WS_MARK("sort");
   WS_START;
   shuffle(150000, 300);
   WS_STOP;

   WS_MARK("index");
   WS_START;
   sweep(300, 80, 2500);
   WS_STOP;

   WS_MARK("load");
   WS_START;
   ramp(150);
   WS_STOP;
   printf("phases: done\n");
   return 0;
}

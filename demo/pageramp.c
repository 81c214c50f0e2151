/* pageramp: a working set shaped like a sawtooth, for `make demo`.

   The program claims pages one at a time until it holds 1024 of them,
   then gives them back one at a time until it holds none, and does this
   10 times.  After every claim or release it writes one byte to every
   second page it holds, so its data working set rises and falls between
   0 and 512 pages while it holds up to 1024.  (This is the "pageramp"
   workload of the valgrind-ws paper, section 3.1.)

   The pages come from one mapping made at start-up, so a page claimed
   again is the same page; a released page is handed back to the kernel
   with madvise(MADV_DONTNEED), so the resident set follows the ramp too.

   Only the ramps are measured (WS_START and WS_STOP, run with
   --ws-instr-atstart=no, as `make demo` does), so that ws prints the
   same figures in every shell and on every machine: the dynamic
   linker's start-up runs a different number of instructions for every
   environment and every /etc/ld.so.cache, and the environment's size
   moves the stack (main says how the ramps' frames stay put).

   Built with -g -O0 so that ws can name the lines that touch the pages. */

#include <alloca.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include <valgrind/ws.h>

#define MAX_PAGES 1024
#define ROUNDS    10
#define STRIDE    2     /* touch every second page held */

struct pages {
   char  *base;         /* start of the mapping of MAX_PAGES pages */
   long   size;         /* bytes in a page */
   int    held;         /* pages 0 .. held-1 are claimed */
};

/* Write one byte to every STRIDE-th claimed page. */
static void touch_pages(struct pages *pg, char value)
{
   for (int p = 0; p < pg->held; p += STRIDE)
      pg->base[(long)p * pg->size] = value;
}

static void claim_page(struct pages *pg)
{
   pg->held++;
}

static void release_page(struct pages *pg)
{
   pg->held--;
   madvise(pg->base + (long)pg->held * pg->size, pg->size, MADV_DONTNEED);
}

static int ramps(void)
{
   struct pages pg = { NULL, sysconf(_SC_PAGESIZE), 0 };

   pg.base = mmap(NULL, MAX_PAGES * pg.size, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
   if (pg.base == MAP_FAILED) {
      perror("pageramp: mmap");
      return 1;
   }

   WS_START;
   for (int round = 0; round < ROUNDS; round++) {
      while (pg.held < MAX_PAGES) {
         claim_page(&pg);
         touch_pages(&pg, (char)round);
      }
      while (pg.held > 0) {
         release_page(&pg);
         touch_pages(&pg, (char)round);
      }
   }

   WS_STOP;

   munmap(pg.base, MAX_PAGES * pg.size);
   printf("pageramp: %d rounds of 0..%d..0 pages done\n", ROUNDS, MAX_PAGES);
   return 0;
}

int main(void)
{
   /* The environment's size moves the stack by a few bytes, which could
      put the ramps' frames across a page boundary in one shell and not
      in another: they start in the middle of a page every time. */
   char here;
   char *pad = alloca(((uintptr_t)&here & 4095) + 2048);
   __asm__ volatile("" : : "r"(pad) : "memory");
   return ramps();
}

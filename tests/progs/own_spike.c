/* own_spike: a steady working set, then one burst on memory of three
   owners, for the owner lines of a peak (tests/test_owners.py).

   usage: own_spike

   Sweeps the same 50 mapped pages for about 4,000,000 instructions (40
   samples at the default T), then burst() writes one byte to each page
   of a heap block of HEAP_PAGES pages (from the malloc on the line
   marked "own_spike: malloc"), of the global array burst_global
   (GLOBAL_PAGES pages, page-aligned) and of its local array
   (STACK_PAGES pages), sweep after sweep for several sampling
   intervals; a sweep is far shorter than a window, so every sample
   taken after the first sweep and before the burst ends has all of
   those pages in its window.  After the last sweep it dumps the working
   set (WS_DUMP("burst")), then it idles (no new page) for longer than
   the sweeps took, so that the burst's largest sample is taken inside
   it, and sweeps the 50 pages again.

   The block's address and size are printed on stderr ("block 0x... N").
   It is 8 MB, so glibc mmaps it on its own, 16 bytes into its
   mapping: the burst's bytes at block + p * PAGE lie on pages 0 to
   HEAP_PAGES - 1 of that mapping, the block's last 16 bytes on one
   more page that nothing touches. */

#include "wsprog.h"
#include "valgrind/ws.h"

WS_LOOP(own_spike_steady, "movb $1, (%rdi)");

#define PAGE          4096
#define STEADY_PAGES  50
#define HEAP_PAGES    2000
#define GLOBAL_PAGES  300
#define STACK_PAGES   100
#define BURST_SWEEPS  40
#define IDLE_LOOPS    300000
#define DELAY         10
#define STEADY_INSNS  4000000

static char burst_global[GLOBAL_PAGES * PAGE] __attribute__((aligned(PAGE)));

__attribute__((noipa)) static void burst(volatile char *heap)
{
   volatile char local[STACK_PAGES * PAGE];
   for (long s = 0; s < BURST_SWEEPS; s++) {
      for (long p = 0; p < HEAP_PAGES; p++)
         heap[p * PAGE] = (char)s;
      for (long p = 0; p < GLOBAL_PAGES; p++)
         ((volatile char *)burst_global)[p * PAGE] = (char)s;
      for (long p = 0; p < STACK_PAGES; p++)
         local[p * PAGE] = (char)s;
   }
   WS_DUMP("burst");
   for (volatile long i = 0; i < IDLE_LOOPS; i++)
      ;
}

int main(void)
{
   char *steady = ws_map(STEADY_PAGES * PAGE);
   long sweeps = ws_sweeps_for(STEADY_INSNS, STEADY_PAGES,
                               WS_LOOP_PER_ELEMENT(1, DELAY));
   char *heap;
   own_spike_steady(steady, STEADY_PAGES, PAGE, DELAY, sweeps);
   heap = malloc(HEAP_PAGES * PAGE);                  /* own_spike: malloc */
   if (heap == NULL)
      return 1;
   fprintf(stderr, "block %p %ld\n", (void *)heap, (long)HEAP_PAGES * PAGE);
   burst(heap);
   own_spike_steady(steady, STEADY_PAGES, PAGE, DELAY, sweeps);
   free(heap);
   return 0;
}

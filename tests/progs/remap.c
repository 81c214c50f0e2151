/* remap: pages unmapped and mapped again at the same address.

   usage: remap MODE PAGES INSNS

   Gets a block of 2*PAGES pages, low half L and high half H, then touches
   one half (one byte per page, loop alone on its page, about INSNS
   instructions: a phase), gives memory back and takes it again at the same
   address, and touches the same half again for another phase.  Modes:

   m   mmap:  touches L; munmap(L), mmap(L, MAP_FIXED); touches L again.
   M   control for m: the same calls, but touches H (never unmapped).
   b   brk:   touches H; sbrk(-PAGES) (gives H back), sbrk(+PAGES) (the
              same addresses again); touches H again.
   B   control for b: the same calls, but touches L (never given back).

   In m and b the second phase touches PAGES pages that are new for the
   totals (distinct pages ever touched), in M and B it touches the same
   pages as the first: ws's data total for m must exceed M's by exactly
   PAGES, and b's B's.  Both modes of a pair run the same instructions.
   Within one window the pages count once either way.

   Exit status 0, 2 on bad arguments, 3 if memory cannot be had again at
   the same address. */

#include <stdint.h>
#include <unistd.h>

#include "wsprog.h"

WS_LOOP(remap_touch, "movb $1, (%rdi)");

#define DELAY 10

static void phase(char *half, long pages, long insns)
{
   remap_touch(half, pages, 4096, DELAY,
               ws_sweeps_for(insns, pages, WS_LOOP_PER_ELEMENT(1, DELAY)));
}

int main(int argc, char **argv)
{
   if (argc != 4 || strlen(argv[1]) != 1 || !strchr("mMbB", argv[1][0])) {
      fprintf(stderr, "usage: remap m|M|b|B PAGES INSNS\n");
      return 2;
   }
   char mode = argv[1][0];
   long pages = ws_arg(argv[2], "pages");
   long insns = ws_arg(argv[3], "insns");
   long half = pages * 4096;
   if (pages < 1)
      return 2;

   if (mode == 'm' || mode == 'M') {
      char *lo = ws_map(2 * half), *hi = lo + half;
      char *t = mode == 'm' ? lo : hi;
      phase(t, pages, insns);
      if (munmap(lo, half) != 0) {
         perror("remap: munmap");
         return 3;
      }
      char *again = mmap(lo, half, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
      if (again != lo) {
         perror("remap: mmap");
         return 3;
      }
      phase(t, pages, insns);
   } else {
      /* Start the block on a page boundary. */
      uintptr_t cur = (uintptr_t)sbrk(0);
      if (sbrk((4096 - cur % 4096) % 4096) == (void *)-1) {
         perror("remap: sbrk");
         return 3;
      }
      char *lo = sbrk(2 * half);
      if (lo == (void *)-1 || (uintptr_t)lo % 4096) {
         perror("remap: sbrk");
         return 3;
      }
      char *hi = lo + half;
      char *t = mode == 'b' ? hi : lo;
      phase(t, pages, insns);
      if (sbrk(-half) == (void *)-1 || sbrk(0) != hi) {
         perror("remap: sbrk shrink");
         return 3;
      }
      if (sbrk(half) != hi) {
         perror("remap: sbrk grow");
         return 3;
      }
      phase(t, pages, insns);
   }
   return 0;
}

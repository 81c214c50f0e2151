/* heap_churn.c: chunks that live a few instructions, allocated and freed
   over and over, the fourth case of "heap usage that is right for small
   objects" (the Memoro paper's lifetime score is for this churn): 1,000
   chunks of 32 bytes from one site, each written whole, read whole and
   freed at once (site_churn's body between malloc's return and free:
   under 40 instructions at -O0), one after the other.  A first malloc
   and free, from a site of their own, bind the calls and fill the
   allocator's cache first; a spin of 20,000,000 instructions (registers
   only) makes the run long.

   The Memoro paper's answers for site_churn (../shared/ws-interface.md
   sections 6 and 9; tests/memoro_model.py):
     chunks 1000, bytes 32000, peak-live 32 (one at a time), never 0,
       read-only 0, write-only 0, touched 32000, interval 32000,
       usage 1.000
     lifetime-score 0.000.  The grouping threshold is 0.1 % of the run,
       more than 20,000 instructions; one turn of the loop (malloc and
       free from glibc's cache, and the body) is far less (about 180
       with glibc 2.36), so the 1,000 chunks make one group.  Its score
       is the chunks' mean lifetime L over the group's span, from the
       first allocation to the last free, at least 999 turns; a turn is
       L plus a malloc and a free (more than L instructions together),
       so the score is below L / (999 x 2L) < 0.0005.
     score below 0.080: the geometric mean of lifetime-score (under
       0.0005), usage (1) and useful (at most 1) is under the cube root
       of 0.0005, 0.0794
   ws before the lifetime score: usage 1.000, useful 0.919, lifetime 37,
   in neither "worst" list.

   At cache-line resolution the chunk (32 bytes) is smaller than a line.

   DHAT (tests/dhat_oracle.py): site_churn 1000 blocks, 32000 bytes, max
   32, 32000 bytes read and 32000 written, offsets 0..31 accessed 2000
   times each. */

#include <stdio.h>
#include <stdlib.h>

#define CHURN 1000
#define SIZE 32
#define SPIN 10000000          /* turns of two instructions */

__attribute__((noinline)) static void warm_up(void)
{
   free(malloc(SIZE));
}

__attribute__((noinline)) static long site_churn(long i)
{
   long* p = malloc(SIZE);
   long s;
   if (p == NULL)
      abort();
   p[0] = i;
   p[1] = i;
   p[2] = i;
   p[3] = i;
   s = p[0] + p[1] + p[2] + p[3];
   free(p);
   return s;
}

/* n turns of two instructions, on registers only. */
static void spin(long n)
{
   __asm__ volatile("1: dec %0\n\tjnz 1b" : "+r"(n));
}

int main(void)
{
   long i, sum = 0;
   warm_up();
   for (i = 0; i < CHURN; i++)
      sum += site_churn(i);
   spin(SPIN);
   printf("sum %ld\n", sum);
   return 0;
}

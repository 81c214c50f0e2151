/* owntwo: a page holding two globals, for naming a page by the bytes the
   program accesses (tests/test_peaks.py).

   first_small starts a page of its own section (its first 16 bytes);
   then_large fills the rest of that page and the next.  The program
   reads then_large only, over and over: the page's owner is then_large,
   although first_small is what lies at the page's first byte.  The test
   checks the layout with nm. */

#include <stdio.h>

__attribute__((section(".data.owntwo"), aligned(4096)))
char first_small[16] = { 1 };
__attribute__((section(".data.owntwo")))
char then_large[6000] = { 2 };

int main(void)
{
   volatile char *p = then_large;
   long sum = 0;
   for (long r = 0; r < 200000; r++)
      sum += p[r % sizeof then_large];
   printf("%ld\n", sum > 0 ? 1L : 0L);
   return 0;
}

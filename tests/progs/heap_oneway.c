/* heap_oneway.c: chunks only written and chunks only read, the third
   case of "heap usage that is right for small objects": three sites of
   1,000 chunks of 256 bytes each, allocated in turn (so that neighbours
   of different sites share the 64-byte lines at their ends), all live at
   once, then freed:
     site_written  malloc; all 32 words written, none read
     site_read     calloc (the zeroing is the allocator's); all 32 words
                   read, none written
     site_both     malloc; all 32 words written, then all read

   The Memoro paper's answers (../shared/ws-interface.md sections 6 and
   9; tests/memoro_model.py), for each site: chunks 1000, bytes 256000,
   peak-live 256000, never 0, touched 256000, interval 256000; and
     site_written: write-only 1000, read-only 0, usage 0.000 (the Useless
       function: never read), score 0.000
     site_read:    read-only 1000, write-only 0, usage 0.000 (never
       written), score 0.000
     site_both:    read-only 0, write-only 0, usage 1.000
   In a flame graph coloured by score the first two are the worst colour.

   At cache-line resolution: each chunk has three or four lines of its
   own, whose kinds are its own; its first and last lines are shared
   with the neighbours (of the other sites), whose reads or writes there
   are not its own.  ws before this: usage 1.000 for all three; at 4 KiB
   pages no chunk write-only and 8 read-only, at 64 bytes 250 and 500.

   DHAT (tests/dhat_oracle.py), each site 1000 blocks, 256000 bytes, max
   256000: site_written 0 read, 256000 written, every offset accessed
   1000 times; site_read 256000 read, 0 written, every offset 1000 times;
   site_both 256000 read and 256000 written, every offset 2000 times. */

#include <stdio.h>
#include <stdlib.h>

#define CHUNKS 1000
#define WORDS 32

static long* written[CHUNKS];
static long* readonly[CHUNKS];
static long* both[CHUNKS];

__attribute__((noinline)) static long* site_written(long i)
{
   long* p = malloc(WORDS * sizeof *p);
   if (p == NULL)
      abort();
   for (int k = 0; k < WORDS; k++)
      p[k] = i;
   return p;
}

__attribute__((noinline)) static long* site_read(void)
{
   long* p = calloc(WORDS, sizeof *p);
   if (p == NULL)
      abort();
   return p;
}

__attribute__((noinline)) static long* site_both(long i)
{
   long* p = malloc(WORDS * sizeof *p);
   if (p == NULL)
      abort();
   for (int k = 0; k < WORDS; k++)
      p[k] = i;
   return p;
}

int main(void)
{
   long i, sum = 0;
   for (i = 0; i < CHUNKS; i++) {
      written[i] = site_written(i);
      readonly[i] = site_read();
      both[i] = site_both(i);
   }
   for (i = 0; i < CHUNKS; i++)
      for (int k = 0; k < WORDS; k++)
         sum += readonly[i][k] + both[i][k];
   for (i = 0; i < CHUNKS; i++) {
      free(written[i]);
      free(readonly[i]);
      free(both[i]);
   }
   printf("sum %ld\n", sum);
   return 0;
}

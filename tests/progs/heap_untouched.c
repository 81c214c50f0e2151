/* heap_untouched.c: chunks never touched among chunks in use, the
   second case of "heap usage that is right for small objects": 1,000
   chunks of 32 bytes that the program never touches, allocated in turn
   with 1,000 chunks of 32 bytes that it writes whole and reads whole
   (four 8-byte stores, then four 8-byte loads).  glibc puts them 48
   bytes apart, so every 64-byte line holds parts of both kinds.  All are
   live at once, then freed.

   The Memoro paper's answers (../shared/ws-interface.md sections 6 and
   9; tests/memoro_model.py):
     site_unused: chunks 1000, bytes 32000, peak-live 32000, never 1000,
       read-only 0, write-only 0, touched 0, interval 0, usage 0.000,
       useful 0.000, score 0.000
     site_used:   chunks 1000, bytes 32000, peak-live 32000, never 0,
       read-only 0, write-only 0, touched 32000, interval 32000,
       usage 1.000

   At cache-line resolution every chunk here is smaller than a line and
   shares its lines with neighbours of the other kind: a line's accesses
   cannot say whose they were, so without the exact addresses the chunks
   are below the resolution (said so, never guessed); ws at 4 KiB pages
   finds 0 of the unused chunks never touched, at 64-byte pages about
   half (and calls some read-only: their neighbours' reads).

   DHAT (tests/dhat_oracle.py): site_unused 1000 blocks, 32000 bytes,
   max 32000, 0 read, 0 written, histogram 32 zeros; site_used 1000
   blocks, 32000 bytes, max 32000, 32000 bytes read and 32000 written,
   offsets 0..31 accessed 2000 times each. */

#include <stdio.h>
#include <stdlib.h>

#define PAIRS 1000
#define SIZE 32

static long* used[PAIRS];
static void* unused[PAIRS];

__attribute__((noinline)) static long* site_used(long i)
{
   long* p = malloc(SIZE);
   if (p == NULL)
      abort();
   p[0] = i;
   p[1] = i;
   p[2] = i;
   p[3] = i;
   return p;
}

__attribute__((noinline)) static void* site_unused(void)
{
   void* p = malloc(SIZE);
   if (p == NULL)
      abort();
   return p;
}

int main(void)
{
   long i, sum = 0;
   for (i = 0; i < PAIRS; i++) {
      used[i] = site_used(i);
      unused[i] = site_unused();
   }
   for (i = 0; i < PAIRS; i++)
      sum += used[i][0] + used[i][1] + used[i][2] + used[i][3];
   for (i = 0; i < PAIRS; i++) {
      free(used[i]);
      free(unused[i]);
   }
   printf("sum %ld\n", sum);
   return 0;
}

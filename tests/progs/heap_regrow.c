/* heap_regrow.c: a buffer regrown by realloc, the fifth case of "heap
   usage that is right for small objects" (the Memoro paper's runs of
   growing sizes).  regrow() starts from NULL and doubles the buffer with
   realloc, from one call in a loop, up to a limit, writing each new half
   with memset; then reads the whole buffer (8-byte loads) and frees it.
   Called from three places, it makes three allocation sites (the stacks
   differ below regrow):
     site_long    once, 4 KiB to 256 KiB: 7 chunks
     site_twice   twice, 4 KiB to 16 KiB: 6 chunks
     site_short   twice, 4 KiB to 8 KiB: 4 chunks

   A realloc is the free of the old chunk and the allocation of a new one
   at the realloc's site (ws-interface.md section 9), and what it copies
   is the allocator's work, not the program's use.

   The Memoro paper's answers (../shared/ws-interface.md sections 6 and
   9; tests/memoro_model.py):
     site_long:  chunks 7, bytes 520192 (4+8+...+256 KiB), peak-live
       262144, growth 1 (one run of 7 growing sizes); the first six
       chunks are written (their new half; the first, 4 KiB, whole) and
       never read: write-only 6; the last is written in its new half
       and read whole: touched 393216 (4+4+8+16+32+64+256 KiB),
       interval 393216, usage 262144 / 520192 = 0.504
     site_twice: chunks 6, bytes 57344, peak-live 16384, growth 2 (two
       runs of 3), write-only 4, touched 49152 (per round 4096 + 4096 +
       16384), interval 49152, usage 32768 / 57344 = 0.571
     site_short: chunks 4, bytes 24576, peak-live 8192, growth 0 (runs
       of 2 are not growth), write-only 2, touched 24576 (per round 4096
       + 8192), interval 24576, usage 16384 / 24576 = 0.667

   DHAT (tests/dhat_oracle.py) keeps a realloc'd block under the site
   that first allocated it and counts each realloc as a block of the new
   size, here the same site: 7, 6 and 4 blocks, 520192, 57344 and 24576
   bytes.  Its reads and writes count the realloc's copy too (the old
   size, read and written); it keeps no access histogram for a block
   that was resized.  Its "max" is the site's live bytes when the site's
   own allocation last raised the whole heap's maximum: 262144 for
   site_long (run first: every step raises it), 0 for the other two,
   which never reach site_long's 256 KiB.

   ws before this: no growth figure; usage 0.762, 0.881 and 1.000 at
   4 KiB pages (each chunk's new part counted as use). */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FIRST 4096

/* Doubles a buffer from FIRST to limit bytes, writing each new part;
   then reads it all and frees it.  Returns the sum read. */
__attribute__((noinline)) static unsigned long regrow(size_t limit)
{
   char* p = NULL;
   size_t size, old = 0;
   unsigned long sum = 0;
   for (size = FIRST; size <= limit; size *= 2) {
      p = realloc(p, size);
      if (p == NULL)
         abort();
      memset(p + old, 1, size - old);
      old = size;
   }
   for (size_t i = 0; i < old / sizeof(long); i++)
      sum += ((const unsigned long*)p)[i];
   free(p);
   return sum;
}

__attribute__((noinline)) static unsigned long site_long(void)
{
   return regrow(256 * 1024);
}

/* The two rounds come from one call (two calls, even on one line, would
   be two allocation stacks). */
__attribute__((noinline)) static unsigned long site_twice(void)
{
   unsigned long sum = 0;
   for (int round = 0; round < 2; round++)
      sum += regrow(16 * 1024);
   return sum;
}

__attribute__((noinline)) static unsigned long site_short(void)
{
   unsigned long sum = 0;
   for (int round = 0; round < 2; round++)
      sum += regrow(8 * 1024);
   return sum;
}

int main(void)
{
   unsigned long sum = site_long() + site_twice() + site_short();
   printf("sum %lu\n", sum);
   return 0;
}

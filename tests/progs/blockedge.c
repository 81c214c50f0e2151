/* blockedge: a heap block that ends exactly at a page boundary, and the
   page right after it touched too (tests/test_owners.py): the block's
   owner has exactly its own pages, not the next one.

   usage: blockedge

   Allocates PAGES pages aligned to a page (posix_memalign; below glibc's
   mmap threshold, so from the brk heap, where the memory after the block
   is glibc's next chunk or its top chunk), writes a byte of each of the
   block's pages, reads the word right after the block (the next chunk's
   header: heap memory that no block holds), and prints "block ADDR
   SIZE".  The block stays live.  Exit status 0, 3 if the allocation
   fails. */

#include <stdio.h>
#include <stdlib.h>

#define PAGE  4096
#define PAGES 16

int main(void)
{
   void* block;
   volatile char* p;
   long after;
   int i;
   if (posix_memalign(&block, PAGE, PAGES * PAGE) != 0)
      return 3;
   p = block;
   for (i = 0; i < PAGES; i++)
      p[i * PAGE] = 1;
   after = *(volatile long*)(p + PAGES * PAGE);
   printf("block %p %d\n", block, PAGES * PAGE);
   return after == 12345 ? 0 : 0;
}

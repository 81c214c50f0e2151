/* owner_kinds: pages of four owners a dump names (tests/test_owner_kinds.py):
   a mapped file, a freed heap block, heap memory that no block was ever
   in, and memory unmapped since it was touched.

   usage: owner_kinds FILE

   FILE must be at least PAGES pages long.  The program
     - maps FILE (read-only, private) and reads a byte of each of its
       first PAGES pages: owner `file FILE`;
     - allocates a block of PAGES pages from the brk heap and then a small
       one after it (so that freeing the first does not give it back to
       the top of the heap), writes a byte at the block's start and
       every 4096 bytes after it, PAGES bytes in all, and frees the
       block: those pages hold no live block, but the block freed there
       is named by its allocating stack while they stay in the window,
       owner `freed`;
     - writes a byte to each of PAGES pages that start two pages after
       the small block, in the top chunk of malloc's brk heap (the
       heap is grown by 132 KiB at a time, so they lie inside it): heap
       memory in which no block ever was, owner `heap-other`;
     - maps PAGES anonymous pages, writes a byte to each, and unmaps
       them: owner `unknown`;
   then dumps the working set (WS_DUMP("owners"), and "ws dump full" and
   "ws hot 2" through VALGRIND_MONITOR_COMMAND) and prints on stdout
   one line per region, "file ADDR", "freed ADDR", "raw ADDR",
   "unmapped ADDR": the
   address of the first byte touched.  Everything happens in far fewer
   instructions than the test's tau, so the dump holds every page
   touched.  Exit status 0, 2 on bad arguments, 3 if a call fails. */

#include <fcntl.h>
#include <stdint.h>
#include <unistd.h>

#include "wsprog.h"
#include "valgrind/ws.h"

#define PAGES 3
#define PAGE  4096

WS_LOOP(owner_kinds_read, "movb (%rdi), %r11b");
WS_LOOP(owner_kinds_write, "movb $1, (%rdi)");

int main(int argc, char **argv)
{
   if (argc != 2) {
      fprintf(stderr, "usage: owner_kinds FILE\n");
      return 2;
   }
   int fd = open(argv[1], O_RDONLY);
   char *file = fd < 0 ? MAP_FAILED
                       : mmap(NULL, PAGES * PAGE, PROT_READ, MAP_PRIVATE, fd, 0);
   char *block = malloc(PAGES * PAGE);
   char *after = malloc(16);
   char *gone = ws_map(PAGES * PAGE);
   if (file == MAP_FAILED || block == NULL || after == NULL) {
      perror("owner_kinds");
      return 3;
   }
   owner_kinds_read(file, PAGES, PAGE, 1, 1);
   owner_kinds_write(block, PAGES, PAGE, 1, 1);
   free(block);
   char *raw = (char *)(((uintptr_t)after + 2 * PAGE) & ~(uintptr_t)(PAGE - 1));
   owner_kinds_write(raw, PAGES, PAGE, 1, 1);
   owner_kinds_write(gone, PAGES, PAGE, 1, 1);
   if (munmap(gone, PAGES * PAGE) != 0) {
      perror("owner_kinds: munmap");
      return 3;
   }
   WS_DUMP("owners");
   /* the same pages as a person sees them, on Valgrind's log */
   VALGRIND_MONITOR_COMMAND("ws dump full");
   VALGRIND_MONITOR_COMMAND("ws hot 2");
   printf("file %p\nfreed %p\nraw %p\nunmapped %p\n", (void *)file,
          (void *)block, (void *)raw, (void *)gone);
   free(after);
   return 0;
}

/* heap_server: heap chunks made, used and freed when its standard input
   says, so that a test can look at them with "ws heap" while the program
   is blocked reading the pipe (tests/test_heap_usage.py).

   Prints "ready", then reads commands, each answered "ok":

     alloc N PAGES    N chunks of PAGES pages (page-aligned), untouched,
                      from the site alloc_chunks
     write            writes a byte of every page of the chunks
     read             reads a byte of every page of the chunks
     free             frees the chunks
     exit             exits with status 0 (so does end of file)

   Exit status 2 on a bad command. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PAGE       4096
#define MAX_CHUNKS 64

static char* chunks[MAX_CHUNKS];
static long  n_chunks, n_pages;
static volatile long sink;

__attribute__((noinline)) static void alloc_chunks(long n, long pages)
{
   for (long i = 0; i < n; i++) {
      void* p;
      if (posix_memalign(&p, PAGE, pages * PAGE) != 0)
         exit(2);
      chunks[i] = p;
   }
   n_chunks = n;
   n_pages = pages;
}

int main(void)
{
   char line[128];
   printf("ready\n");
   fflush(stdout);
   while (fgets(line, sizeof line, stdin)) {
      long n, pages;
      if (sscanf(line, "alloc %ld %ld", &n, &pages) == 2 && n > 0
          && n <= MAX_CHUNKS && pages > 0 && n_chunks == 0) {
         alloc_chunks(n, pages);
      } else if (strcmp(line, "write\n") == 0) {
         for (long i = 0; i < n_chunks; i++)
            for (long k = 0; k < n_pages; k++)
               chunks[i][k * PAGE] = 1;
      } else if (strcmp(line, "read\n") == 0) {
         for (long i = 0; i < n_chunks; i++)
            for (long k = 0; k < n_pages; k++)
               sink += chunks[i][k * PAGE];
      } else if (strcmp(line, "free\n") == 0) {
         for (long i = 0; i < n_chunks; i++)
            free(chunks[i]);
         n_chunks = 0;
      } else if (strcmp(line, "exit\n") == 0) {
         return 0;
      } else {
         fprintf(stderr, "heap_server: bad command: %s", line);
         return 2;
      }
      printf("ok\n");
      fflush(stdout);
   }
   return 0;
}

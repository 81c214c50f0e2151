/* rel_mmap: maps and unmaps gigabytes in a loop.

   usage: rel_mmap N

   N times: maps 1 GiB (anonymous, private, MAP_NORESERVE), writes one
   byte at the start of each 256 KiB of it (4096 pages, a WS_LOOP alone
   on its code page) and unmaps it.  Then prints

     distinct D          how many different addresses the N mappings had
     hwm K               VmHWM of /proc/self/status in kB: the peak
                         resident size of the process (under Valgrind,
                         Valgrind's and the tool's memory included)

   Exit status 0; 2 on bad arguments or a failed mmap/munmap. */

#include <unistd.h>

#include "wsprog.h"

WS_LOOP(rel_mmap_touch, "movb $1, (%rdi)");

#define GIB     (1L << 30)
#define STRIDE  (256L * 1024)
#define MAXN    1000

static long hwm_kb(void)
{
   char line[256];
   long kb = -1;
   FILE *f = fopen("/proc/self/status", "r");
   if (f == NULL)
      return -1;
   while (fgets(line, sizeof line, f))
      if (sscanf(line, "VmHWM: %ld kB", &kb) == 1)
         break;
   fclose(f);
   return kb;
}

int main(int argc, char **argv)
{
   static char *seen[MAXN];
   long n, i, j, distinct = 0;
   if (argc != 2) {
      fprintf(stderr, "usage: rel_mmap N\n");
      return 2;
   }
   n = ws_arg(argv[1], "N");
   if (n < 1 || n > MAXN) {
      fprintf(stderr, "rel_mmap: N is 1 .. %d\n", MAXN);
      return 2;
   }
   for (i = 0; i < n; i++) {
      char *p = mmap(NULL, GIB, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (p == MAP_FAILED) {
         perror("mmap");
         return 2;
      }
      rel_mmap_touch(p, GIB / STRIDE, STRIDE, 1, 1);
      for (j = 0; j < distinct && seen[j] != p; j++)
         ;
      if (j == distinct)
         seen[distinct++] = p;
      if (munmap(p, GIB) != 0) {
         perror("munmap");
         return 2;
      }
   }
   printf("distinct %ld\nhwm %ld\n", distinct, hwm_kb());
   return 0;
}

/* ctl_server: does what its standard input says, one line at a time, so
   that a test can stop it at a known point (blocked reading the pipe) and
   steer ws from outside with vgdb or gdb.

   usage: ctl_server PAGES

   Maps PAGES pages, prints "ready <base address>" and then reads commands:

     touch FIRST COUNT SWEEPS  writes one byte to each of pages FIRST ..
                               FIRST+COUNT-1, SWEEPS times over (the loop
                               is alone on its code page: 25 instructions
                               per page, see wsprog.h)
     checkpoint                calls ctl_checkpoint() (for a breakpoint)
     current                   prints "current INSN DATA" (WS_CURRENT_*)
     exit                      exits with status 0 (so does end of file)

   and answers each with a line ("ok", or "current ..."), flushed at once.
   Exit status 2 on a bad command or argument. */

#include <unistd.h>

#include <valgrind/ws.h>

#include "wsprog.h"

WS_LOOP(ctl_server_touch, "movb $1, (%rdi)");

#define PAGE  4096
#define DELAY 10

/* Where a test's gdb puts its breakpoint. */
__attribute__((noinline)) void ctl_checkpoint(void)
{
   __asm__ volatile("" ::: "memory");
}

int main(int argc, char **argv)
{
   char line[256];
   if (argc != 2) {
      fprintf(stderr, "usage: ctl_server PAGES\n");
      return 2;
   }
   long pages = ws_arg(argv[1], "pages");
   char *base = ws_map((pages ? pages : 1) * PAGE);
   printf("ready %p\n", (void *)base);
   fflush(stdout);
   while (fgets(line, sizeof line, stdin)) {
      long first, count, sweeps;
      char extra;
      if (sscanf(line, "touch %ld %ld %ld %c", &first, &count, &sweeps,
                 &extra) == 3) {
         if (first < 0 || count < 1 || sweeps < 1 || first + count > pages) {
            fprintf(stderr, "ctl_server: pages out of range: %s", line);
            return 2;
         }
         ctl_server_touch(base + first * PAGE, count, PAGE, DELAY, sweeps);
         printf("ok\n");
      } else if (strcmp(line, "checkpoint\n") == 0) {
         ctl_checkpoint();
         printf("ok\n");
      } else if (strcmp(line, "current\n") == 0) {
         unsigned long insn = WS_CURRENT_INSN_PAGES;
         unsigned long data = WS_CURRENT_DATA_PAGES;
         printf("current %lu %lu\n", insn, data);
      } else if (strcmp(line, "exit\n") == 0) {
         return 0;
      } else {
         fprintf(stderr, "ctl_server: bad command: %s", line);
         return 2;
      }
      fflush(stdout);
   }
   return 0;
}

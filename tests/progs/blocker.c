/* blocker: work for a while, then block until killed.

   usage: blocker PAGES INSNS

   Writes one byte to each of PAGES pages, sweep after sweep, for about
   INSNS instructions (the loop alone on its page: a window inside it has
   1 instruction page and PAGES data pages), then blocks reading standard
   input.  The test that runs it keeps the other end of that pipe open and
   kills the process with SIGKILL, to see what a killed run leaves.

   Exit status 0 if standard input reaches end of file, 2 on bad
   arguments. */

#include <unistd.h>

#include "wsprog.h"

WS_LOOP(blocker_touch, "movb $1, (%rdi)");

#define DELAY 10

int main(int argc, char **argv)
{
   if (argc != 3) {
      fprintf(stderr, "usage: blocker PAGES INSNS\n");
      return 2;
   }
   long pages = ws_arg(argv[1], "pages");
   long insns = ws_arg(argv[2], "insns");
   if (pages < 1)
      return 2;
   char *base = ws_map(pages * 4096);
   blocker_touch(base, pages, 4096, DELAY,
                 ws_sweeps_for(insns, pages, WS_LOOP_PER_ELEMENT(1, DELAY)));
   char c;
   while (read(0, &c, 1) > 0)
      ;
   return 0;
}

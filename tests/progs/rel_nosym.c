/* rel_nosym: a program linked without symbols (-s) nor debug info.

   usage: rel_nosym STATUS

   main calls a chain of three functions (static, so that nothing but
   the symbol table could name them), the last of which writes one byte
   to each of 10 pages for about 500,000 instructions (a WS_LOOP alone on
   its page), then 20 pages for as long.  Prints "done" and exits with
   STATUS; 2 on bad arguments. */

#include "wsprog.h"

WS_LOOP(rel_nosym_touch, "movb $1, (%rdi)");

#define DELAY 10

__attribute__((noinline)) static void rel_nosym_leaf(char *p, long n)
{
   rel_nosym_touch(p, n, 4096, DELAY,
                   ws_sweeps_for(500000, n, WS_LOOP_PER_ELEMENT(1, DELAY)));
}

__attribute__((noinline)) static void rel_nosym_middle(char *p, long n)
{
   rel_nosym_leaf(p, n);
   __asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) static void rel_nosym_outer(char *p, long n)
{
   rel_nosym_middle(p, n);
   __asm__ volatile("" ::: "memory");
}

int main(int argc, char **argv)
{
   if (argc != 2) {
      fprintf(stderr, "usage: rel_nosym STATUS\n");
      return 2;
   }
   long status = ws_arg(argv[1], "status");
   char *p = ws_map(30 * 4096);
   rel_nosym_outer(p, 10);
   rel_nosym_outer(p + 10 * 4096, 20);
   printf("done\n");
   return (int)status;
}

/* readcode: a loop that reads its own code (and more code) as data.

   usage: readcode ITERATIONS

   rc_loop sits alone on the first page of its section; the section goes on
   for three more pages of code (int3 bytes, never executed).  Each
   iteration loads one byte from each of the four pages, the first being
   the page rc_loop itself runs from.  A window inside the loop has
   1 instruction page and 4 data pages: the loop's own page counts in both
   sets.  Instructions per iteration: 4 loads, dec, jnz = 6.

   Each load goes to its own register: Valgrind's IR optimiser drops a
   load whose result is overwritten within the same superblock before any
   tool sees it (both ws and lackey would then miss the access).

   Exit status 0, or 2 on bad arguments. */

#include "wsprog.h"

__asm__(".pushsection .text.wsprog.readcode,\"ax\",@progbits\n"
        "   .p2align 12\n"
        "   .globl rc_loop\n"
        "   .type rc_loop, @function\n"
        "rc_loop:\n"                     /* rdi = iterations */
        "   lea rc_loop(%rip), %rsi\n"
        "1: movzbl (%rsi), %eax\n"
        "   movzbl 4096(%rsi), %ecx\n"
        "   movzbl 8192(%rsi), %edx\n"
        "   movzbl 12288(%rsi), %r8d\n"
        "   dec %rdi\n"
        "   jnz 1b\n"
        "   ret\n"
        "   .org 16384, 0xcc\n"
        ".popsection\n");

void rc_loop(long iterations);

int main(int argc, char **argv)
{
   if (argc != 2) {
      fprintf(stderr, "usage: readcode ITERATIONS\n");
      return 2;
   }
   long n = ws_arg(argv[1], "iterations");
   if (n < 1)
      return 2;
   rc_loop(n);
   return 0;
}

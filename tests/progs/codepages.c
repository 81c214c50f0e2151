/* codepages: instruction working sets of a known number of code pages.

   usage: codepages calls ITERATIONS
          codepages straddle ITERATIONS

   calls:    cp_drive, alone on its page, calls cp_f0 .. cp_f7 (each alone
             on its own page, each `nop; ret`) ITERATIONS times.  A window
             inside the loop has 9 instruction pages (the driver's and the
             eight functions') and 1 data page: the stack slot the calls
             push their return address to (8-byte aligned, so it never
             straddles).  At 64-byte granularity: 9 lines (the driver's loop
             is 46 bytes from a page start) and 1 data line.
             Instructions per iteration: 8 calls + 8*2 + dec + jnz = 26.

   straddle: cp_straddle is a loop whose only instruction outside the first
             page of its section is a 5-byte jmp placed at offset 4094, so
             it straddles into the second page; nothing else is ever
             executed from (or placed on) that second page.  A window inside
             the loop has 2 instruction pages (1 if straddling is ignored)
             and no data page at all.  At 64-byte granularity: 3 lines (line
             0: the dec and jnz; lines 63 and 64: the jmp).
             Instructions per iteration: dec, jnz, jmp = 3.

   Exit status 0, or 2 on bad arguments. */

#include "wsprog.h"

#define CP_F(n)                                                 \
   "   .p2align 12, 0xcc\n"                                     \
   "cp_f" #n ":\n"                                              \
   "   nop\n"                                                   \
   "   ret\n"

__asm__(".pushsection .text.wsprog.codepages,\"ax\",@progbits\n"
        "   .p2align 12\n"
        "   .globl cp_drive\n"
        "   .type cp_drive, @function\n"
        "cp_drive:\n"                    /* rdi = iterations */
        "1: call cp_f0\n"
        "   call cp_f1\n"
        "   call cp_f2\n"
        "   call cp_f3\n"
        "   call cp_f4\n"
        "   call cp_f5\n"
        "   call cp_f6\n"
        "   call cp_f7\n"
        "   dec %rdi\n"
        "   jnz 1b\n"
        "   ret\n"
        CP_F(0) CP_F(1) CP_F(2) CP_F(3) CP_F(4) CP_F(5) CP_F(6) CP_F(7)
        "   .p2align 12, 0xcc\n"
        ".popsection\n");

/* Its own section, so that offsets within the section are offsets within
   its first page: .org 4094 puts the jmp at 4094..4098. */
__asm__(".pushsection .text.wsprog.straddle,\"ax\",@progbits\n"
        "   .p2align 12\n"
        "   .globl cp_straddle\n"
        "   .type cp_straddle, @function\n"
        "cp_straddle:\n"                 /* rdi = iterations */
        "1: dec %rdi\n"
        "   jnz 2f\n"
        "   ret\n"
        "   .org 4094, 0xcc\n"
        "2: .byte 0xe9\n"                /* jmp rel32 back to 1b */
        "   .long 1b - (. + 4)\n"
        "   .org 8192, 0xcc\n"
        ".popsection\n");

void cp_drive(long iterations);
void cp_straddle(long iterations);

int main(int argc, char **argv)
{
   if (argc != 3) {
      fprintf(stderr, "usage: codepages calls|straddle ITERATIONS\n");
      return 2;
   }
   long n = ws_arg(argv[2], "iterations");
   if (n < 1)
      return 2;
   if (strcmp(argv[1], "calls") == 0)
      cp_drive(n);
   else if (strcmp(argv[1], "straddle") == 0)
      cp_straddle(n);
   else {
      fprintf(stderr, "codepages: unknown mode '%s'\n", argv[1]);
      return 2;
   }
   return 0;
}

/* bigcode: more code than ws has code slots for at 64-byte pages.

   usage: bigcode ROUNDS

   bc_run is 12,288 lines of 64 bytes of straight-line code, each line
   16 four-byte nops (nopl 0(%rax)), then a ret; main calls it ROUNDS
   times: 196,609 instructions a call.  ws gives the first 8,192 code
   pages it instruments a code slot (ws_codeslots.c), so at
   --ws-pagesize=64 most of bc_run's lines are checked and counted
   without one; a VEX superblock of at most 50 such nops spans at most
   5 lines.

   Exit status 0, or 2 on bad arguments. */

#include "wsprog.h"

__asm__(".pushsection .text.wsprog.bigcode,\"ax\",@progbits\n"
        "   .p2align 12\n"
        "   .globl bc_run\n"
        "   .type bc_run, @function\n"
        "bc_run:\n"
        "   .rept 12288 * 16\n"
        "   .byte 0x0f, 0x1f, 0x40, 0x00\n"
        "   .endr\n"
        "   ret\n"
        "   .size bc_run, . - bc_run\n"
        "   .p2align 12, 0xcc\n"
        ".popsection\n");
void bc_run(void);

int main(int argc, char **argv)
{
   if (argc != 2) {
      fprintf(stderr, "usage: bigcode ROUNDS\n");
      return 2;
   }
   long rounds = ws_arg(argv[1], "rounds");
   for (long i = 0; i < rounds; i++)
      bc_run();
   return 0;
}

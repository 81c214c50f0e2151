/* steps: data working sets of exactly chosen sizes, sample after sample,
   for the boundaries of the peak detector's rules (tests/test_peaks.py).

   usage: steps T PAGES:SAMPLES...      (run with --ws-instr-atstart=no
                                         --ws-every=T)

   After WS_START the program runs one phase per argument, phase i for
   exactly SAMPLES_i * T instructions (the first one 1,000 more), each
   sweeping the first PAGES_i pages of one mapping over and over: a
   store to each page, 4 instructions per page, no stack, no call.  So a
   window of T instructions that lies in phases whose page sets only
   grow (each set holds the pages of the sets before it) has exactly the
   pages of the largest, and the k-th sample (k >= 2) of a phase that
   follows a smaller one has exactly PAGES_i data pages.  The first
   sample also holds the stack page the call to the phases touches.

   The phases run in steps_run (assembly below), whose instruction
   counts are exact:

     per page:   4     movb, add, dec, jnz
     per sweep:  4 + 4 * pages
     per phase:  6 + sweeps * (4 + 4 * pages) + 2 * spins

   and its table of phases lies in the mapping's first page, which every
   phase sweeps. */

#include <valgrind/ws.h>

#include "wsprog.h"

#define PAGE 4096

/* steps_run(base, table, phases): table[3*i] pages, [3*i+1] sweeps
   (>= 1), [3*i+2] spins (>= 1) of phase i. */
__asm__(".pushsection .text.wsprog.steps_run,\"ax\",@progbits\n"
        "   .p2align 12\n"
        "   .globl steps_run\n"
        "   .type steps_run, @function\n"
        "steps_run:\n"
        "   mov %rdi, %r8\n"
        "1: mov (%rsi), %r9\n"
        "   mov 8(%rsi), %r10\n"
        "   mov 16(%rsi), %r11\n"
        "2: mov %r8, %rdi\n"
        "   mov %r9, %rcx\n"
        "3: movb $1, (%rdi)\n"
        "   add $4096, %rdi\n"
        "   dec %rcx\n"
        "   jnz 3b\n"
        "   dec %r10\n"
        "   jnz 2b\n"
        "4: dec %r11\n"
        "   jnz 4b\n"
        "   add $24, %rsi\n"
        "   dec %rdx\n"
        "   jnz 1b\n"
        "   ret\n"
        "   .size steps_run, . - steps_run\n"
        "   .p2align 12, 0xcc\n"
        ".popsection\n");
void steps_run(char *base, long *table, long phases);

int main(int argc, char **argv)
{
   if (argc < 3) {
      fprintf(stderr, "usage: steps T PAGES:SAMPLES...\n");
      return 2;
   }
   long T = ws_arg(argv[1], "T"), phases = argc - 2, most = 1;
   for (int i = 2; i < argc; i++) {
      long p = strtol(argv[i], NULL, 10);
      if (p > most)
         most = p;
   }
   char *base = ws_map(most * PAGE);
   long *table = (long *)base;
   if (phases * 3 * sizeof(long) > PAGE) {
      fprintf(stderr, "steps: too many phases\n");
      return 2;
   }
   for (long i = 0; i < phases; i++) {
      char *colon;
      long pages = strtol(argv[2 + i], &colon, 10);
      long samples = *colon == ':' ? strtol(colon + 1, NULL, 10) : 0;
      long insns = samples * T + (i == 0 ? 1000 : 0);
      long sweep = 4 + 4 * pages;
      long sweeps = (insns - 6 - 2) / sweep;
      long spins = (insns - 6 - sweeps * sweep) / 2;
      if (pages < 1 || samples < 1 || T % 2 || sweeps < 1 || spins < 1) {
         fprintf(stderr, "steps: bad phase '%s' (T even, PAGES and "
                 "SAMPLES >= 1, a sweep shorter than the phase)\n",
                 argv[2 + i]);
         return 2;
      }
      table[3 * i] = pages;
      table[3 * i + 1] = sweeps;
      table[3 * i + 2] = spins;
   }
   WS_START;
   steps_run(base, table, phases);
   WS_STOP;
   return 0;
}

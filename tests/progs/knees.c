/* knees: phases whose locality curves have knees where their parameters
   put them (tests/test_curve_oracle.py; ../docs/manual.md, "Locality
   curves").

   usage: knees [-r] STRIDE:N:P:ROUNDS...     one phase per argument

   A phase touches N units STRIDE bytes apart in order, one store each,
   then spins, so that a round takes exactly P instructions, and does
   ROUNDS rounds.  It runs in knees_run (assembly below: no stack, no
   call), whose first and last instructions are getppid system calls,
   so that a trace (lackey --trace-syscalls=yes) shows where the phase
   begins and ends: the phase is the instructions after the first
   `syscall` up to and including the second.  Its instruction counts are
   exact:

     per unit:   4     movb, add, dec, jnz
     per spin:   2     dec, jnz
     per round:  P = 2 + 4 * N + 2 + 2 * spins + 2    (mov, mov; units;
                 nop, mov; spins; dec, jnz), so spins = (P - 4N - 6) / 2
     per phase:  ROUNDS * P + 2                       (mov, syscall)

   P must be even and at least 4N + 8.  Within the phase, instruction t
   (t = 1 .. ROUNDS * P + 2) stores to unit i (i = 0 .. N-1) in round r
   (r = 0 .. ROUNDS-1) at t = r * P + 3 + 4 * i.  So, with STRIDE at
   least the unit's size, every unit is touched once a round, exactly P
   instructions after its previous touch, and in the same order:

   - m(tau), misses per 1,000 instructions of the phase: every store
     misses while tau < P (N * ROUNDS misses), none but the first touches
     from tau = P on (N misses): a step at tau = P exactly (a gap equal
     to tau is no miss);
   - s(tau) = (N / K) * ((ROUNDS - 1) * min(P, tau) + the tails), with
     K = ROUNDS * P + 2 and unit i's tail min(P - 4 * i, tau): it grows
     linearly up to tau = P and is flat beyond;
   - the LRU stack distance of every store but the first touches is N:
     the miss ratio is 1 for caches of fewer than N units and 1 / ROUNDS
     (cold misses) from N units on.

   With STRIDE = 64 and N a multiple of 64 the units are lines, N / 64 of
   them on each page: a page's touches are 4 instructions apart within
   a round and P - 4 * 63 across rounds, so the page curves have their
   step at tau = P - 252, and their LRU distance is N / 64.

   The code (one 64-byte line on a page of its own, wsprog.h) is touched
   at every instruction of the phase: one page and one line, s = 1, and
   a single miss.  The units are a private anonymous mapping of
   N * STRIDE bytes, page-aligned, fresh for each phase.  Exit status 0,
   or 2 on bad arguments.

   With -r each phase is also a ws region named after its argument:
   WS_START right after the first `syscall`, WS_STOP right before the
   second, each a client request that makes no data access (the
   request's instruction at the symbols knees_region_start and
   knees_region_stop),
   so that a trace delimits the same region by those instructions
   (tests/test_curves.py).  knees_static is the same program linked
   statically: no dynamic linker, whose parsing of LD_PRELOAD reads
   bytes that Valgrind makes random in every run (tests/test_oracle.py),
   so that ws and lackey see the same accesses. */

#include <valgrind/ws.h>

#include "wsprog.h"

/* The phase's code; BEGIN and END are put right after the first
   `syscall` and right before the second. */
#define KNEES_RUN(name, begin, end)                                      \
   ".pushsection .text.wsprog." name ",\"ax\",@progbits\n"              \
   "   .p2align 12\n"                                                    \
   "   .globl " name "\n"                                                \
   "   .type " name ", @function\n"                                      \
   name ":\n"                                                            \
   "   mov %rcx, %r9\n"        /* spins; syscall clobbers rcx, r11 */    \
   "   mov $110, %eax\n"       /* getppid: the phase begins after it */  \
   "   syscall\n"                                                        \
   begin                                                                 \
   "1: mov %rdi, %r10\n"                                                 \
   "   mov %rsi, %rcx\n"                                                 \
   "2: movb $1, (%r10)\n"                                                \
   "   add %rdx, %r10\n"                                                 \
   "   dec %rcx\n"                                                       \
   "   jnz 2b\n"                                                         \
   "   nop\n"                                                            \
   "   mov %r9, %rax\n"                                                  \
   "3: dec %rax\n"                                                       \
   "   jnz 3b\n"                                                         \
   "   dec %r8\n"                                                        \
   "   jnz 1b\n"                                                         \
   end                                                                   \
   "   mov $110, %eax\n"                                                 \
   "   syscall\n"              /* the phase's last instruction */        \
   "   ret\n"                                                            \
   "   .size " name ", . - " name "\n"                                   \
   "   .p2align 12, 0xcc\n"                                              \
   ".popsection\n"

/* A client request of ws (valgrind.h's special instruction sequence on
   amd64, its arguments in |args|): no data access of the program's,
   the result in rdx, which holds the stride (saved in r11).  LABEL
   names the sequence, which VEX decodes as one instruction (one I line
   in lackey's trace), after which ws's measurement has started or
   stopped. */
#define KNEES_REQUEST(args, label)                                       \
   "   mov %rdx, %r11\n"                                                 \
   "   lea " args "(%rip), %rax\n"                                       \
   "   xor %edx, %edx\n"                                                 \
   "   .globl " label "\n"                                               \
   label ":\n"                                                           \
   "   rolq $3, %rdi\n   rolq $13, %rdi\n"                               \
   "   rolq $61, %rdi\n   rolq $51, %rdi\n"                              \
   "   xchgq %rbx, %rbx\n"                                               \
   "   mov %r11, %rdx\n"

__asm__(KNEES_RUN("knees_run", "", ""));
/* With -r: the phase is a ws region (WS_START after the first
   `syscall`, WS_STOP before the second), named after its argument. */
/* The requests' argument blocks (ws.h's codes, no arguments), which the
   assembly names: a top-level asm takes no operands. */
const unsigned long knees_start_args[6] = { VG_USERREQ__WS_START };
const unsigned long knees_stop_args[6] = { VG_USERREQ__WS_STOP };
__asm__(
        KNEES_RUN("knees_run_region",
                  KNEES_REQUEST("knees_start_args", "knees_region_start"),
                  KNEES_REQUEST("knees_stop_args", "knees_region_stop")));
void knees_run(char *base, long units, long stride, long spins,
               long rounds);
void knees_run_region(char *base, long units, long stride, long spins,
                      long rounds);

int main(int argc, char **argv)
{
   int regions = argc > 1 && strcmp(argv[1], "-r") == 0;
   if (argc < 2 + regions) {
      fprintf(stderr, "usage: knees [-r] STRIDE:N:P:ROUNDS...\n");
      return 2;
   }
   for (int i = 1 + regions; i < argc; i++) {
      long stride, n, p, rounds;
      char extra;
      if (sscanf(argv[i], "%ld:%ld:%ld:%ld%c", &stride, &n, &p, &rounds,
                 &extra) != 4 || stride < 1 || n < 1 || rounds < 1
          || p % 2 != 0 || p < 4 * n + 8) {
         fprintf(stderr, "knees: bad phase '%s' (STRIDE:N:P:ROUNDS, "
                 "P even and at least 4N + 8)\n", argv[i]);
         return 2;
      }
      char *base = ws_map(n * stride);
      if (regions) {
         WS_MARK(argv[i]);
         knees_run_region(base, n, stride, (p - 4 * n - 6) / 2, rounds);
      } else {
         knees_run(base, n, stride, (p - 4 * n - 6) / 2, rounds);
      }
      munmap(base, n * stride);
   }
   return 0;
}

/* wsprog.h: what the test programs of tests/progs/ share.

   The tests compare ws's numbers with answers computed from a program's
   parameters, so the measured loops must touch exactly the pages the test
   expects and nothing else.  C compiled with -O0 keeps loop variables on
   the stack and may call into libc, so the measured loops are written in
   assembly (x86-64, System V ABI), each function in its own section that
   starts on a 4096-byte boundary and is padded to the end of its last page.
   Such a function is then the only code on its page: a window that lies
   entirely inside one call of it has exactly one instruction page (and one
   64-byte line: every loop below is shorter than 64 bytes), and its only
   data pages are the ones its accesses reach.  The loops use registers
   only: no stack access, no call.

   WS_LOOP(name, access) defines

       void name(char *base, long count, long stride, long delay, long sweeps);

   which performs `sweeps` sweeps; a sweep does, for i = 0 .. count-1, the
   access `access` at base + i*stride (the address is in %rdi; the access
   may use %r11 and the x87 stack), then spins `delay` times.  Instruction
   counts, which the tests use to size windows:

       per element:  A + 4 + 2*delay   (A = instructions in `access`)
       per sweep:    4 more;   per call: 3 more (2 moves and the ret)

   count, delay and sweeps must be at least 1. */

#ifndef WSPROG_H
#define WSPROG_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define WS_LOOP(name, access)                                   \
   __asm__(".pushsection .text.wsprog." #name ",\"ax\",@progbits\n" \
           "   .p2align 12\n"                                   \
           "   .globl " #name "\n"                              \
           "   .type " #name ", @function\n"                    \
           #name ":\n"                                          \
           "   mov %rdi, %r9\n"                                 \
           "   mov %rsi, %r10\n"                                \
           "1: mov %r9, %rdi\n"                                 \
           "   mov %r10, %rsi\n"                                \
           "2: " access "\n"                                    \
           "   mov %rcx, %rax\n"                                \
           "3: dec %rax\n"                                      \
           "   jnz 3b\n"                                        \
           "   add %rdx, %rdi\n"                                \
           "   dec %rsi\n"                                      \
           "   jnz 2b\n"                                        \
           "   dec %r8\n"                                       \
           "   jnz 1b\n"                                        \
           "   ret\n"                                           \
           "   .size " #name ", . - " #name "\n"                \
           "   .p2align 12, 0xcc\n"                             \
           ".popsection\n");                                    \
   void name(char *base, long count, long stride, long delay, long sweeps)

/* Instructions per element of a WS_LOOP whose access has A instructions. */
#define WS_LOOP_PER_ELEMENT(A, delay) ((A) + 4 + 2 * (delay))

/* How many sweeps of `count` elements of `per_element` instructions take
   about `insns` instructions (at least one). */
static inline long ws_sweeps_for(long insns, long count, long per_element)
{
   long per_sweep = count * per_element + 4;
   long s = insns / per_sweep;
   return s < 1 ? 1 : s;
}

/* Parse a non-negative integer argument or exit with status 2. */
static inline long ws_arg(const char *s, const char *what)
{
   char *end;
   errno = 0;
   long v = strtol(s, &end, 0);
   if (errno || end == s || *end || v < 0) {
      fprintf(stderr, "bad %s: '%s'\n", what, s);
      exit(2);
   }
   return v;
}

/* An anonymous private mapping of `bytes` bytes, or exit with status 2. */
static inline char *ws_map(long bytes)
{
   char *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
   if (p == MAP_FAILED) {
      perror("mmap");
      exit(2);
   }
   return p;
}

#endif

/* rtprog.h: what the programs of the per-routine footprint's tests
   (--ws-routines, tests/progs/rt_*.c) share.

   Each program's routines of interest are written in assembly (x86-64,
   System V ABI), each alone in a section that starts on a 4096-byte
   boundary and is padded to the end of its page, so that its cost and
   its input are known exactly from its source:

   - an activation runs from the routine's first instruction until it
     returns, or until the stack pointer rises above its frame (a
     longjmp, an exception); its cost is the instructions it runs, its
     callees' included;
   - its input (rms, trms) is counted in 64-byte lines: a line is input
     when the activation's first access to it is a read, and again
     (trms only) when another thread or the kernel wrote it since the
     activation's thread last touched it;
   - the return address a `ret` reads is no input: it is how the call
     returns, not what the routine works on (the `call` that pushed it is
     a store like any other);
   - the buffers they read are fresh mappings (rt_lines), so every line
     of them starts on a 64-byte boundary.

   RT_BEGIN(name) and RT_END(name) open and close such a section; RT_RET
   (name) is the routine's `ret` with a global label name_ret on it.  A
   program prints "rt NAME ENTRY RET" for each routine (rt_announce), so
   that a test reading an instruction trace knows where the activations
   begin and end.  Every other line a program prints says what it
   computed. */

#ifndef RTPROG_H
#define RTPROG_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define RT_BEGIN(name)                                          \
   ".pushsection .text.rtprog." #name ",\"ax\",@progbits\n"     \
   "   .p2align 12\n"                                           \
   "   .globl " #name "\n"                                      \
   "   .type " #name ", @function\n"                            \
   #name ":\n"

#define RT_RET(name)                                            \
   "   .globl " #name "_ret\n"                                  \
   #name "_ret:\n"                                              \
   "   ret\n"

#define RT_END(name)                                            \
   "   .size " #name ", . - " #name "\n"                        \
   "   .p2align 12, 0xcc\n"                                     \
   ".popsection\n"

/* Says where routine |name| begins and where its `ret` is (NULL: it
   has none that runs). */
static inline void rt_announce(const char *name, const void *entry,
                               const void *ret)
{
   printf("rt %s %p %p\n", name, entry, ret);
}

/* Parse a non-negative integer argument or exit with status 2. */
static inline long rt_arg(const char *s, const char *what)
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

/* |lines| fresh 64-byte lines (whole pages of an anonymous mapping,
   never touched), or exit with status 2. */
static inline char *rt_lines(long lines)
{
   long bytes = (lines * 64 + 4095) & ~4095L;
   char *p = (char *)mmap(NULL, bytes ? bytes : 4096, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
   if (p == MAP_FAILED) {
      perror("mmap");
      exit(2);
   }
   return p;
}

/* A routine of quadratic cost in its input: |name|(base, n), n >= 1,
   reads the first word of each of n lines from base, n times over (n
   distinct lines, n * n reads). */
#define RT_QUADRATIC(name)                                      \
   __asm__(RT_BEGIN(name)                                       \
           "   xor %eax, %eax\n"                                \
           "   mov %rsi, %rcx\n"                                \
           "1: mov %rdi, %rdx\n"                                \
           "   mov %rsi, %r8\n"                                 \
           "2: add (%rdx), %rax\n"                              \
           "   add $64, %rdx\n"                                 \
           "   dec %r8\n"                                       \
           "   jnz 2b\n"                                        \
           "   dec %rcx\n"                                      \
           "   jnz 1b\n"                                        \
           RT_RET(name)                                         \
           RT_END(name))

#endif

/* rt_longjmp: longjmp out of nested calls.

   usage: rt_longjmp N

   N times: main saves its context with rt_setjmp(ctx) and calls
   rt_lj_a(ctx, buf), which reads line 0 of buf and calls rt_lj_b, which
   reads lines 1 and 2 and calls rt_lj_c, which reads lines 3, 4 and 5
   and calls rt_longjmp(ctx): that sets the stack pointer back to main's
   and jumps to where rt_setjmp returned.  None of the four returns: each
   activation ends where the stack pointer rises above its frame, at the
   first instruction back in main.  Instructions and input (64-byte
   lines):

     rt_longjmp   cost 3    rms = trms = 1   (the context's line)
     rt_lj_c      cost 7    rms = trms = 4   (+ lines 3-5)
     rt_lj_b      cost 10   rms = trms = 6   (+ lines 1-2)
     rt_lj_a      cost 12   rms = trms = 7   (+ line 0)

   Then main calls rt_lj_after(buf), which reads lines 8 to 15 and
   returns: cost 36, rms = trms = 8.

   Then N times the same through glibc: main calls setjmp(jb) and
   rt_gl_a(jb, buf), which reads line 0 and calls rt_gl_b, which reads
   lines 1 and 2 and calls rt_gl_c, which reads lines 3, 4 and 5 and
   calls glibc's longjmp(jb, 1).  What longjmp runs and reads is glibc's,
   but each level's own part is exact, in every activation:

     cost(rt_gl_a) = cost(rt_gl_b) + 2    trms(rt_gl_a) = trms(rt_gl_b) + 1
     cost(rt_gl_b) = cost(rt_gl_c) + 3    trms(rt_gl_b) = trms(rt_gl_c) + 2
     cost(rt_gl_c) >= 5,                  trms(rt_gl_c) >= 3

   and main calls rt_lj_after(buf) again after each.  One thread: nothing
   is induced.  Prints "longjmp N SUM"; exit status 0, 2 on bad
   arguments, 3 if the jumps did not land as they should. */

#include <setjmp.h>

#include "rtprog.h"

/* ctx[0] = where rt_setjmp returns to, ctx[1] = the stack pointer
   there. */
__asm__(RT_BEGIN(rt_setjmp)
        "   mov (%rsp), %rax\n"
        "   mov %rax, (%rdi)\n"
        "   lea 8(%rsp), %rax\n"
        "   mov %rax, 8(%rdi)\n"
        "   xor %eax, %eax\n"
        RT_RET(rt_setjmp)
        RT_END(rt_setjmp));

/* rt_setjmp returns again, with 1. */
__asm__(RT_BEGIN(rt_longjmp)
        "   mov 8(%rdi), %rsp\n"
        "   mov $1, %eax\n"
        "   jmp *(%rdi)\n"
        RT_END(rt_longjmp));

/* rdi = ctx (or a jmp_buf), rsi = buf: each level reads its lines into
   rax and calls the next. */
__asm__(RT_BEGIN(rt_lj_a)
        "   add (%rsi), %rax\n"
        "   call rt_lj_b\n"
        "   ud2\n"
        RT_END(rt_lj_a));
__asm__(RT_BEGIN(rt_lj_b)
        "   add 64(%rsi), %rax\n"
        "   add 128(%rsi), %rax\n"
        "   call rt_lj_c\n"
        "   ud2\n"
        RT_END(rt_lj_b));
__asm__(RT_BEGIN(rt_lj_c)
        "   add 192(%rsi), %rax\n"
        "   add 256(%rsi), %rax\n"
        "   add 320(%rsi), %rax\n"
        "   call rt_longjmp\n"
        "   ud2\n"
        RT_END(rt_lj_c));

__asm__(RT_BEGIN(rt_gl_a)
        "   add (%rsi), %rax\n"
        "   call rt_gl_b\n"
        "   ud2\n"
        RT_END(rt_gl_a));
__asm__(RT_BEGIN(rt_gl_b)
        "   add 64(%rsi), %rax\n"
        "   add 128(%rsi), %rax\n"
        "   call rt_gl_c\n"
        "   ud2\n"
        RT_END(rt_gl_b));
__asm__(RT_BEGIN(rt_gl_c)
        "   add 192(%rsi), %rax\n"
        "   add 256(%rsi), %rax\n"
        "   add 320(%rsi), %rax\n"
        "   mov $1, %esi\n"
        "   call longjmp@PLT\n"
        "   ud2\n"
        RT_END(rt_gl_c));

/* Reads lines 8 to 15 of buf (rdi): cost 3 + 4*8 + 1. */
__asm__(RT_BEGIN(rt_lj_after)
        "   xor %eax, %eax\n"
        "   mov $8, %ecx\n"
        "   lea 512(%rdi), %rdx\n"
        "1: add (%rdx), %rax\n"
        "   add $64, %rdx\n"
        "   dec %ecx\n"
        "   jnz 1b\n"
        RT_RET(rt_lj_after)
        RT_END(rt_lj_after));

long rt_setjmp(long ctx[2]);
void rt_longjmp(long ctx[2]);
void rt_lj_a(long ctx[2], char *buf);
void rt_gl_a(jmp_buf jb, char *buf);
long rt_lj_after(char *buf);
extern const char rt_setjmp_ret[], rt_lj_after_ret[], rt_lj_b[], rt_lj_c[],
   rt_gl_b[], rt_gl_c[];

int main(int argc, char **argv)
{
   if (argc != 2) {
      fprintf(stderr, "usage: rt_longjmp N\n");
      return 2;
   }
   long n = rt_arg(argv[1], "N");
   char *buf = rt_lines(16);
   for (int k = 0; k < 16; k++)
      *(long *)(buf + 64 * k) = 1;
   long *ctx = (long *)rt_lines(1);
   rt_announce("rt_setjmp", (void *)rt_setjmp, rt_setjmp_ret);
   rt_announce("rt_longjmp", (void *)rt_longjmp, NULL);
   rt_announce("rt_lj_a", (void *)rt_lj_a, NULL);
   rt_announce("rt_lj_b", rt_lj_b, NULL);
   rt_announce("rt_lj_c", rt_lj_c, NULL);
   rt_announce("rt_gl_a", (void *)rt_gl_a, NULL);
   rt_announce("rt_gl_b", rt_gl_b, NULL);
   rt_announce("rt_gl_c", rt_gl_c, NULL);
   rt_announce("rt_lj_after", (void *)rt_lj_after, rt_lj_after_ret);
   fflush(stdout);
   /* volatile: kept in memory across the jumps */
   volatile long landed = 0, sum = 0;
   for (volatile long i = 0; i < n; i++) {
      if (rt_setjmp(ctx) == 0)
         rt_lj_a(ctx, buf);
      landed++;
      sum += rt_lj_after(buf);
   }
   static jmp_buf jb;
   for (volatile long i = 0; i < n; i++) {
      if (setjmp(jb) == 0)
         rt_gl_a(jb, buf);
      landed++;
      sum += rt_lj_after(buf);
   }
   printf("longjmp %ld %ld\n", n, (long)sum);
   return landed == 2 * n && sum == 16 * n ? 0 : 3;
}

/* rt_recur: a recursion whose every level reads the same lines.

   usage: rt_recur K D

   Calls rt_rec(base, K, D) on K fresh lines (1 in each line's first
   word).  An activation with d levels still below it reads the K lines,
   calls itself with d - 1 (when d > 0), then reads the K lines again:

     cost(d) = d (8K + 10) + 8K + 7, the callees' included
     rms = trms = K for every one of the D + 1 activations

   The K lines count once for each activation however often it and its
   callees read them (rtprog.h: the return addresses are no input).  One
   thread: nothing induced.

   Prints "rec K D SUM" (SUM = 2K(D + 1)).  Exit status 0, 2 on bad
   arguments, 3 if the sum is wrong. */

#include "rtprog.h"

__asm__(RT_BEGIN(rt_rec)
        /* rdi = base, rsi = K >= 1, rdx = d; adds to rax; keeps rdi,
           rsi and rdx */
        "   mov %rdi, %r8\n"
        "   mov %rsi, %rcx\n"
        "1: add (%r8), %rax\n"
        "   add $64, %r8\n"
        "   dec %rcx\n"
        "   jnz 1b\n"
        "   test %rdx, %rdx\n"
        "   jz 2f\n"
        "   dec %rdx\n"
        "   call rt_rec\n"
        "   inc %rdx\n"
        "2: mov %rdi, %r8\n"
        "   mov %rsi, %rcx\n"
        "3: add (%r8), %rax\n"
        "   add $64, %r8\n"
        "   dec %rcx\n"
        "   jnz 3b\n"
        RT_RET(rt_rec)
        RT_END(rt_rec));

/* rax = 0, then rt_rec (which adds to rax); returns its sum.  A call,
   not a jump, so that the outermost activation of rt_rec is one of its
   own (a routine reached by a jump runs in its caller's activation). */
__asm__(RT_BEGIN(rt_rec_sum)
        "   xor %eax, %eax\n"
        "   call rt_rec\n"
        "   ret\n"
        RT_END(rt_rec_sum));

long rt_rec_sum(const char *base, long k, long d);
extern const char rt_rec[], rt_rec_ret[];

int main(int argc, char **argv)
{
   if (argc != 3) {
      fprintf(stderr, "usage: rt_recur K D\n");
      return 2;
   }
   long k = rt_arg(argv[1], "K");
   long d = rt_arg(argv[2], "D");
   if (k < 1)
      return 2;
   char *base = rt_lines(k);
   for (long i = 0; i < k; i++)
      *(long *)(base + 64 * i) = 1;
   rt_announce("rt_rec", rt_rec, rt_rec_ret);
   fflush(stdout);
   long sum = rt_rec_sum(base, k, d);
   printf("rec %ld %ld %ld\n", k, d, sum);
   return sum == 2 * k * (d + 1) ? 0 : 3;
}

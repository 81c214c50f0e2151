/* rt_rank: a big quadratic routine and a tiny steeper one run at start.

   usage: rt_rank N...

   First calls, as a program's start-up might, rt_steep(base, K) for K =
   2, 3, 4, 6, 8: it reads its K lines K^2 times, cost 4K^3 + 4K^2 +
   3K + 3 (3,908 instructions in all), rms = trms = K, an exponent near
   2.7 over sizes that span a factor of 4.  Then rt_big(base, N) for
   each N in order: it reads its N lines N times, cost 4N^2 + 4N + 3,
   rms = trms = N, an exponent near 2.  With sizes up to a few hundred
   lines rt_big is most of the run, rt_steep a thousandth of it: ws
   must rank rt_big first, and not call rt_steep out however steep its
   fit (docs/manual.md, "Per-routine footprint").

   Prints "steep K K^3" and "big N N^2" for each call.  Exit status 0,
   2 on bad arguments, 3 if a sum is wrong. */

#include "rtprog.h"

__asm__(RT_BEGIN(rt_steep)
        /* rdi = base, rsi = K >= 1 */
        "   xor %eax, %eax\n"
        "   mov %rsi, %r9\n"
        "1: mov %rsi, %rcx\n"
        "2: mov %rdi, %rdx\n"
        "   mov %rsi, %r8\n"
        "3: add (%rdx), %rax\n"
        "   add $64, %rdx\n"
        "   dec %r8\n"
        "   jnz 3b\n"
        "   dec %rcx\n"
        "   jnz 2b\n"
        "   dec %r9\n"
        "   jnz 1b\n"
        RT_RET(rt_steep)
        RT_END(rt_steep));

RT_QUADRATIC(rt_big);

long rt_steep(const char *base, long k);
long rt_big(const char *base, long n);
extern const char rt_steep_ret[], rt_big_ret[];

int main(int argc, char **argv)
{
   static const long steep[] = { 2, 3, 4, 6, 8 };
   long most = 8;
   if (argc < 2) {
      fprintf(stderr, "usage: rt_rank N...\n");
      return 2;
   }
   for (int i = 1; i < argc; i++) {
      long n = rt_arg(argv[i], "N");
      if (n < 1)
         return 2;
      most = n > most ? n : most;
   }
   char *base = rt_lines(most);
   for (long k = 0; k < most; k++)
      *(long *)(base + 64 * k) = 1;
   rt_announce("rt_steep", (void *)rt_steep, rt_steep_ret);
   rt_announce("rt_big", (void *)rt_big, rt_big_ret);
   fflush(stdout);
   for (size_t i = 0; i < sizeof steep / sizeof steep[0]; i++) {
      long k = steep[i], sum = rt_steep(base, k);
      printf("steep %ld %ld\n", k, sum);
      if (sum != k * k * k)
         return 3;
   }
   for (int i = 1; i < argc; i++) {
      long n = rt_arg(argv[i], "N");
      long sum = rt_big(base, n);
      printf("big %ld %ld\n", n, sum);
      if (sum != n * n)
         return 3;
   }
   return 0;
}

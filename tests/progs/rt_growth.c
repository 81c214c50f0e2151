/* rt_growth: a linear and a quadratic routine, for several input sizes.

   usage: rt_growth lines|quad N...

   Calls, once for each N in order, on N fresh lines (of a mapping the
   program filled first, 1 in each line's first word):

   rt_sum_lines(base, N)  reads the N lines once each:
                          cost 4N + 2, rms = trms = N
   rt_quad(base, N)       reads the N lines N times:
                          cost 4N^2 + 4N + 3, rms = trms = N

   Neither takes any other input (rtprog.h: the return address is none),
   and one thread runs, so no read is induced.  Against its input size
   N, rt_sum_lines's cost grows with exponent 1 and rt_quad's with
   exponent 2 (a fit over small sizes finds a little less for both: the
   lower terms).

   Prints "lines N SUM" or "quad N SUM" for each call (SUM = N or N*N).
   Exit status 0, 2 on bad arguments, 3 if a sum is wrong. */

#include "rtprog.h"

__asm__(RT_BEGIN(rt_sum_lines)
        /* rdi = base, rsi = N >= 1 */
        "   xor %eax, %eax\n"
        "1: add (%rdi), %rax\n"
        "   add $64, %rdi\n"
        "   dec %rsi\n"
        "   jnz 1b\n"
        RT_RET(rt_sum_lines)
        RT_END(rt_sum_lines));

RT_QUADRATIC(rt_quad);

long rt_sum_lines(const char *base, long n);
long rt_quad(const char *base, long n);
extern const char rt_sum_lines_ret[], rt_quad_ret[];

int main(int argc, char **argv)
{
   if (argc < 3 || (strcmp(argv[1], "lines") && strcmp(argv[1], "quad"))) {
      fprintf(stderr, "usage: rt_growth lines|quad N...\n");
      return 2;
   }
   int quad = !strcmp(argv[1], "quad");
   long most = 1;
   for (int i = 2; i < argc; i++) {
      long n = rt_arg(argv[i], "N");
      if (n < 1)
         return 2;
      most = n > most ? n : most;
   }
   char *base = rt_lines(most);
   for (long k = 0; k < most; k++)
      *(long *)(base + 64 * k) = 1;
   if (quad)
      rt_announce("rt_quad", (void *)rt_quad, rt_quad_ret);
   else
      rt_announce("rt_sum_lines", (void *)rt_sum_lines, rt_sum_lines_ret);
   fflush(stdout);
   for (int i = 2; i < argc; i++) {
      long n = rt_arg(argv[i], "N");
      long sum = quad ? rt_quad(base, n) : rt_sum_lines(base, n);
      printf("%s %ld %ld\n", argv[1], n, sum);
      if (sum != (quad ? n * n : n))
         return 3;
   }
   return 0;
}

// rt_exc: a C++ exception thrown through frames.
//
// usage: rt_exc N
//
// N times: main calls rt_ex_a(i), which calls rt_ex_b(i), which holds an
// object with a destructor and calls rt_ex_c(i), which throws; rt_ex_b's
// cleanup runs the destructor and the unwinder goes on to main's catch.
// None of the three returns: each activation ends where the stack
// pointer rises above its frame (rt_ex_c's and rt_ex_b's where the
// unwinder lands in rt_ex_b's cleanup and in main, rt_ex_a's in main).
// Then main calls rt_ex_after(buf), which reads lines 8 to 15 of a
// buffer and returns: cost 36, rms = trms = 8, in every one of its N
// activations.
//
// What the unwinder runs is libgcc's, so the three's costs are not known
// exactly, but they are the routines' own: the activations do not nest
// in each other or around rt_ex_after, so rt_ex_a's N activations and
// rt_ex_after's together cost no more than main's one.  One thread:
// nothing is induced.
//
// Prints "exc N thrown T destroyed D"; exit status 0, 2 on bad arguments,
// 3 if the counts are wrong.

#include "rtprog.h"

__asm__(RT_BEGIN(rt_ex_after)
        "   xor %eax, %eax\n"
        "   mov $8, %ecx\n"
        "   lea 512(%rdi), %rdx\n"
        "1: add (%rdx), %rax\n"
        "   add $64, %rdx\n"
        "   dec %ecx\n"
        "   jnz 1b\n"
        RT_RET(rt_ex_after)
        RT_END(rt_ex_after));

extern "C" long rt_ex_after(char *buf);
extern "C" const char rt_ex_after_ret[];

static long thrown, destroyed;

struct Guard {
   ~Guard() { destroyed++; }
};

extern "C" __attribute__((noinline)) void rt_ex_c(long i)
{
   thrown++;
   throw i;
}

extern "C" __attribute__((noinline)) void rt_ex_b(long i)
{
   Guard g;
   rt_ex_c(i);
}

extern "C" __attribute__((noinline)) void rt_ex_a(long i)
{
   rt_ex_b(i);
}

int main(int argc, char **argv)
{
   if (argc != 2) {
      fprintf(stderr, "usage: rt_exc N\n");
      return 2;
   }
   long n = rt_arg(argv[1], "N");
   char *buf = rt_lines(16);
   for (int k = 0; k < 16; k++)
      *(long *)(buf + 64 * k) = 1;
   rt_announce("rt_ex_after", (void *)rt_ex_after, rt_ex_after_ret);
   fflush(stdout);
   long caught = 0, sum = 0;
   for (long i = 0; i < n; i++) {
      try {
         rt_ex_a(i);
      } catch (long v) {
         caught += v == i;
      }
      sum += rt_ex_after(buf);
   }
   printf("exc %ld thrown %ld destroyed %ld\n", n, thrown, destroyed);
   return caught == n && thrown == n && destroyed == n && sum == 8 * n
          ? 0 : 3;
}

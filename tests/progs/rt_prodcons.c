/* rt_prodcons: a consumer reading a buffer another thread refills.

   usage: rt_prodcons B R

   A producer thread calls rt_produce(buf, B, R, flag): for r = 1 .. R,
   it waits until the consumer has acknowledged round r - 1 (*flag ==
   -(r - 1); not in round 1), writes r into each of the B lines of buf and
   sets *flag = r.  The main thread waits (in C) until *flag == 1, then
   calls rt_consume(buf, B, R, flag): for r = 1 .. R, it waits until
   *flag == r, reads the B lines and sets *flag = -r.  Both wait with a
   raw sched_yield, registers only; buf is B fresh lines and flag a fresh
   line of its own, which no one touches before the producer writes it.

   rt_consume's input, whatever the threads' interleaving:
     rms = B + 1            the B lines and the flag's
     trms = R (B + 1)       every round's B lines are the producer's new
                            values; the flag is read as the producer left
                            it once per round (in round 1 as the main
                            thread last saw it: not induced for it)
     thread-induced = R*B + R - 1, syscall-induced 0
   rt_produce's:
     rms = 0, trms = R - 1, thread-induced = R - 1
                            its first access to the flag is a write; it
                            reads the consumer's acknowledgement once per
                            round after the first
   (rtprog.h: the return addresses are no input).
   Their costs depend on how often they waited (the scheduler).

   Prints "prodcons B R"; exit status 0, 2 on bad arguments, 3 if the
   threads did not see each other's values. */

#include <pthread.h>
#include <sched.h>

#include "rtprog.h"

__asm__(RT_BEGIN(rt_consume)
        /* rdi = buf, rsi = B >= 1, rdx = R >= 1, rcx = flag */
        "   mov %rcx, %r9\n"
        "   mov $1, %r8\n"
        "1: cmp %r8, (%r9)\n"
        "   je 2f\n"
        "   mov $24, %eax\n"             /* SYS_sched_yield */
        "   syscall\n"
        "   jmp 1b\n"
        "2: mov %rdi, %r10\n"
        "   mov %rsi, %r11\n"
        "3: add (%r10), %rax\n"
        "   add $64, %r10\n"
        "   dec %r11\n"
        "   jnz 3b\n"
        "   mov %r8, %r10\n"
        "   neg %r10\n"
        "   mov %r10, (%r9)\n"
        "   inc %r8\n"
        "   cmp %rdx, %r8\n"
        "   jbe 1b\n"
        RT_RET(rt_consume)
        RT_END(rt_consume));

__asm__(RT_BEGIN(rt_produce)
        /* rdi = buf, rsi = B >= 1, rdx = R >= 1, rcx = flag */
        "   mov %rcx, %r9\n"
        "   mov $1, %r8\n"
        "1: cmp $1, %r8\n"
        "   je 3f\n"
        "   mov %r8, %r10\n"
        "   dec %r10\n"
        "   neg %r10\n"
        "2: cmp %r10, (%r9)\n"
        "   je 3f\n"
        "   mov $24, %eax\n"             /* SYS_sched_yield */
        "   syscall\n"
        "   jmp 2b\n"
        "3: mov %rdi, %r10\n"
        "   mov %rsi, %r11\n"
        "4: mov %r8, (%r10)\n"
        "   add $64, %r10\n"
        "   dec %r11\n"
        "   jnz 4b\n"
        "   mov %r8, (%r9)\n"
        "   inc %r8\n"
        "   cmp %rdx, %r8\n"
        "   jbe 1b\n"
        RT_RET(rt_produce)
        RT_END(rt_produce));

void rt_consume(char *buf, long lines, long rounds, volatile long *flag);
void rt_produce(char *buf, long lines, long rounds, volatile long *flag);
extern const char rt_consume_ret[], rt_produce_ret[];

static char *buf;
static long lines, rounds;
static volatile long *flag;

static void *producer(void *arg)
{
   rt_produce(buf, lines, rounds, flag);
   return arg;
}

int main(int argc, char **argv)
{
   if (argc != 3) {
      fprintf(stderr, "usage: rt_prodcons B R\n");
      return 2;
   }
   lines = rt_arg(argv[1], "B");
   rounds = rt_arg(argv[2], "R");
   if (lines < 1 || rounds < 1)
      return 2;
   buf = rt_lines(lines);
   flag = (volatile long *)rt_lines(1);
   rt_announce("rt_consume", (void *)rt_consume, rt_consume_ret);
   rt_announce("rt_produce", (void *)rt_produce, rt_produce_ret);
   fflush(stdout);
   pthread_t t;
   if (pthread_create(&t, NULL, producer, NULL) != 0)
      return 2;
   while (*flag != 1)
      sched_yield();
   rt_consume(buf, lines, rounds, flag);
   pthread_join(t, NULL);
   if (*flag != -rounds)
      return 3;
   for (long k = 0; k < lines; k++)
      if (*(long *)(buf + 64 * k) != rounds)
         return 3;
   printf("prodcons %ld %ld\n", lines, rounds);
   return 0;
}

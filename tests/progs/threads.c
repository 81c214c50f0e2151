/* threads: two threads touching the same pages and their own pages.

   usage: threads SHARED PRIV1 PRIV2 INSNS

   Maps SHARED + PRIV1 + PRIV2 pages.  The main thread (Valgrind tid 1) and
   one created thread (tid 2) both run th_loop (alone on its page): each
   sweep writes one byte to each of the SHARED shared pages, then to each
   of the thread's own pages (PRIV1 for tid 1, PRIV2 for tid 2), then calls
   sched_yield with a raw `syscall`, so that under Valgrind's serialised
   scheduler (--fair-sched=yes) the two threads take turns sweep by sweep.
   Each thread sweeps for about INSNS instructions.  The loop uses
   registers only (callee-saved ones are pushed before, popped after).

   A window in which both threads sweep has, process-wide, 1 instruction
   page and SHARED + PRIV1 + PRIV2 data pages; per thread 1 instruction
   page each and SHARED + PRIV1 (tid 1) and SHARED + PRIV2 (tid 2) data
   pages; `shared` (data pages touched by more than one thread) is SHARED:
   the code page both threads run counts in neither thread's data nor in
   shared.  Instructions per sweep: 8 + (SHARED + PRIVn) * 25.

   Exit status 0, 2 on bad arguments, 3 if the thread cannot be made. */

#include <pthread.h>

#include "wsprog.h"

#define DELAY 10                 /* spins per element: 25 instructions */

__asm__(".pushsection .text.wsprog.threads,\"ax\",@progbits\n"
        "   .p2align 12\n"
        "   .globl th_loop\n"
        "   .type th_loop, @function\n"
        /* rdi = shared base, rsi = shared pages, rdx = own base,
           rcx = own pages, r8 = sweeps, r9 = delay */
        "th_loop:\n"
        "   push %rbx\n"
        "   push %rbp\n"
        "   push %r12\n"
        "   push %r13\n"
        "   push %r14\n"
        "   push %r15\n"
        "   mov %rdi, %rbx\n"
        "   mov %rsi, %rbp\n"
        "   mov %rdx, %r12\n"
        "   mov %rcx, %r13\n"
        "   mov %r8, %r14\n"
        "   mov %r9, %r15\n"
        "1: mov %rbx, %rdi\n"
        "   mov %rbp, %rsi\n"
        "2: movb $1, (%rdi)\n"
        "   mov %r15, %rax\n"
        "3: dec %rax\n"
        "   jnz 3b\n"
        "   add $4096, %rdi\n"
        "   dec %rsi\n"
        "   jnz 2b\n"
        "   mov %r12, %rdi\n"
        "   mov %r13, %rsi\n"
        "4: movb $1, (%rdi)\n"
        "   mov %r15, %rax\n"
        "5: dec %rax\n"
        "   jnz 5b\n"
        "   add $4096, %rdi\n"
        "   dec %rsi\n"
        "   jnz 4b\n"
        "   mov $24, %eax\n"             /* SYS_sched_yield */
        "   syscall\n"
        "   dec %r14\n"
        "   jnz 1b\n"
        "   pop %r15\n"
        "   pop %r14\n"
        "   pop %r13\n"
        "   pop %r12\n"
        "   pop %rbp\n"
        "   pop %rbx\n"
        "   ret\n"
        "   .p2align 12, 0xcc\n"
        ".popsection\n");

void th_loop(char *shared, long nshared, char *own, long nown, long sweeps,
             long delay);

struct job {
   char *shared, *own;
   long nshared, nown, insns;
};

static void run(const struct job *j)
{
   long per_sweep = 8 + (j->nshared + j->nown) * (4 + 1 + 2 * DELAY);
   long sweeps = j->insns / per_sweep;
   th_loop(j->shared, j->nshared, j->own, j->nown, sweeps < 1 ? 1 : sweeps,
           DELAY);
}

static void *second(void *arg)
{
   run(arg);
   return NULL;
}

int main(int argc, char **argv)
{
   if (argc != 5) {
      fprintf(stderr, "usage: threads SHARED PRIV1 PRIV2 INSNS\n");
      return 2;
   }
   long ns = ws_arg(argv[1], "shared pages");
   long n1 = ws_arg(argv[2], "pages of thread 1");
   long n2 = ws_arg(argv[3], "pages of thread 2");
   long insns = ws_arg(argv[4], "insns");
   if (ns < 1 || n1 < 1 || n2 < 1)
      return 2;
   char *base = ws_map((ns + n1 + n2) * 4096);
   struct job j1 = { base, base + ns * 4096, ns, n1, insns };
   struct job j2 = { base, base + (ns + n1) * 4096, ns, n2, insns };
   pthread_t t;
   if (pthread_create(&t, NULL, second, &j2) != 0) {
      fprintf(stderr, "threads: pthread_create failed\n");
      return 3;
   }
   run(&j1);
   pthread_join(t, NULL);
   return 0;
}

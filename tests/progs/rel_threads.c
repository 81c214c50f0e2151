/* rel_threads: N threads taking strict turns over shared and own pages.

   usage: rel_threads N SHARED INSNS

   Maps SHARED pages that every thread writes, then i + 3 pages of its own
   for thread i (i = 0 .. N-1; thread 0 is main, Valgrind tid 1, thread i
   is tid i + 1 as Valgrind numbers threads in creation order), then one
   page holding the turn word.  All N threads run rel_th_loop (alone on
   its page): a thread waits (futex) until the turn word names it, writes
   one byte to each shared page and then to each of its own pages, gives
   the turn to thread (i + 1) % N and wakes everyone waiting (futex).  The
   order of sweeps is therefore fixed, whatever the schedulers do.  Every
   thread does the same number of sweeps, about INSNS instructions' worth
   of rounds.  The loop uses registers only, apart from the turn word (callee-saved
   ones are pushed before, popped after).

   A window in which every thread sweeps several times has, process-wide,
   1 instruction page and SHARED + sum(i + 3) + 1 data pages; thread i has
   1 instruction page and SHARED + i + 3 + 1 data pages; `shared` is
   SHARED + 1 (the shared pages and the turn word's page).  A round (N
   sweeps) takes about (N*SHARED + sum(i + 3)) * 25 + 60*N instructions.

   Exit status 0, 2 on bad arguments, 3 if a thread cannot be made. */

#include <pthread.h>

#include "wsprog.h"

#define DELAY 10                 /* spins per element: 25 instructions */
#define MAXT 64

__asm__(".pushsection .text.wsprog.rel_threads,\"ax\",@progbits\n"
        "   .p2align 12\n"
        "   .globl rel_th_loop\n"
        "   .type rel_th_loop, @function\n"
        "rel_th_loop:\n"
        "   push %rbx\n"
        "   push %rbp\n"
        "   push %r12\n"
        "   push %r13\n"
        "   push %r14\n"
        "   push %r15\n"
        "   mov 0(%rdi), %rbx\n"         /* shared pages */
        "   mov 8(%rdi), %rbp\n"         /* their end */
        "   mov 16(%rdi), %r12\n"        /* own pages */
        "   mov 24(%rdi), %r13\n"        /* their end */
        "   mov 32(%rdi), %r14\n"        /* sweeps */
        "   mov 40(%rdi), %r15\n"        /* &turn */
        "   mov 48(%rdi), %r8\n"         /* me */
        "   mov 64(%rdi), %r9\n"         /* next (delay is DELAY, 10) */
        "1: mov (%r15), %eax\n"          /* whose turn? */
        "   cmp %r8d, %eax\n"
        "   je 3f\n"
        "   mov %r15, %rdi\n"            /* futex(&turn, FUTEX_WAIT_PRIVATE, */
        "   mov $128, %esi\n"            /*       turn, NULL)               */
        "   mov %eax, %edx\n"
        "   xor %r10d, %r10d\n"
        "   mov $202, %eax\n"
        "   syscall\n"
        "   jmp 1b\n"
        "3: mov %rbx, %rdi\n"
        "4: movb $1, (%rdi)\n"
        "   mov $10, %rax\n"
        "5: dec %rax\n"
        "   jnz 5b\n"
        "   add $4096, %rdi\n"
        "   cmp %rbp, %rdi\n"
        "   jb 4b\n"
        "   mov %r12, %rdi\n"
        "6: movb $1, (%rdi)\n"
        "   mov $10, %rax\n"
        "7: dec %rax\n"
        "   jnz 7b\n"
        "   add $4096, %rdi\n"
        "   cmp %r13, %rdi\n"
        "   jb 6b\n"
        "   mov %r9d, (%r15)\n"          /* turn = next */
        "   mov %r15, %rdi\n"            /* futex(&turn, FUTEX_WAKE_PRIVATE, */
        "   mov $129, %esi\n"            /*       INT_MAX)                  */
        "   mov $0x7fffffff, %edx\n"
        "   mov $202, %eax\n"
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

struct job {                     /* the offsets rel_th_loop reads */
   char *shared, *shared_end;    /* 0, 8 */
   char *own, *own_end;          /* 16, 24 */
   long  sweeps;                 /* 32 */
   int  *turn;                   /* 40 */
   long  me;                     /* 48 */
   long  delay;                  /* 56: unused, DELAY is built in */
   long  next;                   /* 64 */
};

void rel_th_loop(struct job *j);

static void *thread(void *arg)
{
   rel_th_loop(arg);
   return NULL;
}

int main(int argc, char **argv)
{
   if (argc != 4) {
      fprintf(stderr, "usage: rel_threads N SHARED INSNS\n");
      return 2;
   }
   long n = ws_arg(argv[1], "threads");
   long ns = ws_arg(argv[2], "shared pages");
   long insns = ws_arg(argv[3], "insns");
   if (n < 1 || n > MAXT || ns < 1)
      return 2;
   long own = 0;
   for (long i = 0; i < n; i++)
      own += i + 3;
   char *base = ws_map((ns + own + 1) * 4096);
   int *turn = (int *)(base + (ns + own) * 4096);   /* 0: main's turn */
   long round = (n * ns + own) * (4 + 1 + 2 * DELAY) + 60 * n;
   long sweeps = insns / round < 1 ? 1 : insns / round;
   static struct job j[MAXT];
   char *p = base + ns * 4096;
   for (long i = 0; i < n; i++) {
      j[i] = (struct job){ base, base + ns * 4096, p, p + (i + 3) * 4096,
                           sweeps, turn, i, DELAY, (i + 1) % n };
      p += (i + 3) * 4096;
   }
   static pthread_t t[MAXT];
   for (long i = 1; i < n; i++)
      if (pthread_create(&t[i], NULL, thread, &j[i]) != 0) {
         fprintf(stderr, "rel_threads: pthread_create failed\n");
         return 3;
      }
   rel_th_loop(&j[0]);
   for (long i = 1; i < n; i++)
      pthread_join(t[i], NULL);
   return 0;
}

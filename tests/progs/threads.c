/* threads: two threads touching the same pages and their own pages.

   usage: threads SHARED PRIV1 PRIV2 INSNS

   Maps SHARED + PRIV1 + PRIV2 + 1 pages: the shared pages, thread 1's,
   thread 2's, and a page holding the turn word.  The main thread
   (Valgrind tid 1) and one created thread (tid 2) both run th_loop (alone
   on its page).  They take strict turns, whatever the schedulers do: a
   thread waits (futex) until the turn word names it, sweeps (one byte
   written to each of the SHARED shared pages, then to each of its own
   pages), gives the turn to the other thread and wakes it (futex).  Both
   do the same number of sweeps, about INSNS instructions' worth of
   rounds.  Apart from the turn word, the loop uses registers only
   (callee-saved ones are pushed before, popped after).

   A window in which both threads sweep several times has, process-wide,
   1 instruction page and SHARED + PRIV1 + PRIV2 + 1 data pages (the turn
   word's page is read and written by both); per thread 1 instruction page
   each and SHARED + PRIV1 + 1 (tid 1) and SHARED + PRIV2 + 1 (tid 2) data
   pages; `shared` (data pages touched by more than one thread) is
   SHARED + 1: the code page both threads run counts in neither thread's
   data nor in shared.  A round (both sweeps) takes about
   (2*SHARED + PRIV1 + PRIV2) * 25 + 60 instructions.

   Exit status 0, 2 on bad arguments, 3 if the thread cannot be made. */

#include <pthread.h>

#include "wsprog.h"

#define DELAY 10                 /* spins per element: 25 instructions */

__asm__(".pushsection .text.wsprog.threads,\"ax\",@progbits\n"
        "   .p2align 12\n"
        "   .globl th_loop\n"
        "   .type th_loop, @function\n"
        /* rdi = struct job *; syscall clobbers rax, rcx, r11 only */
        "th_loop:\n"
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
        "   mov 48(%rdi), %r8\n"         /* me: 0 or 1 */
        "   mov 56(%rdi), %r9\n"         /* delay */
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
        "   mov %r9, %rax\n"
        "5: dec %rax\n"
        "   jnz 5b\n"
        "   add $4096, %rdi\n"
        "   cmp %rbp, %rdi\n"
        "   jb 4b\n"
        "   mov %r12, %rdi\n"
        "6: movb $1, (%rdi)\n"
        "   mov %r9, %rax\n"
        "7: dec %rax\n"
        "   jnz 7b\n"
        "   add $4096, %rdi\n"
        "   cmp %r13, %rdi\n"
        "   jb 6b\n"
        "   mov $1, %eax\n"              /* turn = 1 - me */
        "   sub %r8d, %eax\n"
        "   mov %eax, (%r15)\n"
        "   mov %r15, %rdi\n"            /* futex(&turn, FUTEX_WAKE_PRIVATE, 1) */
        "   mov $129, %esi\n"
        "   mov $1, %edx\n"
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

struct job {                     /* the offsets th_loop reads */
   char *shared, *shared_end;    /* 0, 8 */
   char *own, *own_end;          /* 16, 24 */
   long  sweeps;                 /* 32 */
   int  *turn;                   /* 40 */
   long  me;                     /* 48 */
   long  delay;                  /* 56 */
};

void th_loop(struct job *j);

static void *second(void *arg)
{
   th_loop(arg);
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
   char *base = ws_map((ns + n1 + n2 + 1) * 4096);
   char *own1 = base + ns * 4096, *own2 = own1 + n1 * 4096;
   int *turn = (int *)(own2 + n2 * 4096);   /* 0: thread 1's turn */
   long round = (2 * ns + n1 + n2) * (4 + 1 + 2 * DELAY) + 60;
   long sweeps = insns / round < 1 ? 1 : insns / round;
   struct job *j = calloc(2, sizeof *j);
   if (!j)
      return 3;
   j[0] = (struct job){ base, own1, own1, own2, sweeps, turn, 0, DELAY };
   j[1] = (struct job){ base, own1, own2, own2 + n2 * 4096, sweeps, turn, 1,
                        DELAY };
   pthread_t t;
   if (pthread_create(&t, NULL, second, &j[1]) != 0) {
      fprintf(stderr, "threads: pthread_create failed\n");
      return 3;
   }
   th_loop(&j[0]);
   pthread_join(t, NULL);
   return 0;
}

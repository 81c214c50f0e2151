/* rel_clone: vfork and a raw clone() with a stack of our own.

   usage: rel_clone vfork STATUS PROG [ARG...]
          rel_clone vfork-exit STATUS
          rel_clone clone STATUS
          rel_clone fork-threads STATUS
          rel_clone fork-regions STATUS

   vfork       vfork(), the child execs PROG ARG... (exit status 127 if
               that fails); the parent waits for it, prints "child
               exited N" and exits with STATUS + N.
   vfork-exit  vfork(), the child calls _exit(STATUS) at once; the
               parent prints "child exited N" and exits with N + 1.
   clone       clone() called directly (the system call, not glibc's
               wrapper) with CLONE_VM | CLONE_FS | CLONE_FILES |
               CLONE_SIGHAND | CLONE_THREAD | CLONE_SYSVSEM |
               CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID, on a stack
               mapped here.  The new thread writes one byte to each of 20
               pages for about 1,000,000 instructions (a WS_LOOP alone on
               its page), writes "clone done\n" with the write system
               call and ends with the exit system call (it has no TLS of
               its own, so it calls nothing in libc).  Meanwhile main
               writes to its own 10 pages for about 300,000 instructions,
               then waits on the child-tid futex until the kernel clears
               it, prints "joined" and exits with STATUS.

   fork-threads
               three threads wait reading a pipe while main writes its
               10 pages (about 300,000 instructions) and forks; the
               child (which has main's thread only) writes one byte to
               each of 20 pages for about 1,000,000 instructions and calls
               _exit(STATUS); the parent prints "child exited N", lets
               the threads end, joins them and exits with N + 1.

   fork-regions
               regions around a fork: main writes its 10 pages in a region
               marked "pre" (about 300,000 instructions), then in one
               marked "open", and forks inside "open"; the child writes
               its 20 pages (about 1,000,000 instructions, still in
               "open"), stops, marks "kid", writes them again in a region
               of that name and calls _exit(STATUS); the parent writes its
               pages once more, stops, prints "child exited N" and exits
               with N + 1.

   Exit status 2 on bad arguments. */

#define _GNU_SOURCE
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <valgrind/ws.h>

#include "wsprog.h"

WS_LOOP(rel_clone_child_touch, "movb $1, (%rdi)");
WS_LOOP(rel_clone_main_touch, "movb $2, (%rdi)");

#define PAGE  4096
#define DELAY 10

/* long raw_clone(flags, stack_top, ptid, ctid, fn, arg): the clone
   system call; the child calls fn(arg) on the new stack and ends with
   exit(fn's value). */
long raw_clone(unsigned long flags, void *stack, int *ptid, int *ctid,
               long (*fn)(void *), void *arg);
__asm__(".text\n"
        ".globl raw_clone\n"
        ".type raw_clone, @function\n"
        "raw_clone:\n"
        "   sub $16, %rsi\n"
        "   mov %r8, 0(%rsi)\n"
        "   mov %r9, 8(%rsi)\n"
        "   mov %rcx, %r10\n"
        "   xor %r8d, %r8d\n"
        "   mov $56, %eax\n"            /* SYS_clone */
        "   syscall\n"
        "   test %rax, %rax\n"
        "   jnz 1f\n"
        "   pop %rax\n"                 /* the child: fn */
        "   pop %rdi\n"                 /* arg */
        "   and $-16, %rsp\n"
        "   call *%rax\n"
        "   mov %rax, %rdi\n"
        "   mov $60, %eax\n"            /* SYS_exit (this thread only) */
        "   syscall\n"
        "   hlt\n"
        "1: ret\n"
        ".size raw_clone, . - raw_clone\n");

static long sys3(long n, long a, long b, long c)
{
   long r;
   __asm__ volatile("syscall" : "=a"(r) : "a"(n), "D"(a), "S"(b), "d"(c)
                    : "rcx", "r11", "memory");
   return r;
}

static char *child_pages;

static long child(void *arg)
{
   static const char msg[] = "clone done\n";
   (void)arg;
   rel_clone_child_touch(child_pages, 20, PAGE, DELAY,
                         ws_sweeps_for(1000000, 20,
                                       WS_LOOP_PER_ELEMENT(1, DELAY)));
   sys3(SYS_write, 1, (long)msg, sizeof msg - 1);
   return 0;
}

static int clone_mode(long status)
{
   static int ptid, ctid;
   char *stack = ws_map(64 * 1024);
   char *own = ws_map(10 * PAGE);
   child_pages = ws_map(20 * PAGE);
   fflush(stdout);
   ctid = 1;
   long tid = raw_clone(CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND
                        | CLONE_THREAD | CLONE_SYSVSEM
                        | CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID,
                        stack + 64 * 1024, &ptid, &ctid, child, NULL);
   if (tid < 0) {
      fprintf(stderr, "clone: %s\n", strerror((int)-tid));
      return 2;
   }
   rel_clone_main_touch(own, 10, PAGE, DELAY,
                        ws_sweeps_for(300000, 10,
                                      WS_LOOP_PER_ELEMENT(1, DELAY)));
   /* CLONE_CHILD_CLEARTID: the kernel zeroes ctid and wakes it. */
   while (__atomic_load_n(&ctid, __ATOMIC_ACQUIRE) != 0)
      syscall(SYS_futex, &ctid, FUTEX_WAIT, ctid, NULL, NULL, 0);
   if (ptid != tid) {
      fprintf(stderr, "ptid %d, clone returned %ld\n", ptid, tid);
      return 3;
   }
   printf("joined\n");
   return (int)status;
}

static int wait_child(pid_t pid);

static int pipe_fds[2];

static void *wait_for_pipe(void *arg)
{
   char c;
   (void)arg;
   return (void *)(long)read(pipe_fds[0], &c, 1);
}

static int fork_threads_mode(long status)
{
   pthread_t t[3];
   int i;
   child_pages = ws_map(20 * PAGE);
   if (pipe(pipe_fds) != 0)
      return 2;
   for (i = 0; i < 3; i++)
      if (pthread_create(&t[i], NULL, wait_for_pipe, NULL) != 0)
         return 2;
   rel_clone_main_touch(ws_map(10 * PAGE), 10, PAGE, DELAY,
                        ws_sweeps_for(300000, 10,
                                      WS_LOOP_PER_ELEMENT(1, DELAY)));
   fflush(stdout);
   pid_t pid = fork();
   if (pid == 0) {
      child(NULL);
      _exit((int)status);
   }
   int n = wait_child(pid);
   if (write(pipe_fds[1], "xxx", 3) != 3)
      return 2;
   for (i = 0; i < 3; i++)
      pthread_join(t[i], NULL);
   return n < 0 ? 4 : n + 1;
}

static void main_touch(char *own)
{
   rel_clone_main_touch(own, 10, PAGE, DELAY,
                        ws_sweeps_for(300000, 10,
                                      WS_LOOP_PER_ELEMENT(1, DELAY)));
}

static int fork_regions_mode(long status)
{
   char *own = ws_map(10 * PAGE);
   child_pages = ws_map(20 * PAGE);
   WS_STOP;
   WS_MARK("pre");
   WS_START;
   main_touch(own);
   WS_STOP;
   WS_MARK("open");
   WS_START;
   main_touch(own);
   fflush(stdout);
   pid_t pid = fork();
   if (pid == 0) {
      child(NULL);
      WS_STOP;
      WS_MARK("kid");
      WS_START;
      child(NULL);
      WS_STOP;
      _exit((int)status);
   }
   int n = wait_child(pid);
   main_touch(own);
   WS_STOP;
   return n < 0 ? 4 : n + 1;
}

static int wait_child(pid_t pid)
{
   int st;
   if (pid < 0) {
      perror("vfork");
      return -1;
   }
   if (waitpid(pid, &st, 0) != pid) {
      perror("waitpid");
      return -1;
   }
   if (!WIFEXITED(st)) {
      printf("child killed by signal %d\n", WTERMSIG(st));
      return -1;
   }
   printf("child exited %d\n", WEXITSTATUS(st));
   return WEXITSTATUS(st);
}

int main(int argc, char **argv)
{
   if (argc < 3) {
      fprintf(stderr, "usage: rel_clone vfork|vfork-exit|clone STATUS "
              "[PROG ARG...]\n");
      return 2;
   }
   long status = ws_arg(argv[2], "status");
   fflush(stdout);
   if (!strcmp(argv[1], "vfork") && argc >= 4) {
      pid_t pid = vfork();
      if (pid == 0) {
         execv(argv[3], argv + 3);
         _exit(127);
      }
      int n = wait_child(pid);
      return n < 0 ? 4 : (int)status + n;
   }
   if (!strcmp(argv[1], "vfork-exit") && argc == 3) {
      pid_t pid = vfork();
      if (pid == 0)
         _exit((int)status);
      int n = wait_child(pid);
      return n < 0 ? 4 : n + 1;
   }
   if (!strcmp(argv[1], "clone") && argc == 3)
      return clone_mode(status);
   if (!strcmp(argv[1], "fork-threads") && argc == 3)
      return fork_threads_mode(status);
   if (!strcmp(argv[1], "fork-regions") && argc == 3)
      return fork_regions_mode(status);
   fprintf(stderr, "rel_clone: bad mode '%s'\n", argv[1]);
   return 2;
}

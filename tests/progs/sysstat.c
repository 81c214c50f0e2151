/* sysstat: stat() with a path name and a struct in pages the program
   never touches itself.

   usage: sysstat ITERATIONS DELAY

   Maps 4 pages (written once, before the loop, so they exist).  The
   path "////////dev/null" fills the last 16 bytes of page 0: its NUL is
   the first byte of page 1.  The struct stat (144 bytes) straddles pages
   2 and 3.  ITERATIONS times the loop (st_loop, alone on its page) calls
   stat with a raw `syscall` instruction and spins DELAY times, using
   registers only: a window inside the loop has 1 instruction page and 4
   data pages when memory the kernel reads and writes counts
   (--ws-syscalls=yes: the path with its NUL, the whole struct), 0 when
   it does not.  Instructions per iteration: 5 + 2*DELAY.

   Exit status 0, 2 on bad arguments, 3 if stat fails. */

#include <string.h>
#include <sys/stat.h>

#include "wsprog.h"

__asm__(".pushsection .text.wsprog.sysstat,\"ax\",@progbits\n"
        "   .p2align 12\n"
        "   .globl st_loop\n"
        "   .type st_loop, @function\n"
        /* rdi = path, rsi = struct, rdx = iterations, rcx = delay.
           syscall clobbers rcx and r11 and returns in rax. */
        "st_loop:\n"
        "   mov %rdx, %r9\n"
        "   mov %rcx, %r8\n"
        "1: mov $4, %eax\n"              /* SYS_stat */
        "   syscall\n"
        "   mov %r8, %rcx\n"
        "2: dec %rcx\n"
        "   jnz 2b\n"
        "   dec %r9\n"
        "   jnz 1b\n"
        "   ret\n"
        "   .p2align 12, 0xcc\n"
        ".popsection\n");

void st_loop(const char *path, struct stat *st, long iterations,
             long delay);

#define PATH "////////dev/null"

int main(int argc, char **argv)
{
   if (argc != 3) {
      fprintf(stderr, "usage: sysstat ITERATIONS DELAY\n");
      return 2;
   }
   long iterations = ws_arg(argv[1], "iterations");
   long delay = ws_arg(argv[2], "delay");
   if (iterations < 1 || delay < 1)
      return 2;
   char *pages = ws_map(4 * 4096);
   char *path = pages + 4096 - (sizeof PATH - 1);
   struct stat *st = (struct stat *)(pages + 3 * 4096 - 72);
   memcpy(path, PATH, sizeof PATH);          /* the NUL on page 1 */
   memset(pages + 2 * 4096, 0, 2 * 4096);
   st_loop(path, st, iterations, delay);
   /* checked after the loop, so the loop's pages are only the kernel's */
   if (!S_ISCHR(st->st_mode)) {
      fprintf(stderr, "sysstat: stat(%s) failed\n", path);
      return 3;
   }
   return 0;
}

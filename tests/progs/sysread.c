/* sysread: read() into pages the program never touches itself.

   usage: sysread PAGES ITERATIONS DELAY

   Maps PAGES pages and, ITERATIONS times, reads PAGES*4096 bytes from
   /dev/zero into them with a raw `syscall` instruction, then spins DELAY
   times.  The loop (sr_loop, alone on its page) uses registers only, so
   the program itself never loads or stores: a window inside the loop has
   1 instruction page and PAGES data pages when memory written by system
   calls counts (--ws-syscalls=yes), 0 data pages when it does not.
   Instructions per iteration: 5 + 2*DELAY.

   Exit status 0, 2 on bad arguments, 3 if /dev/zero cannot be read. */

#include <fcntl.h>
#include <unistd.h>

#include "wsprog.h"

__asm__(".pushsection .text.wsprog.sysread,\"ax\",@progbits\n"
        "   .p2align 12\n"
        "   .globl sr_loop\n"
        "   .type sr_loop, @function\n"
        /* rdi = fd, rsi = buf, rdx = len, rcx = iterations, r8 = delay.
           syscall clobbers rcx and r11 and returns in rax. */
        "sr_loop:\n"
        "   mov %rcx, %r9\n"
        "1: mov $0, %eax\n"              /* SYS_read */
        "   syscall\n"
        "   mov %r8, %rax\n"
        "2: dec %rax\n"
        "   jnz 2b\n"
        "   dec %r9\n"
        "   jnz 1b\n"
        "   ret\n"
        "   .p2align 12, 0xcc\n"
        ".popsection\n");

void sr_loop(int fd, char *buf, long len, long iterations, long delay);

int main(int argc, char **argv)
{
   if (argc != 4) {
      fprintf(stderr, "usage: sysread PAGES ITERATIONS DELAY\n");
      return 2;
   }
   long pages = ws_arg(argv[1], "pages");
   long iterations = ws_arg(argv[2], "iterations");
   long delay = ws_arg(argv[3], "delay");
   if (pages < 1 || iterations < 1 || delay < 1)
      return 2;
   int fd = open("/dev/zero", O_RDONLY);
   if (fd < 0) {
      perror("sysread: /dev/zero");
      return 3;
   }
   char *buf = ws_map(pages * 4096);
   sr_loop(fd, buf, pages * 4096, iterations, delay);
   /* Checked after the loop, from a separate buffer, so that the loop's
      pages are only ever written by the kernel: a full read is possible. */
   char one;
   if (read(fd, &one, 1) != 1) {
      perror("sysread: read");
      return 3;
   }
   return 0;
}

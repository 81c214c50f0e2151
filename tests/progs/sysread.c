/* sysread: read() into pages the program never touches itself.

   usage: sysread PAGES ITERATIONS DELAY [FILE]

   Maps PAGES pages and, ITERATIONS times, reads PAGES*4096 bytes from
   /dev/zero (or FILE) at offset 0 into them with a raw `syscall`
   instruction (pread64), then spins DELAY times.  A FILE shorter than
   the buffer makes each read a short one: the kernel writes only the
   file's size.  The loop (sr_loop, alone on its page) uses registers only, so
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
        "   xor %r10d, %r10d\n"          /* offset 0 */
        "1: mov $17, %eax\n"             /* SYS_pread64 */
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
   if (argc != 4 && argc != 5) {
      fprintf(stderr, "usage: sysread PAGES ITERATIONS DELAY [FILE]\n");
      return 2;
   }
   long pages = ws_arg(argv[1], "pages");
   long iterations = ws_arg(argv[2], "iterations");
   long delay = ws_arg(argv[3], "delay");
   if (pages < 1 || iterations < 1 || delay < 1)
      return 2;
   const char *path = argc == 5 ? argv[4] : "/dev/zero";
   int fd = open(path, O_RDONLY);
   if (fd < 0) {
      perror(path);
      return 3;
   }
   char *buf = ws_map(pages * 4096);
   sr_loop(fd, buf, pages * 4096, iterations, delay);
   /* Checked after the loop, from a separate buffer, so that the loop's
      pages are only ever written by the kernel: a full read is possible. */
   char one;
   if (pread(fd, &one, 1, 0) != 1) {
      perror("sysread: read");
      return 3;
   }
   return 0;
}

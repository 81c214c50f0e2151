/* rt_sysin: a routine that reads a buffer read() refills.

   usage: rt_sysin B R [FILE]

   rt_sysin(fd, buf, B, R) reads, R times, B*64 bytes from FILE (default
   /dev/zero; it must hold at least that many) at offset 0 into B fresh
   lines with a raw `syscall` instruction (pread64), then reads each of
   the B lines once.  The kernel writes the lines before every round, so
   every one of the R*B reads is input induced by a system call:

     cost = R (4B + 9) + 3
     rms = B, trms = R*B, syscall-induced R*B, thread-induced 0

   The kernel reads no memory for pread64.  Prints "sysin B R"; exit status 0, 2 on bad
   arguments, 3 if FILE cannot be read or is too short. */

#include <fcntl.h>
#include <unistd.h>

#include "rtprog.h"

__asm__(RT_BEGIN(rt_sysin)
        /* rdi = fd, rsi = buf, rdx = B >= 1, rcx = R >= 1.  syscall
           clobbers rax, rcx and r11. */
        "   mov %rcx, %r9\n"
        "   mov %rdx, %r8\n"
        "1: mov %r8, %rdx\n"
        "   shl $6, %rdx\n"              /* bytes */
        "   xor %r10d, %r10d\n"          /* offset 0 */
        "   mov $17, %eax\n"             /* SYS_pread64 */
        "   syscall\n"
        "   mov %rsi, %r11\n"
        "   mov %r8, %rcx\n"
        "2: add (%r11), %rax\n"
        "   add $64, %r11\n"
        "   dec %rcx\n"
        "   jnz 2b\n"
        "   dec %r9\n"
        "   jnz 1b\n"
        RT_RET(rt_sysin)
        RT_END(rt_sysin));

void rt_sysin(int fd, char *buf, long lines, long rounds);
extern const char rt_sysin_ret[];

int main(int argc, char **argv)
{
   if (argc != 3 && argc != 4) {
      fprintf(stderr, "usage: rt_sysin B R [FILE]\n");
      return 2;
   }
   long lines = rt_arg(argv[1], "B");
   long rounds = rt_arg(argv[2], "R");
   if (lines < 1 || rounds < 1)
      return 2;
   const char *path = argc == 4 ? argv[3] : "/dev/zero";
   int fd = open(path, O_RDONLY);
   if (fd < 0) {
      perror(path);
      return 3;
   }
   /* Checked first, from a buffer of its own, so that the routine's
      lines are only ever written by the kernel, and fully. */
   char *check = rt_lines(lines);
   if (pread(fd, check, lines * 64, 0) != lines * 64) {
      fprintf(stderr, "rt_sysin: %s: fewer than %ld bytes\n", path,
              lines * 64);
      return 3;
   }
   char *buf = rt_lines(lines);
   rt_announce("rt_sysin", (void *)rt_sysin, rt_sysin_ret);
   fflush(stdout);
   rt_sysin(fd, buf, lines, rounds);
   printf("sysin %ld %ld\n", lines, rounds);
   return 0;
}

/* highaddr: accesses at and above 2^47, the end of amd64's user address
   space, each caught (tests/test_high_addresses.py).

   usage: highaddr REPEAT ACCESS...

   First loads a byte of the page-aligned global `target` REPEAT times,
   then makes each ACCESS, KIND and address:

     KIND  b  a one-byte load        w  a two-byte load
           s  write(2) of one byte from the address to /dev/null
     =X    the address X             +X  target's address + X

   so that +0x800000000000 is target's address with bit 47 set: the
   page a table of 47 bits would take it for is target's.  Each access
   prints a line, the ACCESS and what happened: `fault` (SIGSEGV,
   caught), `ok`, or `efault` (write(2) refused the buffer).

   The loads are WS_LOOP accesses: one access each, no other memory. */

#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <unistd.h>
#include <fcntl.h>

#include "wsprog.h"

WS_LOOP(highaddr_load1, "movb (%rdi), %r11b");
WS_LOOP(highaddr_load2, "movw (%rdi), %r11w");

static char target[4096] __attribute__((aligned(4096)));
static sigjmp_buf on_fault;

static void caught(int sig)
{
   siglongjmp(on_fault, 1);
}

static const char *access_one(char kind, char *p, int devnull)
{
   if (sigsetjmp(on_fault, 1))
      return "fault";
   switch (kind) {
   case 'b':
      highaddr_load1(p, 1, 1, 1, 1);
      return "ok";
   case 'w':
      highaddr_load2(p, 1, 1, 1, 1);
      return "ok";
   default:
      if (write(devnull, p, 1) == 1)
         return "ok";
      return errno == EFAULT ? "efault" : "error";
   }
}

int main(int argc, char **argv)
{
   struct sigaction sa;
   int devnull = open("/dev/null", O_WRONLY);
   if (argc < 2 || devnull < 0) {
      fprintf(stderr, "usage: highaddr REPEAT ACCESS...\n");
      return 2;
   }
   memset(&sa, 0, sizeof sa);
   sa.sa_handler = caught;
   sigemptyset(&sa.sa_mask);
   sigaction(SIGSEGV, &sa, NULL);

   highaddr_load1(target, 1, 1, 1, ws_arg(argv[1], "repeat"));
   for (int i = 2; i < argc; i++) {
      const char *a = argv[i];
      if (strlen(a) < 3 || !strchr("bws", a[0]) || !strchr("=+", a[1])) {
         fprintf(stderr, "highaddr: bad access '%s'\n", a);
         return 2;
      }
      uintptr_t x = strtoull(a + 2, NULL, 0);
      char *p = (char *)(a[1] == '+' ? (uintptr_t)target + x : x);
      printf("%s %s\n", a, access_one(a[0], p, devnull));
   }
   return 0;
}

/* coderemap: a code page unmapped and mapped again at the same address.

   usage: coderemap MODE

   Maps two pages L and H (read, write, execute), copies a six-byte
   function (mov $42, %eax; ret) to the start of L and calls it; then
   gives memory back and takes it again at the same address, copies the
   function to L again and calls it again.  Modes:

   u   munmap(L), mmap(L, MAP_FIXED): L's second life is new code (and a
       new data page, the copy's).
   U   control for u: the same calls on H, which is never touched.

   Everything runs within a few thousand instructions, so at a large T
   both calls fall in one epoch: the second call's page is current in
   it, and only its unmapping says it is new.  ws's totals for u must
   exceed U's by exactly one instruction page and one data page (at
   64-byte pages too: the function and its copy lie in L's first line).

   Exit status 0, 2 on bad arguments, 3 if memory cannot be had again at
   the same address or the function returns something else. */

#include <unistd.h>

#include "wsprog.h"

static const unsigned char forty_two[] = { 0xb8, 0x2a, 0, 0, 0, 0xc3 };

#define RWX (PROT_READ | PROT_WRITE | PROT_EXEC)

static int call_copy(char *page)
{
   memcpy(page, forty_two, sizeof forty_two);
   return ((int (*)(void))page)();
}

int main(int argc, char **argv)
{
   if (argc != 2 || strlen(argv[1]) != 1 || !strchr("uU", argv[1][0])) {
      fprintf(stderr, "usage: coderemap u|U\n");
      return 2;
   }
   long page = sysconf(_SC_PAGESIZE);
   char *lo = mmap(NULL, 2 * page, RWX, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
   if (lo == MAP_FAILED) {
      perror("coderemap: mmap");
      return 3;
   }
   char *gone = argv[1][0] == 'u' ? lo : lo + page;
   if (call_copy(lo) != 42)
      return 3;
   if (munmap(gone, page) != 0
       || mmap(gone, page, RWX, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
               -1, 0) != gone) {
      perror("coderemap: remap");
      return 3;
   }
   if (call_copy(lo) != 42)
      return 3;
   return 0;
}

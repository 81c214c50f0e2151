/* miss_pointer: functions without symbols entered through a pointer.

   usage: miss_pointer

   Linked without symbols (-s) nor debug information.  main calls
   pointed_outer through a pointer it reads from a volatile, so that
   the compiler can make no direct call of it; pointed_outer calls
   pointed_leaf through another.  pointed_leaf writes one byte to each of
   16 fresh pages and pointed_outer one byte to each of 8 more, so that
   both functions miss.  Prints "outer 0x<entry>" and "leaf 0x<entry>",
   each function's entry as an address of the file (its distance from
   the ELF header, which a position-independent executable has at file
   address 0), for the test to find in the miss profile.  Exit status
   0. */

#include "wsprog.h"

extern const char __ehdr_start[];

__attribute__((noinline)) static void pointed_leaf(char *p)
{
   for (int i = 0; i < 16; i++)
      p[i * 4096] = 1;
}

static void (*volatile leaf_ptr)(char *) = pointed_leaf;

__attribute__((noinline)) static void pointed_outer(char *p)
{
   leaf_ptr(p);
   for (int i = 16; i < 24; i++)
      p[i * 4096] = 1;
}

static void (*volatile outer_ptr)(char *) = pointed_outer;

int main(void)
{
   char *p = ws_map(24 * 4096);
   printf("outer 0x%lx\nleaf 0x%lx\n",
          (unsigned long)((const char *)pointed_outer - __ehdr_start),
          (unsigned long)((const char *)pointed_leaf - __ehdr_start));
   fflush(stdout);
   outer_ptr(p);
   return 0;
}

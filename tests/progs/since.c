/* since: pages of known owners brought in by known lines, between the
   looks of "ws dump" and "ws since" (tests/test_since.py).

   usage: since

   alloc_a() and alloc_b() each malloc a block from a line of their own
   (marked "since: malloc a" and "since: malloc b"); both blocks are big
   enough for glibc to mmap them on their own.  The program writes one
   byte to each of the A_PAGES pages of block a (line "since: touch a"),
   then asks for "ws dump" (the summary) through
   VALGRIND_MONITOR_COMMAND; then writes one byte to each of the B_PAGES
   pages of block b ("since: touch b") and to each of the G_PAGES pages
   of the page-aligned global g_table ("since: touch g"), writes block a
   again (its pages are still in the window: they do not enter it
   again), and asks for "ws since"; then for "ws since" once more, with
   nothing touched in between.  The test runs it with a window longer
   than the run, so that nothing leaves the window.

   Built twice: tests/progs/since (with debug information) and
   tests/progs/since_stripped (-s: no symbols, no debug information),
   whose owners and lines ws names by the address inside the object. */

#include <stdlib.h>

#include "valgrind/ws.h"

#define PAGE     4096
#define A_PAGES  300
#define B_PAGES  200
#define G_PAGES  10

static char g_table[G_PAGES * PAGE] __attribute__((aligned(PAGE)));

__attribute__((noipa)) static char *alloc_a(void)
{
   return malloc(A_PAGES * PAGE);                     /* since: malloc a */
}

__attribute__((noipa)) static char *alloc_b(void)
{
   return malloc(B_PAGES * PAGE);                     /* since: malloc b */
}

__attribute__((noipa)) static void touch_a(volatile char *a)
{
   for (long p = 0; p < A_PAGES; p++)
      a[p * PAGE] = 1;                                /* since: touch a */
}

__attribute__((noipa)) static void touch_b(volatile char *b)
{
   for (long p = 0; p < B_PAGES; p++)
      b[p * PAGE] = 1;                                /* since: touch b */
}

__attribute__((noipa)) static void touch_g(void)
{
   for (long p = 0; p < G_PAGES; p++)
      ((volatile char *)g_table)[p * PAGE] = 1;       /* since: touch g */
}

int main(void)
{
   char *a = alloc_a(), *b;
   if (a == NULL)
      return 1;
   touch_a(a);
   VALGRIND_MONITOR_COMMAND("ws dump");
   b = alloc_b();
   if (b == NULL)
      return 1;
   touch_b(b);
   touch_g();
   touch_a(a);
   VALGRIND_MONITOR_COMMAND("ws since");
   VALGRIND_MONITOR_COMMAND("ws since");
   free(b);
   free(a);
   return 0;
}

/* callers: a heap block allocated five calls below main, for the depth
   of the stacks ws writes (tests/test_stack_options.py).

   usage: callers

   main calls level5, which calls level4, ... level1; level1 allocates a
   block of BLOCK_PAGES pages (the malloc on the line marked "callers:
   malloc"), writes a byte to each of its pages, and dumps the working
   set (WS_DUMP("block")): the dump's pages of the block name it as their
   owner, with the stack that allocated it, level1 at that line and then
   each caller at the line of its call (marked "callers: levelN").  The
   functions are never inlined, so each is one frame.  The block is not
   freed.  Exit status 0, 1 if malloc fails. */

#include "wsprog.h"
#include "valgrind/ws.h"

#define BLOCK_PAGES 3
#define PAGE        4096

__attribute__((noinline)) static int level1(void)
{
   volatile char *block = malloc(BLOCK_PAGES * PAGE);    /* callers: malloc */
   if (block == NULL)
      return 1;
   for (int p = 0; p < BLOCK_PAGES; p++)
      block[p * PAGE] = 1;
   WS_DUMP("block");
   return 0;
}

__attribute__((noinline)) static int level2(void)
{
   return level1();                                      /* callers: level2 */
}

__attribute__((noinline)) static int level3(void)
{
   return level2();                                      /* callers: level3 */
}

__attribute__((noinline)) static int level4(void)
{
   return level3();                                      /* callers: level4 */
}

__attribute__((noinline)) static int level5(void)
{
   return level4();                                      /* callers: level5 */
}

int main(void)
{
   return level5();                                      /* callers: main */
}

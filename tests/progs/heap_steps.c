/* heap_steps.c: live heap bytes in known steps, for the `heap` column
   of the samples (tests/test_heap_memoro.py).  The program allocates
   nothing but these chunks (no stdio), and spins for about IDLE
   instructions between steps, so that several samples fall on each:

     heap_steps IDLE

     step                      live heap bytes after it
     (start)                   0
     a = malloc(1000)          1000
     b = malloc(30000)         31000
     free(a)                   30000
     b = realloc(b, 50000)     50000
     free(b)                   0 */

#include <stdlib.h>

static void spin(long n)
{
   for (volatile long i = 0; i < n / 6; i++)
      ;
}

int main(int argc, char** argv)
{
   long idle = argc > 1 ? atol(argv[1]) : 1000000;
   char* a;
   char* b;
   spin(idle);
   a = malloc(1000);
   spin(idle);
   b = malloc(30000);
   spin(idle);
   free(a);
   spin(idle);
   b = realloc(b, 50000);
   spin(idle);
   free(b);
   spin(idle);
   return 0;
}

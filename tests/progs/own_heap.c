/* own_heap.c: allocation calls whose number ws's heap tracking must
   follow exactly (tests/test_owners.py).

   own_heap calls N      N rounds of one call of each C allocation
                         function, every block freed again: per round
                         9 blocks allocated (the realloc that moves
                         counts as one and frees its old block) and 9
                         freed (realloc(p, 0) frees p); the program's
                         own start-up adds the
                         same blocks whatever N is.
   own_heap leak N       N blocks of 100 bytes from one malloc, kept.
   own_heap more N       N rounds of the less common calls: per round
                         3 blocks allocated and 3 freed (reallocarray
                         from NULL, pvalloc, a reallocarray that moves);
                         a reallocarray whose size overflows allocates
                         and frees nothing.
   own_heap threads N    4 threads doing "calls N" at the same time. */

#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void calls(long n)
{
   long i;
   for (i = 0; i < n; i++) {
      void* a = malloc(64);
      void* b = calloc(4, 16);
      void* c = realloc(NULL, 32);          /* a malloc inside realloc */
      void* d = NULL;
      void* e = aligned_alloc(64, 128);
      void* f = memalign(4096, 10);
      void* g = valloc(100);
      void* h = malloc(8);
      c = realloc(c, 100000);               /* moves: frees the old */
      h = realloc(h, 0);                    /* frees h, returns NULL */
      if (posix_memalign(&d, 64, 100) != 0)
         abort();
      if (!a || !b || !c || !d || !e || !f || !g)
         abort();
      free(a);
      free(b);
      free(c);
      free(d);
      free(e);
      free(f);
      free(g);
      free(h);
      free(NULL);                           /* ignored */
   }
}

static void more(long n)
{
   long i;
   for (i = 0; i < n; i++) {
      char* a = reallocarray(NULL, 10, 10);  /* a malloc */
      void* b = pvalloc(100);                /* a whole page */
      if (!a || !b)
         abort();
      if (reallocarray(a, (size_t)-1 / 2, 4) != NULL)   /* overflows */
         abort();
      a = reallocarray(a, 1000, 100);        /* moves past b: frees a */
      if (!a)
         abort();
      free(a);
      free(b);
   }
}

static void leak(long n)
{
   long i;
   for (i = 0; i < n; i++)
      if (malloc(100) == NULL)
         abort();
}

#define THREADS 4

static void* thread_calls(void* n)
{
   calls(*(long*)n);
   return NULL;
}

static void threads(long n)
{
   pthread_t t[THREADS];
   int i;
   for (i = 0; i < THREADS; i++)
      if (pthread_create(&t[i], NULL, thread_calls, &n) != 0)
         abort();
   for (i = 0; i < THREADS; i++)
      pthread_join(t[i], NULL);
}

int main(int argc, char** argv)
{
   long n;
   if (argc != 3)
      return 2;
   n = strtol(argv[2], NULL, 10);
   if (strcmp(argv[1], "calls") == 0)
      calls(n);
   else if (strcmp(argv[1], "leak") == 0)
      leak(n);
   else if (strcmp(argv[1], "threads") == 0)
      threads(n);
   else if (strcmp(argv[1], "more") == 0)
      more(n);
   else
      return 2;
   return 0;
}

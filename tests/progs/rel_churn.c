/* rel_churn: create a thread and join it, N times over, then exit.

   usage: rel_churn N STATUS

   One thread at a time: each writes one byte to a shared page and ends;
   main joins it before making the next, so Valgrind reuses the same
   thread id (2) every time.  Then main returns STATUS.

   Exit status STATUS, 2 on bad arguments, 3 if a thread cannot be made or
   did not run. */

#include <pthread.h>

#include "wsprog.h"

static volatile long ran;

static void *body(void *arg)
{
   (void)arg;
   __atomic_add_fetch(&ran, 1, __ATOMIC_SEQ_CST);
   return NULL;
}

int main(int argc, char **argv)
{
   if (argc != 3) {
      fprintf(stderr, "usage: rel_churn N STATUS\n");
      return 2;
   }
   long n = ws_arg(argv[1], "threads");
   long status = ws_arg(argv[2], "status");
   for (long i = 0; i < n; i++) {
      pthread_t t;
      if (pthread_create(&t, NULL, body, NULL) != 0) {
         fprintf(stderr, "rel_churn: pthread_create failed at %ld\n", i);
         return 3;
      }
      pthread_join(t, NULL);
   }
   if (ran != n)
      return 3;
   return (int)status;
}

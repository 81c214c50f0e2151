/* rel_toggle: measurement started and stopped many times.

   usage: rel_toggle pairs N     N pairs of WS_START / WS_STOP in one
                                 thread; exit status 0
          rel_toggle storm       two threads toggle WS_START / WS_STOP
                                 in a loop for ever while main sleeps
                                 0.3 s, then main calls exit(7)

   pairs: first prints "ON_PAGE OFF_PAGE ON_CODE OFF_CODE" (addresses in
   hex).  Each of the N rounds makes one store to ON_PAGE by the code on
   ON_CODE's page between WS_START and WS_STOP; then, measurement off,
   the same store by the same code, and one store to OFF_PAGE by the
   code on OFF_CODE's page.  So ON_PAGE is accessed N times while
   measured, ON_CODE's page runs 14 instructions each time (wsprog.h: a
   call of one sweep of one element with delay 1), and OFF_PAGE and
   OFF_CODE's page are never touched while measured.

   Exit status 2 on bad arguments, 3 if a thread cannot be made. */

#include <pthread.h>
#include <unistd.h>

#include <valgrind/ws.h>

#include "wsprog.h"

WS_LOOP(on_store, "movb $1, (%rdi)");
WS_LOOP(off_store, "movb $1, (%rdi)");

static char on_page[4096] __attribute__((aligned(4096)));
static char off_page[4096] __attribute__((aligned(4096)));

static void *toggle(void *arg)
{
   (void)arg;
   for (;;) {
      WS_START;
      WS_STOP;
   }
   return NULL;
}

int main(int argc, char **argv)
{
   if (argc == 3 && strcmp(argv[1], "pairs") == 0) {
      unsigned long n = strtoul(argv[2], NULL, 10);
      printf("%p %p %p %p\n", (void *)on_page, (void *)off_page,
             (void *)on_store, (void *)off_store);
      fflush(stdout);
      for (unsigned long i = 0; i < n; i++) {
         WS_START;
         on_store(on_page, 1, 1, 1, 1);
         WS_STOP;
         on_store(on_page, 1, 1, 1, 1);
         off_store(off_page, 1, 1, 1, 1);
      }
      return 0;
   }
   if (argc == 2 && strcmp(argv[1], "storm") == 0) {
      pthread_t a, b;
      if (pthread_create(&a, NULL, toggle, NULL)
          || pthread_create(&b, NULL, toggle, NULL))
         return 3;
      usleep(300000);
      exit(7);
   }
   fprintf(stderr, "usage: rel_toggle pairs N | rel_toggle storm\n");
   return 2;
}

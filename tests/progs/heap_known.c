/* heap_known.c: allocation sites whose heap usage is known exactly, for
   tests/test_heap_usage.py.  Every chunk is page-aligned and a whole
   number of 4096-byte pages (posix_memalign), so that the allocator's
   own words lie on other pages and page granularity is exact.  Each
   site is a function of its own, so each has its own allocating stack.

   heap_known IDLE       IDLE: instructions (roughly) of the idle and
                         busy stretches; the test chooses it many times
                         its T.

   Sites, in the order they run:
     first_page   4 chunks of 8 pages, one at a time: a byte of the
                  first page written and read, then freed
                  (usage 1/8, 32768 bytes peak live)
     never        3 chunks of 4 pages, all live at once, never touched
     idle         1 chunk of 16 pages, written and read at once, then
                  idle for IDLE instructions before its free
     busy         1 chunk of 16 pages, every page written and read over
                  and over for IDLE instructions, freed right after
     write_only   2 chunks of 2 pages, every page written, never read
     read_only    2 chunks of 2 pages, every page read, never written
     shared       1 chunk of 1 page written by this thread and read by
                  a second one
     one_thread   1 chunk of 1 page written and read by the second
                  thread only
     kept         1 chunk of 1 page written, still live at exit */

#include <pthread.h>
#include <stdlib.h>

#define PAGE 4096

static volatile long sink;

static char* pages(long n)
{
   void* p = NULL;
   if (posix_memalign(&p, PAGE, n * PAGE) != 0)
      abort();
   return p;
}

/* Spins for about n instructions, touching nothing but registers and
   this frame. */
static void spin(long n)
{
   for (volatile long i = 0; i < n / 6; i++)
      ;
}

static void write_pages(volatile char* p, long n)
{
   for (long i = 0; i < n; i++)
      p[i * PAGE] = (char)i;
}

static long read_pages(volatile char* p, long n)
{
   long s = 0;
   for (long i = 0; i < n; i++)
      s += p[i * PAGE];
   return s;
}

__attribute__((noinline)) static void site_first_page(void)
{
   for (int k = 0; k < 4; k++) {
      volatile char* p = pages(8);
      p[0] = 1;
      sink += p[0];
      free((char*)p);
   }
}

__attribute__((noinline)) static void site_never(void)
{
   char* p[3];
   for (int k = 0; k < 3; k++)
      p[k] = pages(4);
   for (int k = 0; k < 3; k++)
      free(p[k]);
}

__attribute__((noinline)) static void site_idle(long idle)
{
   char* p = pages(16);
   write_pages(p, 16);
   sink += read_pages(p, 16);
   spin(idle);
   free(p);
}

__attribute__((noinline)) static void site_busy(long busy)
{
   char* p = pages(16);
   /* a pass over the 16 pages takes about 300 instructions */
   for (long k = 0; k < busy / 300; k++) {
      write_pages(p, 16);
      sink += read_pages(p, 16);
   }
   free(p);
}

__attribute__((noinline)) static void site_write_only(void)
{
   for (int k = 0; k < 2; k++) {
      char* p = pages(2);
      write_pages(p, 2);
      free(p);
   }
}

__attribute__((noinline)) static void site_read_only(void)
{
   for (int k = 0; k < 2; k++) {
      char* p = pages(2);
      sink += read_pages(p, 2);
      free(p);
   }
}

static void* second_thread(void* shared)
{
   char* own;
   sink += read_pages(shared, 1);
   own = pages(1);                     /* the one_thread site */
   write_pages(own, 1);
   sink += read_pages(own, 1);
   free(own);
   return NULL;
}

__attribute__((noinline)) static void site_shared(void)
{
   pthread_t t;
   char* p = pages(1);
   write_pages(p, 1);
   if (pthread_create(&t, NULL, second_thread, p) != 0
       || pthread_join(t, NULL) != 0)
      abort();
   free(p);
}

__attribute__((noinline)) static void site_kept(void)
{
   write_pages(pages(1), 1);
}

int main(int argc, char** argv)
{
   long idle = argc > 1 ? atol(argv[1]) : 2000000;
   site_first_page();
   site_never();
   site_idle(idle);
   site_busy(idle);
   site_write_only();
   site_read_only();
   site_shared();
   site_kept();
   return 0;
}

// rel_exc: C++ exceptions thrown and caught across frames.
//
// usage: rel_exc N STATUS
//
// N times: a recursion of 1 .. 20 frames, each holding an object with a
// destructor, throws at its bottom; every third time a middle frame
// catches (...) and rethrows; main catches.  Then writes one byte to each
// of 10 pages for about 500,000 instructions (a WS_LOOP alone on its page,
// in rel_exc_loop.c), so that a test knows some windows exactly.  Prints
// "thrown T caught C destroyed D rethrown R" and exits with STATUS.
// Exit status 2 on bad arguments, 3 if the counts are wrong.

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <sys/mman.h>

extern "C" void rel_exc_touch(char *base, long count, long stride,
                              long delay, long sweeps);

static long destroyed, rethrown, thrown;

struct Guard {
   ~Guard() { destroyed++; }
};

struct Boom : std::runtime_error {
   int n;
   explicit Boom(int n) : std::runtime_error("boom " + std::to_string(n)), n(n) {}
};

__attribute__((noinline)) static int down(int depth, int n)
{
   Guard g;
   if (depth == 0) {
      thrown++;
      throw Boom(n);
   }
   if (depth == 5 && n % 3 == 0) {
      try {
         return down(depth - 1, n) + 1;
      } catch (...) {
         rethrown++;
         throw;
      }
   }
   return down(depth - 1, n) + 1;
}

int main(int argc, char **argv)
{
   if (argc != 3) {
      std::fprintf(stderr, "usage: rel_exc N STATUS\n");
      return 2;
   }
   long n = std::strtol(argv[1], nullptr, 10);
   int status = std::atoi(argv[2]);
   long caught = 0, sum = 0, frames = 0, want_rethrown = 0;
   for (long i = 0; i < n; i++) {
      int depth = 1 + (int)(i % 20);
      frames += depth + 1;
      if (depth >= 5 && i % 3 == 0)
         want_rethrown++;
      try {
         sum += down(depth, (int)i);
      } catch (const Boom &b) {
         caught++;
         sum += b.n;
      }
   }
   char *pages = (char *)mmap(nullptr, 10 * 4096, PROT_READ | PROT_WRITE,
                              MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
   if (pages == MAP_FAILED)
      return 2;
   rel_exc_touch(pages, 10, 4096, 10, 500000 / (10 * 25 + 4));
   std::printf("thrown %ld caught %ld destroyed %ld rethrown %ld sum %ld\n",
               thrown, caught, destroyed, rethrown, sum);
   if (thrown != n || caught != n || destroyed != frames
       || rethrown != want_rethrown || sum != n * (n - 1) / 2)
      return 3;
   return status;
}

// vecgrow: a std::vector that grows by doubling, for the peaks' owners
// (tests/test_peaks.py): the largest sample is the last reallocation,
// whose window holds the new buffer and the old one, freed once its
// elements are moved.
//
// usage: vecgrow N          (N a power of two)
//
// Appends N + 1 ints to a std::vector<int> one by one.  push_back
// doubles the capacity when it is full (operator new of the new buffer,
// a memmove of the elements into it, operator delete of the old
// buffer), so the last append moves the N ints of a full buffer of N
// into a new one of 2N.  Then the program idles for about 600,000
// instructions, reading the last element and three pages of a static
// table of idle()'s own (a data symbol whose name is C++'s), so that
// the sample after that reallocation is taken while its window still
// holds both buffers' pages and nothing else is large.

#include <cstdlib>
#include <vector>

namespace {

__attribute__((noinline)) void grow(std::vector<int>& v, long n)
{
   for (long i = 0; i < n; i++)
      v.push_back(static_cast<int>(i));               // grow: push_back
}

__attribute__((noinline)) long idle(const std::vector<int>& v)
{
   static volatile char table[3 * 4096];    // a data symbol with a C++ name
   long s = 0;
   for (long i = 0; i < 100000; i++)
      s += *static_cast<const volatile int*>(&v.back()) + table[i % 3 * 4096];
   return s;
}

} // namespace

int main(int argc, char** argv)
{
   if (argc != 2)
      return 2;
   long n = std::strtol(argv[1], nullptr, 10);
   std::vector<int> v;
   grow(v, n + 1);                                    // main: calls grow
   return idle(v) == 42 ? 1 : 0;
}

// heap_vector.cc: a std::vector regrown without reserve, beside one
// that reserves (the Memoro paper's Figure 3c).  Both get 10,000 longs
// by push_back, are summed, and are destroyed; the reserved one first.
//
//   reserved()  v.reserve(10000): one chunk of 80,000 bytes
//   regrown()   no reserve: libstdc++ doubles the capacity when it is
//               full (1, 2, 4, ..., 16384 elements: 15 chunks), each
//               time allocating the new buffer, moving the elements
//               into it (memmove: the old buffer read, the new one
//               written) and freeing the old one
//
// The Memoro paper's answers (../shared/ws-interface.md sections 6 and
// 9; tests/memoro_model.py), for the site of operator new under
// regrown()'s push_back (_M_realloc_insert):
//   chunks 15, bytes 262136 (8 x (2^15 - 1)), peak-live 196608 (the
//   buffers of 8192 and 16384 elements while the elements move), growth
//   1 (one run of 15 growing sizes), never 0, read-only 0, write-only 0;
//   the first 14 buffers are written whole and read whole (moved out),
//   the last (16384 elements) holds 10,000, written and read by the
//   sum: touched 211064 (131064 + 80000), interval 211064, usage
//   211064 / 262136 = 0.805
// and for reserved()'s site: chunks 1, bytes 80000, peak-live 80000,
//   growth 0, touched 80000, usage 1.000.
//
// DHAT (tests/dhat_oracle.py): the regrown site 15 blocks, 262136 bytes,
// max 196608 (DHAT's max is the site's live bytes when its own
// allocation last raised the whole heap's maximum: here its last one,
// the reserved vector being gone by then, and smaller), no histogram
// (several sizes), and at least 211064 bytes read and as many written:
// DHAT counts the bytes of each access, and libc's memmove may move
// some bytes twice (overlapping vectors at the ends of a copy); the
// reserved site 1 block, 80000 bytes, max 80000, 80000 read and 80000
// written (the program's own 8-byte accesses).
//
// ws before this: no growth figure; usage 0.812 at 4 KiB pages, 0.805 at
// 64 bytes.

#include <cstdio>
#include <vector>

namespace {

const long N = 10000;

__attribute__((noinline)) long reserved()
{
   std::vector<long> v;
   v.reserve(N);
   for (long i = 0; i < N; i++)
      v.push_back(i);
   long sum = 0;
   for (long x : v)
      sum += x;
   return sum;
}

__attribute__((noinline)) long regrown()
{
   std::vector<long> v;
   for (long i = 0; i < N; i++)
      v.push_back(i);
   long sum = 0;
   for (long x : v)
      sum += x;
   return sum;
}

} // namespace

int main()
{
   long sum = reserved() + regrown();
   std::printf("sum %ld\n", sum);
   return 0;
}

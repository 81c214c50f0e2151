// own_new.cc: C++ operator new and delete in all their forms, N rounds
// (tests/test_owners.py).  Per round 6 blocks are allocated, each by one
// operator new (which calls malloc or aligned_alloc inside: ws must
// count one block, not two) and freed by the matching delete.

#include <cstdlib>
#include <cstring>
#include <new>

struct alignas(64) Aligned {
   char bytes[64];
};

struct Plain {
   long a, b;
};

int main(int argc, char** argv)
{
   if (argc != 2)
      return 2;
   long n = std::strtol(argv[1], nullptr, 10);
   for (long i = 0; i < n; i++) {
      Plain* p = new Plain();                       // operator new
      int* v = new int[100];                        // operator new[]
      Plain* q = new (std::nothrow) Plain();        // nothrow
      Aligned* a = new Aligned();                   // aligned
      Aligned* av = new Aligned[3];                 // aligned []
      void* raw = ::operator new(40);
      delete p;                                     // sized delete
      delete[] v;
      delete q;
      delete a;                                     // aligned delete
      delete[] av;
      ::operator delete(raw);
   }
   return 0;
}

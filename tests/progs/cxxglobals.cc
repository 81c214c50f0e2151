// cxxglobals: C++ data symbols of many kinds, each alone on its page,
// touched and then dumped (WS_DUMP), so that the dump names each page by
// its symbol, demangled (tests/test_owners.py: ws's names against
// c++filt's).
//
// usage: cxxglobals

#include <utility>

#include <valgrind/ws.h>

#define PAGE __attribute__((aligned(4096)))

namespace ns {
PAGE int counter[1024];
namespace deep {
PAGE long deeper[512];
}
}

namespace {
PAGE char table[4096];
}

struct Cfg {
   static char buf[4096];
   void touch() const;
};
PAGE char Cfg::buf[4096];

template <typename T> struct Pool {
   static T slots[4096 / sizeof(T)];
};
template <typename T> PAGE T Pool<T>::slots[4096 / sizeof(T)];

template <int N> struct Ring {
   static unsigned char bytes[4096];
};
template <int N> PAGE unsigned char Ring<N>::bytes[4096];

static volatile long sink;

static void use(const volatile void* p)
{
   sink += *(const volatile char*)p;
}

__attribute__((noinline)) int* cache_of(const char* name, unsigned long n,
                                        double (*weigh)(int))
{
   PAGE static int cache[1024];
   cache[n % 1024] += name[0] + (weigh != 0);
   return cache;
}

template <int N> __attribute__((noinline)) char* scratch()
{
   PAGE static char space[4096];
   space[N] = 1;
   return space;
}

void Cfg::touch() const
{
   PAGE static int hits[1024];
   hits[0]++;
   use(hits);
}

int main()
{
   auto counted = [](int x) {
      PAGE static int seen[1024];
      seen[x]++;
      return seen;
   };
   use(ns::counter);
   use(ns::deep::deeper);
   use(table);
   use(Cfg::buf);
   use(Pool<long>::slots);
   use(Pool<std::pair<int, char> >::slots);
   use(Ring<7>::bytes);
   use(cache_of("name", 3, 0));
   use(scratch<5>());
   Cfg().touch();
   use(counted(2));
   WS_DUMP("globals");
   return 0;
}

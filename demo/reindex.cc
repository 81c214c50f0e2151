// reindex: a small request server whose working set spikes when it
// rebuilds its index, for the worked example in docs/example.md.
//
// 120 requests.  Each looks keys up in a 64-page table (a steady working
// set of a few dozen pages).  Requests 40 and 80 rebuild the index: a
// std::vector of 4 Mi slots (16 MiB), made zeroed (std::vector's value
// initialisation: one memset), one slot in every page set from the old
// index, then swapped in for the old one, which is freed when the
// rebuild returns.  Under ws the data working set is flat except at those
// two requests, and the output file alone says which function, which
// line and which allocations made the spike.
//
// Only the requests are measured (WS_START and WS_STOP, run with
// --ws-instr-atstart=no), so that the example's figures are the same in
// every shell: start-up runs a different number of instructions in every
// environment (the dynamic linker reads it).

#include <alloca.h>
#include <cstdint>
#include <cstdio>
#include <vector>
#include <valgrind/ws.h>

namespace {

constexpr std::size_t kTableWords = 64 * 4096 / sizeof(std::uint32_t);
constexpr std::size_t kSlots = std::size_t(1) << 22;       // 16 MiB
constexpr std::size_t kSlotsPerPage = 4096 / sizeof(std::uint32_t);

std::uint32_t table[kTableWords];

std::uint32_t mix(std::uint32_t x)
{
   x ^= x >> 16;
   x *= 0x7feb352du;
   x ^= x >> 15;
   return x;
}

struct Index {
   std::vector<std::uint32_t> slots;
};

__attribute__((noinline)) void rebuild(Index& index, std::uint32_t seed)
{
   std::vector<std::uint32_t> fresh(kSlots);           // rebuild: allocate
   for (std::size_t i = 0; i < kSlots; i += kSlotsPerPage)
      fresh[i] = mix(seed + (index.slots.empty() ? 0 : index.slots[i]));
   index.slots.swap(fresh);                            // the old one goes
}

__attribute__((noinline)) std::uint32_t lookup(std::uint32_t key)
{
   std::uint32_t sum = 0;
   for (std::uint32_t i = 0; i < 3000; i++)
      sum += table[mix(key + i) % kTableWords];
   return sum;
}

__attribute__((noinline)) std::uint32_t serve(Index& index)
{
   std::uint32_t sum = 0;
   WS_MARK("requests");
   WS_START;
   for (std::uint32_t request = 1; request <= 120; request++) {
      if (request % 40 == 0 && request < 120)
         rebuild(index, request);                      // serve: rebuild
      else
         sum += lookup(request);
   }
   WS_STOP;
   return sum;
}

} // namespace

int main()
{
   for (std::size_t i = 0; i < kTableWords; i++)
      table[i] = mix(std::uint32_t(i));
   // The environment's size moves the stack by a few bytes, which could
   // put the requests' frames across a page boundary in one shell and not
   // in another: start them in the middle of a page every time.
   char here;
   char *pad = static_cast<char *>(
      alloca((reinterpret_cast<std::uintptr_t>(&here) & 4095) + 2048));
   asm volatile("" : : "r"(pad) : "memory");
   Index index;
   std::uint32_t sum = serve(index);
   std::printf("%u\n", sum + index.slots[0]);
   return 0;
}

/* ctl_macros: every client request of <valgrind/ws.h>, with answers
   known from the source.

   usage: ctl_macros        (run under ws with --ws-instr-atstart=no)

   Three measured regions, each WS_START ... WS_STOP in region() below,
   writing one byte to each of a number of pages of one mapping:

     "alpha"  pages 0..49, once, then for about 500000 more instructions
              (WS_CURRENT_* and WS_DUMP("alpha") after the first sweep)
     "beta"   pages 50..69, about 300000 instructions
     "alpha"  pages 0..9, about 300000 instructions

   Between them, with measurement off: VALGRIND_CLO_CHANGE("--ws-tau=..."),
   VALGRIND_MONITOR_COMMAND("ws status") and ("ws mark by-monitor"), and a
   loop of about 2,000,000 instructions that ws must not see.

   Why the answers are exact: region() is alone at the start of a page
   (its own aligned section) and the touching loop is alone on its own
   page (wsprog.h), so a region executes exactly 2 instruction pages.  Its
   only data accesses are the loop's stores and region()'s own stack
   frame; main() moves the stack pointer to the middle of a page first
   (alloca), so that frame lies on one page.  So the first sweep of
   "alpha" leaves exactly 50 + 1 data pages and 2 instruction pages in a
   fresh window (no sample falls inside it at the default T).

   stdout (the same with and without Valgrind): one line per region and a
   checksum.  stderr: the addresses the test needs ("base", "stack",
   "region", "loop") and what WS_CURRENT_* returned ("current"; 0 0
   without Valgrind).  Exit status 0. */

#include <alloca.h>
#include <stdint.h>

#include <valgrind/valgrind.h>
#include <valgrind/ws.h>

#include "wsprog.h"

WS_LOOP(ctl_touch, "movb $1, (%rdi)");

#define PAGE  4096
#define DELAY 10
#define PER_PAGE WS_LOOP_PER_ELEMENT(1, DELAY)   /* 25 instructions */


/* One measured region: |sweeps| sweeps over |pages| pages from |first|.
   With |probe| (an array in the caller's frame, so that no other page is
   written), the first sweep is followed by WS_CURRENT_* and WS_DUMP, and
   probe[] gets the two sizes and an address in this frame. */
__attribute__((noinline, aligned(4096), section(".text.ctl_region")))
static void region(const char *label, char *first, long pages, long sweeps,
                   unsigned long *probe)
{
   WS_START;
   if (probe) {
      ctl_touch(first, pages, PAGE, DELAY, 1);
      probe[0] = WS_CURRENT_INSN_PAGES;
      probe[1] = WS_CURRENT_DATA_PAGES;
      probe[2] = (unsigned long)&label;
      WS_DUMP(label);
   } else {
      WS_MARK(label);                  /* a mark inside the region */
   }
   ctl_touch(first, pages, PAGE, DELAY, sweeps);
   WS_STOP;
}

/* Work that ws must not see (measurement is off). */
static void unmeasured(char *base)
{
   ctl_touch(base + 100 * PAGE, 100, PAGE, DELAY,
             ws_sweeps_for(2000000, 100, PER_PAGE));
}

static void run(char *base)
{
   long sum = 0, i;
   unsigned long probe[3];

   fprintf(stderr, "base %p\nregion %p\nloop %p\n", (void *)base,
           (void *)region, (void *)ctl_touch);

   WS_MARK("alpha");                   /* names the next region */
   region("alpha", base, 50, ws_sweeps_for(500000, 50, PER_PAGE), probe);
   fprintf(stderr, "stack %#lx\ncurrent %lu %lu\n", probe[2], probe[0],
           probe[1]);
   printf("alpha 50\n");

   VALGRIND_CLO_CHANGE("--ws-tau=50000");
   VALGRIND_MONITOR_COMMAND("ws status");
   unmeasured(base);
   region("beta", base + 50 * PAGE, 20,
          ws_sweeps_for(300000, 20, PER_PAGE), NULL);
   printf("beta 20\n");

   VALGRIND_MONITOR_COMMAND("ws mark by-monitor");
   region("alpha", base, 10, ws_sweeps_for(300000, 10, PER_PAGE), NULL);
   printf("alpha 10\n");

   for (i = 0; i < 200; i++)
      sum += base[i * PAGE];
   printf("checksum %ld\n", sum);      /* 70 pages were written, 100 more
                                          while ws was off: 170 */
}

int main(void)
{
   char *base = ws_map(200 * PAGE);
   /* Put the stack pointer in the middle of a page, so that region()'s
      frame lies on one page. */
   uintptr_t sp = (uintptr_t)__builtin_frame_address(0);
   size_t pad = ((sp & (PAGE - 1)) + PAGE - PAGE / 2) & (PAGE - 1);
   volatile char *gap = alloca(pad + 16);
   gap[0] = 0;
   run(base);
   return 0;
}

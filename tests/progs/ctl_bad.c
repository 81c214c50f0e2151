/* ctl_bad: client requests that ws must refuse without harm.

   usage: ctl_bad        (run under ws with the default --ws-instr-atstart=yes)

   In this order:
     WS_START twice while measurement is on            (a region begins,
                                                         then unbalanced)
     WS_STOP, then WS_STOP twice more while off         (unbalanced stop)
     WS_START                                            (good: on again)
     WS_MARK / WS_DUMP with labels that are not readable memory: NULL, 1,
       an unmapped page, a PROT_NONE page, the top of the address space,
       and a string that runs into an unmapped page
     WS_MARK with 256 and 1000 characters and no NUL in the first 256
     WS_MARK with an empty label and one of blanks only
     WS_MARK with a newline, and with a tab, inside
     VALGRIND_CLO_CHANGE with a bad --ws-tau and with --ws-pagesize, which
       cannot change at run time, then a good --ws-every=50000
   and the labels that must be accepted:
     WS_MARK with exactly 255 characters ("x" * 255)
     WS_MARK("  spaced   out  ")  (written as "spaced out")
     WS_MARK("ok")

   ws must warn once per kind of problem, record only the three good marks
   and the good option change, and let the program finish: it prints
   "done" and exits with status 0. */

#include <stdint.h>
#include <string.h>

#include <valgrind/valgrind.h>
#include <valgrind/ws.h>

#include "wsprog.h"

#define PAGE 4096

int main(void)
{
   static char x255[256], x256[257], x1000[1001];
   char *two = ws_map(2 * PAGE);
   char *gone = ws_map(PAGE);
   char *noaccess = ws_map(PAGE);

   WS_START;
   WS_START;
   WS_STOP;
   WS_STOP;
   WS_STOP;
   WS_START;

   /* Not readable. */
   munmap(gone, PAGE);
   mprotect(noaccess, PAGE, PROT_NONE);
   memset(two, 'y', PAGE);             /* no NUL before the second page */
   munmap(two + PAGE, PAGE);
   WS_MARK(NULL);
   WS_MARK((const char *)1);
   WS_MARK(gone);
   WS_MARK(noaccess);
   WS_MARK((const char *)UINTPTR_MAX);
   WS_MARK(two + PAGE - 10);
   WS_DUMP(NULL);
   WS_DUMP(gone);

   /* Too long or unterminated. */
   memset(x255, 'x', 255);
   memset(x256, 'x', 256);
   memset(x1000, 'x', 1000);
   WS_MARK(x1000);
   WS_MARK(x256);
   WS_DUMP(x1000);

   /* Empty. */
   WS_MARK("");
   WS_MARK("   ");

   /* Control characters. */
   WS_MARK("two\nlines");
   WS_MARK("a\ttab");

   /* Options that may not change (the core says so), then one that may. */
   VALGRIND_CLO_CHANGE("--ws-tau=0");
   VALGRIND_CLO_CHANGE("--ws-pagesize=64");
   VALGRIND_CLO_CHANGE("--ws-every=50000");

   /* Good. */
   WS_MARK(x255);
   WS_MARK("  spaced   out  ");
   WS_MARK("ok");

   printf("done\n");
   return 0;
}

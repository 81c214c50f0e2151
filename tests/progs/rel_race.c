/* rel_race: steering ws while the program works.

   usage: rel_race MODE N

   Modes that steer ws from inside, N times, each time after spinning
   i % 211 + 1 turns (a loop alone on its code page, 2 instructions a
   turn, so that the steering lands at every distance from the
   multiples of a small T):

     tau      VALGRIND_MONITOR_COMMAND("ws set tau 700"), and "... 1000"
              on the next round
     toggle   WS_STOP then WS_START
     status   VALGRIND_MONITOR_COMMAND("ws status")

   Modes that run until their standard input ends, for steering from
   outside (they print "ready" first, then look at standard input after
   each chunk of work; N is ignored):

     busy     writes one byte to each of 50 pages, sweep after sweep, in
              chunks of about 1,000,000 instructions (a WS_LOOP alone on
              its page), flat out
     flip     as toggle, for ever: spin, WS_STOP, WS_START

   Exit status 0; 2 on bad arguments. */

#include <poll.h>
#include <unistd.h>

#include <valgrind/valgrind.h>
#include <valgrind/ws.h>

#include "wsprog.h"

WS_LOOP(rel_race_touch, "movb $1, (%rdi)");

/* spin(turns): 2 instructions a turn, on its own page. */
void rel_race_spin(long turns);
__asm__(".pushsection .text.wsprog.rel_race_spin,\"ax\",@progbits\n"
        "   .p2align 12\n"
        "   .globl rel_race_spin\n"
        "rel_race_spin:\n"
        "1: dec %rdi\n"
        "   jnz 1b\n"
        "   ret\n"
        "   .p2align 12, 0xcc\n"
        ".popsection\n");

#define PAGES 50
#define DELAY 10

/* True once standard input is at its end (or in error). */
static int input_ended(void)
{
   struct pollfd p = { 0, POLLIN, 0 };
   char c;
   if (poll(&p, 1, 0) <= 0)
      return 0;
   return read(0, &c, 1) <= 0;
}

int main(int argc, char **argv)
{
   if (argc != 3) {
      fprintf(stderr, "usage: rel_race tau|toggle|status|busy|flip N\n");
      return 2;
   }
   long n = ws_arg(argv[2], "N"), i;
   const char *m = argv[1];
   if (!strcmp(m, "busy")) {
      char *base = ws_map(PAGES * 4096);
      printf("ready\n");
      fflush(stdout);
      do
         rel_race_touch(base, PAGES, 4096, DELAY,
                        ws_sweeps_for(1000000, PAGES,
                                      WS_LOOP_PER_ELEMENT(1, DELAY)));
      while (!input_ended());
      return 0;
   }
   if (!strcmp(m, "flip")) {
      printf("ready\n");
      fflush(stdout);
      for (i = 0; i % 1000 || !input_ended(); i++) {
         rel_race_spin(i % 211 + 1);
         WS_STOP;
         WS_START;
      }
      return 0;
   }
   if (strcmp(m, "tau") && strcmp(m, "toggle") && strcmp(m, "status")) {
      fprintf(stderr, "rel_race: bad mode '%s'\n", m);
      return 2;
   }
   for (i = 0; i < n; i++) {
      rel_race_spin(i % 211 + 1);
      if (!strcmp(m, "tau"))
         VALGRIND_MONITOR_COMMAND(i % 2 ? "ws set tau 1000"
                                        : "ws set tau 700");
      else if (!strcmp(m, "toggle")) {
         WS_STOP;
         WS_START;
      } else
         VALGRIND_MONITOR_COMMAND("ws status");
   }
   return 0;
}

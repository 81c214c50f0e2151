/* toggle.c -- measurement started and stopped many times (client requests).
 *
 * Usage: toggle PAIRS
 *
 * Makes PAIRS pairs of WS_START / WS_STOP, with a few stores to four
 * pages inside each region and outside it, then exits.  Run under ws with
 * --ws-instr-atstart=no, every WS_START starts measurement and every
 * WS_STOP stops it (with its final sample); bench/toggle_cost.py takes
 * the CPU time of PAIRS = 0 from that of PAIRS = N to give the cost of
 * one pair.  Without Valgrind the macros cost a few instructions.
 */
#include <stdio.h>
#include <stdlib.h>
#include <valgrind/ws.h>

#define PAGES 4

static volatile unsigned char buf[PAGES * 4096];

int main(int argc, char **argv)
{
    unsigned long pairs = argc > 1 ? strtoul(argv[1], NULL, 0) : 1000;
    unsigned long sum = 0;
    for (unsigned long n = 0; n < pairs; n++) {
        WS_START;
        for (int p = 0; p < PAGES; p++)
            buf[p * 4096 + n % 64] += (unsigned char)n;
        WS_STOP;
        for (int p = 0; p < PAGES; p++)
            sum += buf[p * 4096 + (n + 1) % 64];
    }
    printf("pairs=%lu sum=%lu\n", pairs, sum);
    return 0;
}

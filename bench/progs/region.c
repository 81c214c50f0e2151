/* region.c -- a long run with a tiny measured region (client requests).
 *
 * Usage: region [WORK]
 *
 * Does the same kind of work as scale.c (WORK passes over a 16 KiB
 * buffer) with measurement off, and brackets a tiny region -- a few
 * passes over 16 pages -- with WS_MARK("tiny") / WS_START / WS_STOP.
 * Run under ws with --ws-instr-atstart=no, the cost of ws should be
 * close to --tool=none, since almost nothing is measured.  Without
 * Valgrind the macros cost a few instructions.
 */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <valgrind/ws.h>

#define BUF_WORDS (16384 / sizeof(uint64_t))
#define TINY_BYTES (16 * 4096)

static uint64_t buf[BUF_WORDS];
static unsigned char tiny[TINY_BYTES];

static uint64_t work_loop(unsigned long work)
{
    uint64_t sum = 0;
    for (unsigned long w = 0; w < work; w++)
        for (unsigned long i = 0; i < BUF_WORDS; i++) {
            uint64_t x = buf[i] ^ (buf[(i * 7 + w) % BUF_WORDS] >> 3);
            buf[i] = x * 3 + w;
            sum += x;
        }
    return sum;
}

int main(int argc, char **argv)
{
    unsigned long work = argc > 1 ? strtoul(argv[1], NULL, 0) : 20000;
    uint64_t sum = 0;
    for (unsigned long i = 0; i < BUF_WORDS; i++)
        buf[i] = i * 0x9E3779B97F4A7C15ULL;

    sum += work_loop(work / 2);

    WS_MARK("tiny");
    WS_START;
    for (int pass = 0; pass < 4; pass++)
        for (unsigned long i = 0; i < TINY_BYTES; i += 64) {
            tiny[i] += (unsigned char)(i + pass);
            sum += tiny[i];
        }
    WS_STOP;

    sum += work_loop(work - work / 2);
    printf("checksum=%llu\n", (unsigned long long)sum);
    return 0;
}

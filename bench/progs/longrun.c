/* longrun.c -- the same work once or MULT times, for memory flatness.
 *
 * Usage: longrun MULT [BASE]
 *
 * Runs MULT * BASE rounds (BASE default 200).  Each round:
 *   - walks a 256 KiB window that slides through a 16 MiB buffer, so the
 *     data working set keeps moving and the tool takes many samples with
 *     different contents;
 *   - mallocs and frees a few blocks of varied size (heap churn, which a
 *     tool following malloc/free must not remember forever);
 *   - mmaps, touches and munmaps a 128 KiB region (pages that disappear
 *     and come back, usually at the same address).
 * The footprint of the program is the same for every MULT, so a tool
 * that streams its samples and forgets what is gone has the same peak
 * RSS for MULT = 1 and MULT = 10.
 */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#define BIG (16UL << 20)
#define WINDOW (256UL << 10)
#define MAPSZ (128UL << 10)

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s MULT [BASE]\n", argv[0]);
        return 2;
    }
    unsigned long mult = strtoul(argv[1], NULL, 0);
    unsigned long base = argc > 2 ? strtoul(argv[2], NULL, 0) : 200;
    unsigned long rounds = mult * base;

    unsigned char *big = malloc(BIG);
    if (!big)
        return 1;
    memset(big, 1, BIG);

    uint64_t sum = 0, rng = 12345;
    for (unsigned long r = 0; r < rounds; r++) {
        /* sliding window: the window start advances 64 KiB per round */
        unsigned long start = (r * (64UL << 10)) % (BIG - WINDOW);
        for (int pass = 0; pass < 4; pass++)
            for (unsigned long i = start; i < start + WINDOW; i += 64) {
                big[i] += (unsigned char)(i >> 6) + pass;
                sum += big[i];
            }

        /* heap churn */
        void *blocks[8];
        for (int b = 0; b < 8; b++) {
            rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
            size_t sz = 16 + (rng >> 33) % (b < 6 ? 4096 : 262144);
            blocks[b] = malloc(sz);
            if (!blocks[b])
                return 1;
            memset(blocks[b], b, sz < 4096 ? sz : 4096);
        }
        for (int b = 0; b < 8; b++) {
            sum += ((unsigned char *)blocks[b])[0];
            free(blocks[b]);
        }

        /* mapping churn */
        unsigned char *m = mmap(NULL, MAPSZ, PROT_READ | PROT_WRITE,
                                MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED) {
            perror("mmap");
            return 1;
        }
        for (unsigned long i = 0; i < MAPSZ; i += 4096)
            m[i] = (unsigned char)r;
        sum += m[MAPSZ - 4096];
        munmap(m, MAPSZ);
    }
    free(big);
    printf("rounds=%lu checksum=%llu\n", rounds, (unsigned long long)sum);
    return 0;
}

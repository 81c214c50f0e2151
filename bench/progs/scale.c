/* scale.c -- touch N pages once, then loop over a small buffer.
 *
 * Usage: scale NPAGES [WORK]
 *
 * Phase 1 writes one byte in each of NPAGES fresh 4 KiB pages (an
 * anonymous mapping), so the tool has seen NPAGES distinct data pages.
 * Phase 2 does a fixed amount of work (WORK passes, default 250000) over
 * a 16 KiB buffer, so the working set stays tiny while the number of
 * pages ever touched is NPAGES.  A working-set tool whose per-sample
 * cost depends only on the window, not on every page ever touched,
 * takes about the same time for NPAGES = 1024 and NPAGES = 262144.
 *
 * Prints the checksum and the time spent in each phase (measured by the
 * program itself, so the harness can show the loop phase on its own).
 */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <time.h>
#include <sys/mman.h>

#define PAGE 4096UL
#define BUF_WORDS (16384 / sizeof(uint64_t))

static uint64_t buf[BUF_WORDS];

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s NPAGES [WORK]\n", argv[0]);
        return 2;
    }
    unsigned long npages = strtoul(argv[1], NULL, 0);
    unsigned long work = argc > 2 ? strtoul(argv[2], NULL, 0) : 250000;

    double t0 = now();
    unsigned char *p = mmap(NULL, npages * PAGE, PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        perror("mmap");
        return 1;
    }
    /* Transparent huge pages (where the kernel allows them) make the
     * kernel's share of phase 1 -- faulting in and zeroing up to 1 GiB --
     * small next to phase 2.  The program still writes one byte in every
     * 4 KiB page, which is what a tool sees. */
#ifdef MADV_HUGEPAGE
    madvise(p, npages * PAGE, MADV_HUGEPAGE);
#endif
    for (unsigned long i = 0; i < npages; i++)
        p[i * PAGE] = (unsigned char)i;

    double t1 = now();
    uint64_t sum = 0;
    for (unsigned long i = 0; i < BUF_WORDS; i++)
        buf[i] = i * 0x9E3779B97F4A7C15ULL;
    for (unsigned long w = 0; w < work; w++) {
        for (unsigned long i = 0; i < BUF_WORDS; i++) {
            uint64_t x = buf[i] ^ (buf[(i * 7 + w) % BUF_WORDS] >> 3);
            buf[i] = x * 3 + w;
            sum += x;
        }
    }
    double t2 = now();

    /* read the touched pages back once so phase 1 cannot be optimised away */
    for (unsigned long i = 0; i < npages; i += 97)
        sum += p[i * PAGE];
    munmap(p, npages * PAGE);

    printf("checksum=%llu\n", (unsigned long long)sum);
    printf("touch_seconds=%.6f\n", t1 - t0);
    printf("loop_seconds=%.6f\n", t2 - t1);
    return 0;
}

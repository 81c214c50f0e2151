/* sparse.c -- touch 4 GiB of address space sparsely.
 *
 * Usage: sparse [GIB] [PASSES]
 *
 * Reserves GIB GiB (default 4) with MAP_NORESERVE and writes one byte
 * every 3 MiB + 64 bytes (so the touched bytes fall at different offsets
 * within pages and cache lines), plus the very last byte; then reads
 * them back PASSES times (default 20).  Only a few thousand pages are
 * ever resident.  The point is that a tool whose page table covers the
 * whole address range, or that sizes something by the span of touched
 * addresses, runs out of memory or time here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <sys/mman.h>

#define STRIDE ((3UL << 20) + 64)

int main(int argc, char **argv)
{
    unsigned long gib = argc > 1 ? strtoul(argv[1], NULL, 0) : 4;
    unsigned long passes = argc > 2 ? strtoul(argv[2], NULL, 0) : 20;
    size_t len = gib << 30;

    unsigned char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
        perror("mmap");
        return 1;
    }
    unsigned long n = 0;
    for (size_t off = 0; off < len; off += STRIDE, n++)
        p[off] = (unsigned char)(off >> 20);
    p[len - 1] = 0x5a;

    uint64_t sum = 0;
    for (unsigned long pass = 0; pass < passes; pass++)
        for (size_t off = 0; off < len; off += STRIDE)
            sum += p[off] + pass;
    sum += p[len - 1];
    munmap(p, len);

    printf("span=%luGiB touched=%lu checksum=%llu\n", gib, n + 1,
           (unsigned long long)sum);
    return 0;
}

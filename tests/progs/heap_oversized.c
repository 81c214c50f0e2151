/* heap_oversized.c: buffers far larger than what the program puts in
   them, the first case of "heap usage that is right for small objects":
   200,000 chunks of 256 bytes from one allocation site, of which the
   program writes the first 16 bytes (two 8-byte stores) and reads none.
   All are live at once, then freed in allocation order; a line on stdout
   at the end gives stdio its buffer (a small site of the C library's).

   The Memoro paper's answers for the site of site_oversized()
   (../shared/ws-interface.md sections 6 and 9; tests/memoro_model.py):
     chunks 200000, bytes 51200000, peak-live 51200000
     never 0, read-only 0, write-only 200000
     touched 3200000 (16 bytes of each), interval 3200000 (bytes 0..15)
     usage 0.000: no chunk is ever read, so the Useless function makes
       each chunk's accessed bytes count 0
     score 0.000 (a geometric mean with usage 0)
   It is the worst site by (1 - score) x bytes, far ahead of stdio's.

   At cache-line resolution: glibc puts these chunks 272 bytes apart,
   16-byte aligned, so bytes 0..15 of a chunk lie in one 64-byte line, of
   which the chunk holds 64 - (start mod 64) bytes: touched is 16 to 64
   bytes a chunk, and usage still 0.000 (never read); each chunk holds
   three or four lines of its own.

   DHAT (tests/dhat_oracle.py) on the same site: 200000 blocks,
   51200000 bytes, max 51200000, 0 bytes read, 3200000 written, and the
   access histogram (one size, at most 1,024 bytes): offsets 0..15
   accessed 200000 times each (written modulo 65,536: 3392), 16..255
   never.

   ws before this: usage 1.000 at 4 KiB pages (0.203 at 64 bytes), and
   stdio's buffer first among the sites worst by bytes never touched. */

#include <stdio.h>
#include <stdlib.h>

#define CHUNKS 200000
#define SIZE 256

static long* chunk[CHUNKS];

__attribute__((noinline)) static long* site_oversized(long i)
{
   long* p = malloc(SIZE);
   if (p == NULL)
      abort();
   p[0] = i;
   p[1] = i;
   return p;
}

int main(void)
{
   long i;
   for (i = 0; i < CHUNKS; i++)
      chunk[i] = site_oversized(i);
   for (i = 0; i < CHUNKS; i++)
      free(chunk[i]);
   printf("%d chunks of %d bytes\n", CHUNKS, SIZE);
   return 0;
}

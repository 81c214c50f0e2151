/* spike: a small server loop with one expensive request, the same kind
   of spike as docs/example.md's demo/reindex.cc, in C and without the
   C++ library's frames (handy for a first look at a peak's stack).

   Most requests look a key up in a 64-page table.  Request 60 rebuilds
   an index over the whole data set instead: a 16 MiB heap block, filled
   once and searched 30 times, then freed.  Under ws the data working set is flat
   at a few dozen pages except for that request, and the output file
   alone says which function, which line and which allocation made the
   spike. */

#include <stdlib.h>
#include <string.h>

#define TABLE_BYTES (64 * 4096)
#define INDEX_BYTES (16 << 20)
#define REQUESTS    120

static unsigned char table[TABLE_BYTES];

static unsigned long lookup(unsigned key)
{
   unsigned long sum = 0;
   for (unsigned i = 0; i < 4000; i++)
      sum += table[(key * 2654435761u + i * 64) % TABLE_BYTES];
   return sum;
}

static unsigned long rebuild_index(void)
{
   unsigned char *index = malloc(INDEX_BYTES);        /* the spike */
   unsigned long sum = 0;
   if (index == NULL)
      return 0;
   for (unsigned long i = 0; i < INDEX_BYTES; i += 64)
      index[i] = (unsigned char)(i >> 6);
   for (unsigned pass = 0; pass < 30; pass++)          /* searches */
      for (unsigned long i = 0; i < INDEX_BYTES; i += 4096)
         sum += index[i];
   free(index);
   return sum;
}

static unsigned long handle_request(unsigned n)
{
   if (n == REQUESTS / 2)
      return rebuild_index();                          /* request 60 */
   return lookup(n);
}

int main(void)
{
   unsigned long sum = 0;
   memset(table, 1, sizeof table);
   for (unsigned n = 0; n < REQUESTS; n++)
      sum += handle_request(n);
   return sum == 42;       /* use the result; exit status 0 */
}

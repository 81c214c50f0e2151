/* heap_small.c: thousands of small chunks (16 to 200 bytes) from a few
   allocation sites, interleaved so that they share pages, each used in
   its own way; every allocation and free noted for the oracle
   (heaplog.h, tests/heap_oracle.py).

   Sites (the site number is in the log; each is a function of its own,
   so that ws gives each its own allocating stack):
     1 site_node       48-byte list nodes, written, read on two walks
     2 site_string     16..200 bytes, written whole, read in part
     3 site_oversized  200 bytes of which 16 are written and read
     4 site_written    64 bytes written, never read
     5 site_unused     32 bytes never touched
     6 site_kept       24 bytes written and read, still live at exit */

#include <stdlib.h>
#include <string.h>

#include "heaplog.h"

HEAPLOG_DEFINE;

/* malloc and free, noted (heaplog.h). */
static void* get(unsigned long n, long site)
{
   void* p;
   heaplog_note(NULL, n, HEAPLOG_CALL, site);
   p = malloc(n);
   heaplog_note(p, n, HEAPLOG_ALLOC, site);
   return p;
}

static void release(void* p, long site)
{
   heaplog_note(p, 0, HEAPLOG_FREE, site);
   free(p);
   heaplog_note(p, 0, HEAPLOG_BACK, site);
}

#define NODES 1000

struct node {
   struct node* next;
   long         value[5];
};

static unsigned long seed = 12345;

static unsigned long rnd(unsigned long n)
{
   seed = seed * 6364136223846793005UL + 1442695040888963407UL;
   return (seed >> 33) % n;
}

__attribute__((noinline)) static struct node* site_node(long v)
{
   struct node* n = get(sizeof *n, 1);
   n->next = NULL;
   for (int i = 0; i < 5; i++)
      n->value[i] = v + i;
   return n;
}

__attribute__((noinline)) static char* site_string(unsigned long len)
{
   char* s = get(len, 2);
   for (unsigned long i = 0; i < len; i++)
      s[i] = (char)('a' + i % 26);
   return s;
}

__attribute__((noinline)) static char* site_oversized(void)
{
   char* s = get(200, 3);
   memset(s, 1, 16);
   return s;
}

__attribute__((noinline)) static long* site_written(void)
{
   long* p = get(64, 4);
   for (int i = 0; i < 8; i++)
      p[i] = i;
   return p;
}

__attribute__((noinline)) static void* site_unused(void)
{
   void* p = get(32, 5);
   return p;
}

__attribute__((noinline)) static long* site_kept(void)
{
   long* p = get(24, 6);
   p[0] = p[1] = p[2] = 7;
   return p;
}

int main(void)
{
   static struct node* nodes[NODES];
   static char* strings[750];
   static char* big[500];
   static long* written[250];
   static void* unused[150];
   static long* kept[100];
   struct node* head = NULL;
   long sum = 0;
   int i;

   /* allocate, interleaved */
   for (i = 0; i < NODES; i++) {
      nodes[i] = site_node(i);
      nodes[i]->next = head;
      head = nodes[i];
      if (i < 750)
         strings[i] = site_string(16 + rnd(185));
      if (i < 500)
         big[i] = site_oversized();
      if (i < 250)
         written[i] = site_written();
      if (i < 150)
         unused[i] = site_unused();
      if (i < 100)
         kept[i] = site_kept();
   }
   /* use: two walks of the list, the strings' first bytes, the
      oversized buffers' 16 bytes, the kept chunks */
   for (int walk = 0; walk < 2; walk++)
      for (struct node* n = head; n; n = n->next)
         sum += n->value[walk];
   for (i = 0; i < 750; i++)
      sum += strings[i][0] + strings[i][7];
   for (i = 0; i < 500; i++)
      sum += big[i][3] + big[i][15];
   for (i = 0; i < 100; i++)
      sum += kept[i][2];
   /* free in a scrambled order, sites interleaved */
   for (i = 0; i < NODES; i++) {
      int j = (int)((i * 7919L) % NODES);
      release(nodes[j], 1);
      if (i < 750)
         release(strings[(i * 31L) % 750], 2);
      if (i < 500)
         release(big[(i * 17L) % 500], 3);
      if (i < 250)
         release(written[i], 4);
      if (i < 150)
         release(unused[149 - i], 5);
   }
   heaplog_print();
   return sum == 42;
}

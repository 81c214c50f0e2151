/* heaplog.h: the allocation log of the small-chunk programs of
   tests/test_heap_usage.py (heap_small.c, heap_small_cc.cc), from which
   tests/heap_oracle.py rebuilds every chunk's life out of a lackey trace.

   The program notes, in a global array, each call of the allocator
   (HEAPLOG_CALL before malloc or new, HEAPLOG_ALLOC after it returns,
   HEAPLOG_FREE before free or delete, HEAPLOG_BACK after it returns):
   the first store to an entry is what marks the moment in lackey's trace
   (lackey does not show values), and at exit the program prints the
   array so that the oracle knows what each entry said:

       heaplog <address of the array> <entry size> <entries>
       <i> call|alloc|free|back <ptr> <size> <site>

   every number in hexadecimal with 0x (shifts are cheap at -O0, where
   divisions by ten would be most of the program's instructions).

   Nothing between an allocation's return and its note, or between a
   free's note and its call, touches the heap; what the allocator itself
   touches lies between a call and its alloc, or a free and its back. */

#ifndef HEAPLOG_H
#define HEAPLOG_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HEAPLOG_MAX 40000

enum { HEAPLOG_ALLOC = 1, HEAPLOG_FREE = 2, HEAPLOG_CALL = 3,
       HEAPLOG_BACK = 4 };

struct heaplog_entry {
   unsigned long ptr;          /* written first: marks the moment */
   unsigned long size;
   long          kind;
   long          site;
};

#ifdef __cplusplus
extern "C" {
#endif
extern struct heaplog_entry heaplog[HEAPLOG_MAX];
extern long heaplog_n;
#ifdef __cplusplus
}
#endif

static inline void heaplog_note(void* p, unsigned long size, long kind,
                                long site)
{
   struct heaplog_entry* e;
   if (heaplog_n == HEAPLOG_MAX)
      abort();
   e = &heaplog[heaplog_n++];
   e->ptr = (unsigned long)p;
   e->size = size;
   e->kind = kind;
   e->site = site;
}

/* Appends v in hexadecimal, with 0x, to p. */
static inline char* heaplog_hex(char* p, unsigned long v)
{
   int shift = 60;
   *p++ = '0';
   *p++ = 'x';
   while (shift > 0 && (v >> shift) == 0)
      shift -= 4;
   for (; shift >= 0; shift -= 4)
      *p++ = "0123456789abcdef"[(v >> shift) & 15];
   return p;
}

/* The log, at exit, with one write(): printf would cost a thousand
   instructions a line, most of the program's. */
static inline void heaplog_print(void)
{
   static char buf[HEAPLOG_MAX * 80 + 80];
   char* p = buf;
   long i;
   memcpy(p, "heaplog ", 8);
   p = heaplog_hex(p + 8, (unsigned long)heaplog);
   *p++ = ' ';
   p = heaplog_hex(p, sizeof heaplog[0]);
   *p++ = ' ';
   p = heaplog_hex(p, (unsigned long)heaplog_n);
   *p++ = '\n';
   for (i = 0; i < heaplog_n; i++) {
      p = heaplog_hex(p, (unsigned long)i);
      static const char* const words[] = { "", " alloc ", " free ",
                                           " call ", " back " };
      const char* w = words[heaplog[i].kind];
      memcpy(p, w, strlen(w));
      p = heaplog_hex(p + strlen(w), heaplog[i].ptr);
      *p++ = ' ';
      p = heaplog_hex(p, heaplog[i].size);
      *p++ = ' ';
      p = heaplog_hex(p, (unsigned long)heaplog[i].site);
      *p++ = '\n';
   }
   fflush(stdout);
   if (write(1, buf, (size_t)(p - buf)) != p - buf)
      abort();
}

/* Defines the array, in one source file. */
#define HEAPLOG_DEFINE                                     \
   struct heaplog_entry heaplog[HEAPLOG_MAX];              \
   long heaplog_n

#endif

/* heap_offsets.c: allocation sites whose accesses are known byte by
   byte, for the cross-check against DHAT (tests/dhat_oracle.py).  DHAT
   keeps a count per byte offset for a site whose blocks all have one
   size of at most 1,024 bytes; each site here has one size (but E,
   which mixes two, and D, just over the limit), and accesses each chunk
   at the same offsets, by single 8-byte or 1-byte loads and stores.
   Every chunk is allocated first (so the heap only grows: DHAT's "max"
   of a site is then its peak), then accessed, then freed.

     A  100 x aligned_alloc(64, 256): bytes 0..15 written (two 8-byte
        stores), 64..71 read twice, 200 written (a byte)
     B   50 x malloc(24): bytes 0..23 written (three stores), 0..7 read
     C   20 x malloc(1024): never touched
     D   10 x malloc(1025): bytes 0 and 1024 written
     E    2 x malloc(16) and 2 x malloc(32), in turn, from one site:
          bytes 0..7 written
     F    5 x malloc(0)

   Per site: chunks, bytes and peak-live as allocated (F: 0 bytes; DHAT
   counts a block of 0 bytes as 1 byte).  DHAT's counts per offset, the
   accessed offsets and their 64-byte lines:
     A  offsets 0..15: 100 each, 64..71: 200, 200: 100, the rest 0;
        1600 bytes read, 1700 written; each chunk touched at bytes
        {0..15, 64..71, 200}: 25 bytes, interval 0..200 (201 bytes);
        64-byte aligned, so at line resolution its lines 0, 1 and 3:
        192 bytes a chunk, 19200 in all
     B  offsets 0..7: 100 each, 8..23: 50; 400 read, 1200 written;
        touched 24 bytes a chunk, interval 24 (its lines depend on
        where glibc puts it: 16-byte aligned)
     C  1024 zeros; 0 read, 0 written; never 20
     D  no histogram (over 1,024 bytes); 20 bytes written
     E  no histogram (two sizes); 32 bytes written
     F  histogram [0] (one block size, 1 to DHAT); nothing accessed */

#include <stdio.h>
#include <stdlib.h>

#define A_N 100
#define B_N 50
#define C_N 20
#define D_N 10
#define E_N 4
#define F_N 5

static char* a[A_N];
static char* b[B_N];
static char* c[C_N];
static char* d[D_N];
static char* e[E_N];
static char* f[F_N];

static char* checked(void* p)
{
   if (p == NULL)
      abort();
   return p;
}

__attribute__((noinline)) static char* site_a(void)
{
   return checked(aligned_alloc(64, 256));
}

__attribute__((noinline)) static char* site_b(void)
{
   return checked(malloc(24));
}

__attribute__((noinline)) static char* site_c(void)
{
   return checked(malloc(1024));
}

__attribute__((noinline)) static char* site_d(void)
{
   return checked(malloc(1025));
}

__attribute__((noinline)) static char* site_e(size_t size)
{
   return checked(malloc(size));
}

/* malloc(0) may return NULL; glibc's does not. */
__attribute__((noinline)) static char* site_f(void)
{
   return checked(malloc(0));
}

static void store8(char* p, long v)
{
   *(volatile long*)p = v;
}

/* What the loads read: A's bytes 64..71 were never written. */
static volatile long sink;

static void load8(const char* p)
{
   sink = *(const volatile long*)p;
}

int main(void)
{
   long i;
   for (i = 0; i < A_N; i++)
      a[i] = site_a();
   for (i = 0; i < B_N; i++)
      b[i] = site_b();
   for (i = 0; i < C_N; i++)
      c[i] = site_c();
   for (i = 0; i < D_N; i++)
      d[i] = site_d();
   for (i = 0; i < E_N; i++)
      e[i] = site_e(i % 2 ? 32 : 16);
   for (i = 0; i < F_N; i++)
      f[i] = site_f();

   for (i = 0; i < A_N; i++) {
      store8(a[i], i);
      store8(a[i] + 8, i);
      load8(a[i] + 64);
      load8(a[i] + 64);
      *(volatile char*)(a[i] + 200) = 1;
   }
   for (i = 0; i < B_N; i++) {
      store8(b[i], i);
      store8(b[i] + 8, i);
      store8(b[i] + 16, i);
      load8(b[i]);
   }
   for (i = 0; i < D_N; i++) {
      *(volatile char*)d[i] = 1;
      *(volatile char*)(d[i] + 1024) = 1;
   }
   for (i = 0; i < E_N; i++)
      store8(e[i], i);

   for (i = 0; i < A_N; i++)
      free(a[i]);
   for (i = 0; i < B_N; i++)
      free(b[i]);
   for (i = 0; i < C_N; i++)
      free(c[i]);
   for (i = 0; i < D_N; i++)
      free(d[i]);
   for (i = 0; i < E_N; i++)
      free(e[i]);
   for (i = 0; i < F_N; i++)
      free(f[i]);
   puts("6 sites");
   return 0;
}

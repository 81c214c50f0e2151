/* reps: rep-prefixed string instructions of known iteration counts, for
   --ws-count-rep (tests/test_oracle.py, tests/test_known.py).

   usage: reps N ROUNDS        (N a multiple of 16, at least 16)

   Each round executes, on buffers of N bytes (fresh pages, mapped once):

     rep stosb      N iterations
     rep movsb      N iterations
     rep stosq      N/8 iterations
     repe cmpsb     N iterations over two equal buffers (runs to the end)
     repne scasb    stops at the byte it looks for, at offset N/2:
                    N/2 + 1 iterations
     rep stosb      with a count of 0: no iteration

   Valgrind runs each iteration as one execution of the instruction and
   tests the count once more before the first: a rep instruction whose
   count is c executes its IR c + 1 times when it runs to the end (the
   last test finds c = 0), and k times when a condition stops it at
   iteration k.  So --ws-count-rep=each (and lackey) counts, per round,
   (N+1) + (N+1) + (N/8+1) + (N+1) + (N/2+1) + 1 instructions for these
   six, and --ws-count-rep=once counts 6: the difference is
   3N + N/8 + N/2 per round. */

#include "wsprog.h"

static void rep_stosb(char *dst, long n, int c)
{
   __asm__ volatile("rep stosb" : "+D"(dst), "+c"(n) : "a"(c) : "memory");
}

static void rep_movsb(char *dst, const char *src, long n)
{
   __asm__ volatile("rep movsb" : "+D"(dst), "+S"(src), "+c"(n)
                    : : "memory");
}

static void rep_stosq(char *dst, long qwords, long v)
{
   __asm__ volatile("rep stosq" : "+D"(dst), "+c"(qwords) : "a"(v)
                    : "memory");
}

/* How many bytes were left to compare when repe cmpsb stopped. */
static long repe_cmpsb(const char *a, const char *b, long n)
{
   __asm__ volatile("repe cmpsb" : "+S"(a), "+D"(b), "+c"(n) : : "memory",
                    "cc");
   return n;
}

static long repne_scasb(const char *s, long n, int c)
{
   __asm__ volatile("repne scasb" : "+D"(s), "+c"(n) : "a"(c) : "memory",
                    "cc");
   return n;
}

int main(int argc, char **argv)
{
   if (argc != 3) {
      fprintf(stderr, "usage: reps N ROUNDS\n");
      return 2;
   }
   long n = ws_arg(argv[1], "N"), rounds = ws_arg(argv[2], "ROUNDS");
   if (n < 16 || n % 16 != 0) {
      fprintf(stderr, "reps: N must be a multiple of 16\n");
      return 2;
   }
   char *a = ws_map(n), *b = ws_map(n);
   for (long r = 0; r < rounds; r++) {
      rep_stosb(a, n, 'x');
      rep_movsb(b, a, n);
      rep_stosq(a, n / 8, 0x7878787878787878L);
      if (repe_cmpsb(a, b, n) != 0)
         return 1;
      a[n / 2] = 'y';
      if (repne_scasb(a, n, 'y') != n - n / 2 - 1)
         return 1;
      rep_stosb(a, 0, 'z');
   }
   return 0;
}

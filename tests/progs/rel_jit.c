/* rel_jit: code that is written at run time, rewritten, made
   non-executable and back, and code of the program's own text made
   writable and changed.  For --smc-check=all.

   usage: rel_jit K1 K2

   Each phase is bracketed by WS_MARK("<phase>") and WS_MARK("end"), so
   that a test knows which samples have windows lying inside it.  The
   generated code is a chain of blocks, one at the start of each of its
   pages: a spin loop of DELAY turns, an add of a constant to %eax, and
   a jump to the next page; the last page's block repeats the chain
   (rounds in %rdi) and returns.  It touches no memory, so a window
   inside a phase that runs a chain of k pages holds exactly those k
   instruction pages and no data page.  Pages are 4096 bytes.

     jit1   an RWX mapping A of 8 pages; chain on pages 0 .. K1-1
     jit2   A rewritten in place (still RWX, no mprotect): pages 0 and 1
            filled with int3 (a stale translation would trap), chain on
            pages 2 .. 2+K2-1 (K1 >= 3 makes page 2 code of both)
     rx1    a mapping B of 8 pages written while RW, then made RX; chain
            on pages 0 .. 1
     rx2    B made PROT_READ (not executable), then RX again: the same
            chain run again
     rx3    B made RW, rewritten with a chain on pages 3 .. 7 (page 0
            filled with int3), made RX
     text   the page of rel_jit_touch (a WS_LOOP of this program's own
            text, alone on its page) made RWX; the loop writes 1 to each
            of 20 pages; its immediate is patched to 2 and it runs again;
            the page is made RX again
     smc    code that rewrites code: a loop on A's page 0 stores the
            counter into the immediate of "add $imm, %eax; ret" on A's
            page 1 and calls it, SMC_N times (sum 1 .. SMC_N)

   Prints one line per phase with the values the code returned (sums
   that only the right code gives), so that runs under ws and under
   --tool=none can be compared.  Exit status 0; 2 on bad arguments; 3
   if a value is wrong. */

#include <stdint.h>
#include <unistd.h>

#include <valgrind/ws.h>

#include "wsprog.h"

WS_LOOP(rel_jit_touch, "movb $1, (%rdi)");

#define PAGE    4096
#define DELAY   40
#define ROUNDS  1000       /* chain rounds per call */
#define CALLS   2
#define SMC_N   20000

typedef long (*chain_fn)(long rounds);

static int bad;

/* Writes a chain over pages first .. first+k-1 of buf; returns its
   entry.  Block i adds 1000 + i. */
static chain_fn write_chain(unsigned char *buf, int first, int k)
{
   unsigned char *entry = buf + first * PAGE;
   int i;
   for (i = 0; i < k; i++) {
      unsigned char *p = buf + (first + i) * PAGE;
      if (i == 0) {
         *p++ = 0x31; *p++ = 0xc0;                  /* xor %eax,%eax */
      }
      unsigned char *top = p;
      *p++ = 0xb9;                                  /* mov $DELAY,%ecx */
      *(int32_t *)p = DELAY; p += 4;
      *p++ = 0xff; *p++ = 0xc9;                     /* 1: dec %ecx */
      *p++ = 0x75; *p++ = 0xfc;                     /* jnz 1b */
      *p++ = 0x05;                                  /* add $v,%eax */
      *(int32_t *)p = 1000 + i; p += 4;
      if (i < k - 1) {
         unsigned char *next = buf + (first + i + 1) * PAGE;
         *p++ = 0xe9;                               /* jmp next page */
         *(int32_t *)p = (int32_t)(next - (p + 4)); p += 4;
      } else {
         unsigned char *loop = entry + 2;           /* after the xor */
         *p++ = 0x48; *p++ = 0xff; *p++ = 0xcf;     /* dec %rdi */
         *p++ = 0x0f; *p++ = 0x85;                  /* jnz loop */
         *(int32_t *)p = (int32_t)(loop - (p + 4)); p += 4;
         *p++ = 0xc3;                               /* ret */
      }
      (void)top;
   }
   return (chain_fn)(void *)entry;
}

/* What a chain of k blocks returns after `rounds` rounds (32 bits). */
static long chain_value(int k, long rounds)
{
   long per = 0;
   int i;
   for (i = 0; i < k; i++)
      per += 1000 + i;
   return (long)(uint32_t)(per * rounds);
}

static void run_chain(const char *phase, chain_fn f, int k)
{
   long sum = 0, want = 0;
   int c;
   WS_MARK(phase);
   for (c = 0; c < CALLS; c++) {
      sum += f(ROUNDS);
      want += chain_value(k, ROUNDS);
   }
   WS_MARK("end");
   printf("%s %d pages %ld\n", phase, k, sum);
   if (sum != want) {
      printf("%s: wrong value, expected %ld\n", phase, want);
      bad = 1;
   }
}

static unsigned char *map(int prot)
{
   void *p = mmap(NULL, 8 * PAGE, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
   if (p == MAP_FAILED) {
      perror("mmap");
      exit(2);
   }
   return p;
}

static void protect(void *p, size_t len, int prot)
{
   if (mprotect(p, len, prot) != 0) {
      perror("mprotect");
      exit(2);
   }
}

static void text_phase(void)
{
   unsigned char *code = (unsigned char *)(uintptr_t)rel_jit_touch;
   unsigned char *page = (unsigned char *)((uintptr_t)code & ~(uintptr_t)(PAGE - 1));
   char *data = ws_map(20 * PAGE);
   unsigned char *imm = NULL;
   int i, ones = 0, twos = 0;
   for (i = 0; i < 64; i++)
      if (code[i] == 0xc6 && code[i + 1] == 0x07 && code[i + 2] == 0x01) {
         imm = code + i + 2;                /* movb $1, (%rdi) */
         break;
      }
   if (imm == NULL) {
      printf("text: movb $1,(%%rdi) not found\n");
      exit(3);
   }
   protect(page, PAGE, PROT_READ | PROT_WRITE | PROT_EXEC);
   WS_MARK("text");
   rel_jit_touch(data, 20, PAGE, DELAY, 60);
   WS_MARK("end");
   for (i = 0; i < 20; i++)
      ones += data[i * PAGE] == 1;
   *imm = 2;                                /* now movb $2, (%rdi) */
   WS_MARK("text2");
   rel_jit_touch(data, 20, PAGE, DELAY, 60);
   WS_MARK("end");
   for (i = 0; i < 20; i++)
      twos += data[i * PAGE] == 2;
   *imm = 1;
   protect(page, PAGE, PROT_READ | PROT_EXEC);
   printf("text %d ones %d twos\n", ones, twos);
   if (ones != 20 || twos != 20)
      bad = 1;
}

/* On page 0 of buf: for (i = n; i; i--) { imm = i; eax += stub(); }
   with the stub "add $imm,%eax; ret" on page 1. */
static void smc_phase(unsigned char *buf)
{
   unsigned char *stub = buf + PAGE;
   unsigned char *p = buf;
   long (*f)(long, void *) = (long (*)(long, void *))(void *)buf;
   long sum, want = (long)SMC_N * (SMC_N + 1) / 2;
   memset(buf, 0xcc, 2 * PAGE);
   stub[0] = 0x05;                                /* add $0,%eax */
   *(int32_t *)(stub + 1) = 0;
   stub[5] = 0xc3;                                /* ret */
   /* The stub's address comes in %rsi, not as a constant: from a
      constant, VEX would follow the call into the stub within the same
      superblock, translated before the first store changed it (and
      --smc-check checks a superblock's code only on entry). */
   *p++ = 0x31; *p++ = 0xc0;                      /* xor %eax,%eax */
   *p++ = 0x49; *p++ = 0x89; *p++ = 0xf3;         /* mov %rsi,%r11 */
   *p++ = 0x4c; *p++ = 0x8d; *p++ = 0x56; *p++ = 0x01; /* lea 1(%rsi),%r10 */
   unsigned char *loop = p;
   *p++ = 0x41; *p++ = 0x89; *p++ = 0x3a;         /* 1: mov %edi,(%r10) */
   *p++ = 0x41; *p++ = 0xff; *p++ = 0xd3;         /* call *%r11 */
   *p++ = 0x48; *p++ = 0xff; *p++ = 0xcf;         /* dec %rdi */
   *p++ = 0x75;                                   /* jnz 1b */
   *p = (unsigned char)(loop - (p + 1)); p++;
   *p++ = 0xc3;                                   /* ret */
   WS_MARK("smc");
   sum = f(SMC_N, stub);
   WS_MARK("end");
   printf("smc %ld\n", sum);
   if (sum != want) {
      printf("smc: wrong value, expected %ld\n", want);
      bad = 1;
   }
}

int main(int argc, char **argv)
{
   if (argc != 3) {
      fprintf(stderr, "usage: rel_jit K1 K2\n");
      return 2;
   }
   int k1 = (int)ws_arg(argv[1], "K1"), k2 = (int)ws_arg(argv[2], "K2");
   if (k1 < 1 || k1 > 8 || k2 < 1 || k2 > 6) {
      fprintf(stderr, "rel_jit: K1 is 1 .. 8, K2 1 .. 6\n");
      return 2;
   }

   unsigned char *a = map(PROT_READ | PROT_WRITE | PROT_EXEC);
   run_chain("jit1", write_chain(a, 0, k1), k1);
   memset(a, 0xcc, (k1 < 2 ? k1 : 2) * PAGE);
   run_chain("jit2", write_chain(a, 2, k2), k2);

   unsigned char *b = map(PROT_READ | PROT_WRITE);
   chain_fn f = write_chain(b, 0, 2);
   protect(b, 8 * PAGE, PROT_READ | PROT_EXEC);
   run_chain("rx1", f, 2);
   protect(b, 8 * PAGE, PROT_READ);
   protect(b, 8 * PAGE, PROT_READ | PROT_EXEC);
   run_chain("rx2", f, 2);
   protect(b, 8 * PAGE, PROT_READ | PROT_WRITE);
   memset(b, 0xcc, PAGE);
   f = write_chain(b, 3, 5);
   protect(b, 8 * PAGE, PROT_READ | PROT_EXEC);
   run_chain("rx3", f, 5);

   text_phase();
   smc_phase(a);
   return bad ? 3 : 0;
}

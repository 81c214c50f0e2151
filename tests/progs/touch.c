/* touch: run phases of memory accesses whose working sets are known.

   usage: touch MAP_PAGES PHASE...
   PHASE: KIND,OFFSET,COUNT,STRIDE,DELAY,INSNS

   Maps MAP_PAGES pages of 4096 bytes (one anonymous mapping, never touched
   otherwise; its start is aligned to 2 MiB, so that page counts at
   --ws-pagesize=2097152 are known too), then for each phase in turn calls the loop of
   KIND (see wsprog.h) on base+OFFSET with COUNT elements STRIDE bytes
   apart, DELAY spins per element, and as many sweeps as take about INSNS
   instructions.  A window that lies inside one phase, and is longer than
   one sweep of it, therefore has exactly 1 instruction page (the loop's
   own page) and exactly the data pages reached by that phase's accesses;
   a window shorter than a sweep holds one data page per element it spans.

   KIND  access                      instructions A (see wsprog.h)
   st    movb $1,(%rdi)              1   one-byte store
   ld    movzbl (%rdi),%r11d         1   one-byte load
   rmw   addb $1,(%rdi)              1   read-modify-write
   atom  lock xaddl %r11d,(%rdi)     1   atomic read-modify-write
   st4   movl $1,(%rdi)              1   four-byte store (to straddle)
   fxs   fxsave (%rdi)               1   helper-implemented, writes 464+
                                         bytes (OFFSET and STRIDE must be
                                         multiples of 16)
   fld   fldt (%rdi); fstp %st(0)    2   helper-implemented 10-byte load
   pair  movb $1,(%rdi);             2   a byte at the element, then four
         movl $1,4094(%rdi)              bytes that straddle from the
                                         element's page into the next one
                                         (the first page is already in the
                                         working set when the straddling
                                         store comes)
   grp   movq (%rdi),%r11;           3   two 8-byte loads off one base
         movb $1,5000(%rdi);             with a store far beyond them
         addq 8(%rdi),%r11               in between: ws checks the loads
                                         as one 16-byte group, and the
                                         store on its own, so the group's
                                         second load is counted after the
                                         store's check was emitted; at an
                                         OFFSET 8 bytes before a page (or
                                         line) boundary the group crosses
                                         it, and the two loads count on
                                         the two pages, the store on a
                                         third

   Exit status 0, or 2 on bad arguments.  Prints nothing on success. */

#include "wsprog.h"

WS_LOOP(touch_st, "movb $1, (%rdi)");
WS_LOOP(touch_ld, "movzbl (%rdi), %r11d");
WS_LOOP(touch_rmw, "addb $1, (%rdi)");
WS_LOOP(touch_atom, "lock xaddl %r11d, (%rdi)");
WS_LOOP(touch_st4, "movl $1, (%rdi)");
WS_LOOP(touch_fxs, "fxsave (%rdi)");
WS_LOOP(touch_fld, "fldt (%rdi)\n   fstp %st(0)");
WS_LOOP(touch_pair, "movb $1, (%rdi)\n   movl $1, 4094(%rdi)");
WS_LOOP(touch_grp, "movq (%rdi), %r11\n   movb $1, 5000(%rdi)\n"
                   "   addq 8(%rdi), %r11");

typedef void loop_fn(char *, long, long, long, long);

static const struct kind {
   const char *name;
   loop_fn    *fn;
   long        a;          /* instructions in the access */
   long        reach;      /* bytes from the element its accesses reach */
} kinds[] = {
   { "st", touch_st, 1, 1 },     { "ld", touch_ld, 1, 1 },
   { "rmw", touch_rmw, 1, 1 },   { "atom", touch_atom, 1, 4 },
   { "st4", touch_st4, 1, 4 },   { "fxs", touch_fxs, 1, 512 },
   { "fld", touch_fld, 2, 10 },  { "pair", touch_pair, 2, 4098 },
   { "grp", touch_grp, 3, 5001 },
};

struct phase {
   const struct kind *kind;
   long offset, count, stride, delay, insns;
};

static void parse_phase(char *s, struct phase *ph)
{
   char *f[6];
   int n = 0;
   for (char *tok = strtok(s, ","); tok && n < 6; tok = strtok(NULL, ","))
      f[n++] = tok;
   if (n != 6 || strtok(NULL, ",")) {
      fprintf(stderr, "touch: a phase is KIND,OFFSET,COUNT,STRIDE,DELAY,INSNS\n");
      exit(2);
   }
   ph->kind = NULL;
   for (unsigned i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
      if (strcmp(f[0], kinds[i].name) == 0)
         ph->kind = &kinds[i];
   if (!ph->kind) {
      fprintf(stderr, "touch: unknown kind '%s'\n", f[0]);
      exit(2);
   }
   ph->offset = ws_arg(f[1], "offset");
   ph->count = ws_arg(f[2], "count");
   ph->stride = ws_arg(f[3], "stride");
   ph->delay = ws_arg(f[4], "delay");
   ph->insns = ws_arg(f[5], "insns");
   if (ph->count < 1 || ph->delay < 1) {
      fprintf(stderr, "touch: count and delay must be at least 1\n");
      exit(2);
   }
}

int main(int argc, char **argv)
{
   if (argc < 3) {
      fprintf(stderr, "usage: touch MAP_PAGES KIND,OFFSET,COUNT,STRIDE,DELAY,INSNS...\n");
      return 2;
   }
   long map_pages = ws_arg(argv[1], "page count");
   int nphases = argc - 2;
   struct phase *ph = calloc(nphases, sizeof *ph);
   if (!ph)
      return 2;
   for (int i = 0; i < nphases; i++) {
      parse_phase(argv[i + 2], &ph[i]);
      long last = ph[i].offset + (ph[i].count - 1) * ph[i].stride
                  + ph[i].kind->reach;
      if (last > map_pages * 4096) {
         fprintf(stderr, "touch: phase %d goes past the mapping\n", i + 1);
         return 2;
      }
   }
   /* Map 2 MiB more and start at the first 2 MiB boundary in it. */
   long huge = 2L << 20;
   char *raw = ws_map(map_pages * 4096 + huge);
   char *base = raw + (huge - (long)((unsigned long)raw % huge)) % huge;

   for (int i = 0; i < nphases; i++) {
      long per = WS_LOOP_PER_ELEMENT(ph[i].kind->a, ph[i].delay);
      ph[i].kind->fn(base + ph[i].offset, ph[i].count, ph[i].stride,
                     ph[i].delay, ws_sweeps_for(ph[i].insns, ph[i].count, per));
   }
   return 0;
}

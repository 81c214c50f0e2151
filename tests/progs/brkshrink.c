/* brkshrink: the break moved down to an address that is not
   page-aligned, and up again (tests/test_brk.py).

   usage: brkshrink GROW SHRINK OFFSET...

   Puts the break at B + GROW, where B is the first 64 KiB boundary at or
   above the initial break (so that offsets from B fall on the same ws
   pages whatever the page size up to 64 KiB), writes one byte at
   B + OFFSET for each OFFSET, moves the break down to B + SHRINK and up
   to B + GROW again, and writes the same bytes again.  Numbers are
   bytes, decimal or 0x-hex.  An offset may lie beyond GROW inside the
   kernel's last page of the break (the kernel maps whole pages).

   The kernel gives back [round_up(B + SHRINK), round_up(B + GROW)) in
   its 4 KiB pages: a page written in the first round that lies wholly
   inside that range is a new page for the totals when it is written
   again.  With SHRINK = GROW the break does not move: the control run.

   The writes are WS_LOOP accesses, one byte each; nothing else is
   allocated (no stdio, no malloc: glibc's malloc would take its heap
   from the same break).  Exit status 0, 2 on bad arguments, 3 if the
   break cannot be moved. */

#include <stdint.h>
#include <unistd.h>

#include "wsprog.h"

WS_LOOP(brkshrink_write, "movb $1, (%rdi)");

#define ALIGN      0x10000
#define MAX_OFFSETS 64

static void write_all(char *base, const long *offsets, int n)
{
   for (int i = 0; i < n; i++)
      brkshrink_write(base + offsets[i], 1, 1, 1, 1);
}

/* A message on stderr without stdio, and the exit status to return. */
static int fail(const char *msg, int status)
{
   if (write(2, msg, strlen(msg)) < 0)
      return status;
   return status;
}

static int move_break(char *to)
{
   if (brk(to) != 0 || sbrk(0) != to)
      return fail("brkshrink: cannot move the break\n", 3);
   return 0;
}

int main(int argc, char **argv)
{
   long offsets[MAX_OFFSETS];
   if (argc < 4 || argc - 3 > MAX_OFFSETS)
      return fail("usage: brkshrink GROW SHRINK OFFSET...\n", 2);
   long grow = ws_arg(argv[1], "grow");
   long shrink = ws_arg(argv[2], "shrink");
   int n = argc - 3;
   for (int i = 0; i < n; i++)
      offsets[i] = ws_arg(argv[3 + i], "offset");
   if (shrink > grow || grow == 0)
      return fail("brkshrink: SHRINK must not exceed GROW\n", 2);

   uintptr_t start = (uintptr_t)sbrk(0);
   char *base = (char *)((start + ALIGN - 1) & ~(uintptr_t)(ALIGN - 1));
   if (move_break(base + grow))
      return 3;
   write_all(base, offsets, n);
   if (move_break(base + shrink) || move_break(base + grow))
      return 3;
   write_all(base, offsets, n);
   return 0;
}

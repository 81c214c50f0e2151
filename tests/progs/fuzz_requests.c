/* fuzz_requests: a random sequence of what a program can do to ws
   (tests/test_fuzz_requests.py): client requests with good and bad
   labels, monitor commands from inside (VALGRIND_MONITOR_COMMAND), good
   and bad option changes (VALGRIND_CLO_CHANGE), heap blocks, mappings
   made and unmapped, threads that do the same, forked children that do
   the same and exit, and an exec of itself.

   usage: fuzz_requests SEED STEPS [DEPTH]

   The sequence depends on SEED only (xorshift64*), so a failing seed
   reproduces.  DEPTH (default 0) counts forks and execs on the way here;
   at depth 2 no more are made.  Exit status 0; 2 on bad arguments. */

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <valgrind/valgrind.h>
#include <valgrind/ws.h>

static char *self;
static int depth;

/* One generator per thread of actions. */
typedef struct {
   uint64_t s;
} Rng;

static uint64_t next(Rng *r)
{
   r->s ^= r->s >> 12;
   r->s ^= r->s << 25;
   r->s ^= r->s >> 27;
   return r->s * 2685821657736338717ULL;
}

static unsigned below(Rng *r, unsigned n)
{
   return (unsigned)(next(r) % n);
}

static volatile long sink;

static void work(Rng *r)
{
   long n = 1000 + below(r, 20000);
   for (long i = 0; i < n; i++)
      sink += i;
}

/* A label: one of the hard cases, or random bytes (no NUL). */
static void label(Rng *r, char *buf, size_t size)
{
   static const char *const hard[] = {
      "phase one", "  blanks  around  ", "tab\there", "new\nline",
      "back\\slash", "\xe2\x82\xac uro", "bad \xff\xfe bytes", "", " ",
      "%p %n %q{HOME}", "event 5 mark injected", "x",
   };
   unsigned k = below(r, 16);
   if (k < sizeof hard / sizeof hard[0]) {
      snprintf(buf, size, "%s", hard[k]);
      return;
   }
   size_t n = 1 + below(r, k == 15 ? 300 : 40);
   if (n >= size)
      n = size - 1;
   for (size_t i = 0; i < n; i++)
      buf[i] = (char)(1 + below(r, 255));
   buf[n] = '\0';
}

/* A pointer that is no good label: NULL, a low address, an unmapped
   page, the page past the end of a file mapping. */
static const char *bad_pointer(Rng *r)
{
   static char *unmapped, *past_end;
   long page = sysconf(_SC_PAGESIZE);
   if (!unmapped) {
      unmapped = mmap(NULL, page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS,
                      -1, 0);
      munmap(unmapped, page);
      char name[] = "/tmp/fuzz_requestsXXXXXX";
      int fd = mkstemp(name);
      if (fd >= 0) {
         char *a = calloc(1, page);
         memset(a, 'a', page);
         if (write(fd, a, page) == page)
            past_end = mmap(NULL, 2 * page, PROT_READ, MAP_SHARED, fd, 0);
         unlink(name);
         close(fd);
         free(a);
      }
   }
   switch (below(r, 4)) {
   case 0:  return NULL;
   case 1:  return (const char *)16;
   case 2:  return unmapped;
   default: return past_end && past_end != MAP_FAILED
                   ? past_end + page - 8 : NULL;
   }
}

static void monitor_command(Rng *r)
{
   static const char *const cmds[] = {
      "ws status", "ws dump", "ws dump d.%p.%n", "ws dump nodir/d",
      "ws dump ws.%p.out", "ws set tau %u", "ws set every %u",
      "ws set peak-thresh %u", "ws hot %u insn", "ws hot %u", "ws series %u",
      "ws peaks", "ws mark %s", "ws start", "ws stop", "ws help",
      "ws bogus", "status", "ws set tau x", "ws series 0",
      "v.clo --ws-tau=%u", "v.clo --ws-every=%u", "v.clo --ws-pagesize=64",
   };
   char cmd[512], lab[320];
   const char *t = cmds[below(r, sizeof cmds / sizeof cmds[0])];
   if (strstr(t, "%s")) {
      label(r, lab, 200);
      snprintf(cmd, sizeof cmd, "ws mark %s", lab);
   } else if (strstr(t, "%u")) {
      snprintf(cmd, sizeof cmd, t, below(r, 4) ? 100 + below(r, 50000)
                                               : below(r, 3));
   } else {
      snprintf(cmd, sizeof cmd, "%s", t);
   }
   VALGRIND_MONITOR_COMMAND(cmd);
}

static void clo_change(Rng *r)
{
   char opt[64];
   static const char *const names[] = { "--ws-tau", "--ws-every",
                                        "--ws-peak-thresh" };
   snprintf(opt, sizeof opt, "%s=%u", names[below(r, 3)],
            below(r, 4) ? 50 + below(r, 20000) : below(r, 2));
   VALGRIND_CLO_CHANGE(opt);
}

/* What an action may start: threads, forked children and execs, or
   nothing (a thread starts nothing, so that the tree stays small). */
enum { SPAWN_NONE, SPAWN_THREADS, SPAWN_ALL };

static void actions(Rng *r, int steps, int may_spawn);

static void *thread_main(void *arg)
{
   Rng r = { *(uint64_t *)arg | 1 };
   actions(&r, 20, SPAWN_NONE);
   return NULL;
}

static void spawn_thread(Rng *r)
{
   pthread_t t;
   uint64_t seed = next(r);
   if (pthread_create(&t, NULL, thread_main, &seed) == 0)
      pthread_join(t, NULL);
}

static void spawn_child(Rng *r)
{
   uint64_t seed = next(r);
   pid_t pid = fork();
   if (pid == 0) {
      Rng c = { seed | 1 };
      depth++;
      actions(&c, 30, depth < 2 ? SPAWN_ALL : SPAWN_THREADS);
      exit(0);
   }
   if (pid > 0)
      waitpid(pid, NULL, 0);
}

static void exec_self(Rng *r)
{
   char seed[32], steps[16], d[16];
   pid_t pid = fork();
   if (pid == 0) {
      snprintf(seed, sizeof seed, "%llu", (unsigned long long)next(r));
      snprintf(steps, sizeof steps, "%u", 10 + below(r, 20));
      snprintf(d, sizeof d, "%d", depth + 1);
      execl(self, self, seed, steps, d, (char *)NULL);
      _exit(3);
   }
   if (pid > 0)
      waitpid(pid, NULL, 0);
}

static void actions(Rng *r, int steps, int may_spawn)
{
   char lab[320];
   static char *blocks[16];
   static char *maps[4];
   for (int i = 0; i < steps; i++) {
      unsigned k = below(r, may_spawn == SPAWN_ALL ? 20
                            : may_spawn == SPAWN_THREADS ? 17 : 15);
      switch (k) {
      case 0: WS_START; break;
      case 1: WS_STOP; break;
      case 2: label(r, lab, sizeof lab); WS_MARK(lab); break;
      case 3: label(r, lab, sizeof lab); WS_DUMP(lab); break;
      case 4: WS_MARK(bad_pointer(r)); break;
      case 5: sink += WS_CURRENT_DATA_PAGES + WS_CURRENT_INSN_PAGES; break;
      case 6: case 7: monitor_command(r); break;
      case 8: clo_change(r); break;
      case 9: case 10: {
         unsigned b = below(r, 16);
         free(blocks[b]);
         blocks[b] = malloc(1 + below(r, 5 * 4096));
         if (blocks[b])
            memset(blocks[b], 1, 1);
         break;
      }
      case 11: {
         unsigned m = below(r, 4);
         size_t len = 4096 * (1 + (m + 1) * 3);
         if (maps[m]) {
            munmap(maps[m], len);
            maps[m] = NULL;
         } else {
            maps[m] = mmap(NULL, len, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (maps[m] == MAP_FAILED)
               maps[m] = NULL;
            else
               for (size_t o = 0; o < len; o += 4096)
                  maps[m][o] = 1;
         }
         break;
      }
      case 12: case 13: case 14: work(r); break;
      case 15: WS_DUMP(bad_pointer(r)); break;
      case 16: spawn_thread(r); break;
      case 17: spawn_child(r); break;
      case 18: spawn_child(r); break;
      default: if (depth < 1) exec_self(r); break;
      }
   }
}

int main(int argc, char **argv)
{
   if (argc < 3)
      return 2;
   Rng r = { strtoull(argv[1], NULL, 10) | 1 };
   int steps = atoi(argv[2]);
   self = argv[0];
   depth = argc > 3 ? atoi(argv[3]) : 0;
   actions(&r, steps, depth < 2 ? SPAWN_ALL : SPAWN_THREADS);
   return 0;
}

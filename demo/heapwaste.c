/* heapwaste.c: a small request server of the shape many real ones have,
   with three habits that waste heap memory, for the worked example of
   docs/heap-example.md.  Pretend not to know them: ws finds them.

   usage: heapwaste [REQUESTS]      (default 1000)

   It serves REQUESTS generated requests, one after another, from 32
   sessions.  For each request it

     - reads the request into a buffer (allocated per request, freed
       after it: "requests are at most 64 KiB");
     - looks the request's words up in an index built at start-up;
     - renders a response, and keeps the rendered page in a cache "for
       the next time the same request comes";
     - updates the request's session, whose state was allocated when the
       session opened.

   Sessions take requests in turn, a few hundred each.  At exit it
   writes a one-line summary and frees everything.

   Only the program's own work is measured (WS_START and WS_STOP, run
   with --ws-instr-atstart=no), so that ws prints the same figures in
   every shell and on every machine: the dynamic linker's start-up runs
   a different number of instructions for every environment and every
   /etc/ld.so.cache, and the environment's size moves the stack (main
   says how the program's frames stay put). */

#include <alloca.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <valgrind/ws.h>

#define INDEX_SLOTS   4096
#define SESSIONS      32
#define MAX_REQUEST   (64 * 1024)
#define PAGE_SIZE     8192
#define CACHE_SLOTS   1024

struct entry {                     /* a word of the index */
   unsigned long hash;
   long          count;
};

struct session {                   /* what a session remembers */
   long requests;
   long bytes;
   char history[16 * 1024 - 16];
};

struct cached {                    /* a rendered page */
   unsigned long key;
   char          page[PAGE_SIZE - 8];
};

static struct entry*   index_table;
static long            served;
static struct session* sessions[SESSIONS];
static struct cached*  cache[CACHE_SLOTS];
static unsigned long   seed = 42;

static unsigned long rnd(void)
{
   seed = seed * 6364136223846793005UL + 1442695040888963407UL;
   return seed >> 33;
}

static unsigned long hash(const char* s, size_t n)
{
   unsigned long h = 5381;
   for (size_t i = 0; i < n; i++)
      h = h * 33 + (unsigned char)s[i];
   return h;
}

static void build_index(void)
{
   index_table = calloc(INDEX_SLOTS, sizeof *index_table);
   for (long i = 0; i < INDEX_SLOTS; i++)
      index_table[i].hash = (unsigned long)i * 2654435761UL;
}

static void open_sessions(void)
{
   for (int s = 0; s < SESSIONS; s++)
      sessions[s] = calloc(1, sizeof *sessions[s]);
}

/* A request: 200 to 400 bytes of words. */
static size_t read_request(char* buf)
{
   size_t n = 200 + rnd() % 200;
   for (size_t i = 0; i < n; i++)
      buf[i] = (i % 7 == 6) ? ' ' : (char)('a' + rnd() % 26);
   return n;
}

static long look_up(const char* req, size_t n)
{
   long found = 0;
   size_t start = 0;
   for (size_t i = 0; i <= n; i++)
      if (i == n || req[i] == ' ') {
         struct entry* e = &index_table[hash(req + start, i - start)
                                        % INDEX_SLOTS];
         e->count++;
         found += e->count;
         start = i + 1;
      }
   return found;
}

static struct cached* render(const char* req, size_t n, long found,
                             unsigned long key)
{
   struct cached* c = malloc(sizeof *c);
   c->key = key;
   for (size_t i = 0; i < sizeof c->page; i++)
      c->page[i] = req[i % n] ^ (char)found;
   return c;
}

/* The cache is consulted with the request's hash... of the session and
   the request together, so it never finds what render() stored. */
static struct cached* cache_find(unsigned long key)
{
   struct cached* c = cache[key % CACHE_SLOTS];
   (void)c;
   return NULL;
}

static void serve(long r)
{
   int s = (int)(r * SESSIONS / 10000) % SESSIONS;   /* sessions in turn */
   char* buf = malloc(MAX_REQUEST);
   size_t n = read_request(buf);
   unsigned long key = hash(buf, n);
   struct cached* page = cache_find(key ^ (unsigned long)s);
   if (page == NULL) {
      long found = look_up(buf, n);
      page = render(buf, n, found, key);
      free(cache[key % CACHE_SLOTS]);
      cache[key % CACHE_SLOTS] = page;
   }
   sessions[s]->requests++;
   sessions[s]->bytes += n;
   served++;
   memcpy(sessions[s]->history + (sessions[s]->requests % 64) * 200, buf,
          n < 200 ? n : 200);
   free(buf);
}

static void run(long requests)
{
   WS_START;
   build_index();
   open_sessions();
   for (long r = 0; r < requests; r++)
      serve(r);
   for (int s = 0; s < SESSIONS; s++)
      free(sessions[s]);
   for (int i = 0; i < CACHE_SLOTS; i++)
      free(cache[i]);
   free(index_table);
   printf("served %ld requests\n", served);
   fflush(stdout);             /* while measured: the write reads the buffer */
   WS_STOP;
}

int main(int argc, char** argv)
{
   long requests = argc > 1 ? atol(argv[1]) : 1000;
   /* The environment's size moves the stack by a few bytes, which could
      put the program's frames across a page boundary in one shell and
      not in another: they start in the middle of a page every time. */
   char here;
   char* pad = alloca(((uintptr_t)&here & 4095) + 2048);
   __asm__ volatile("" : : "r"(pad) : "memory");
   run(requests);
   return 0;
}

/* hands: a program that looks at what it should own alone (its
   descriptors, signals, files, environment) while ws runs it; each mode
   prints what it saw or exits non-zero when something is not as it
   would be without Valgrind (tests/test_descriptors.py, test_files.py,
   test_signals.py).

   usage: hands MODE ARGS...

     fds                  prints the descriptors open in 0..1023, one
                          line "fd cloexec" each
     limit                prints "limit SOFT HARD" (RLIMIT_NOFILE as the
                          program is shown it), then the descriptors open
                          in 0..1023 as "fds" does, with what each names
                          (/proc/self/fd)
     closeall FILE        closes 3..1023, opens FILE, works while it holds
                          it (ws takes samples meanwhile), writes "mine"
                          to it, closes; exits 1 if FILE then holds
                          anything else
     dup2                 dup2(1, 3), works, prints "ok"
     pipe3                puts the write end of a pipe on descriptor 3 (as
                          for a child that reads it), works, closes it and
                          reads the pipe: exits 1 if anything came
     exec N               execs itself N times (same pid), then does
                          "fds"
     execfail             execs a file that is not there, then a file
                          that is no program, then works and prints "ok"
     work                 works (about 6,000,000 instructions) and prints
                          nothing
     sigbus FILE          maps FILE (made one page long, no NUL byte) over
                          two pages, passes a string running into the
                          second page (past the end of the file) to
                          WS_MARK and to open(); exits 0 if open failed
                          with EFAULT as it does natively
     bigmark N            VALGRIND_MONITOR_COMMAND("ws mark xxx...") with
                          N x's; prints "ok"
     dumpheap             mallocs, WS_DUMP("heap"), frees, prints "ok"
     dumpfile FILE        touches 256 pages it mallocs, then
                          VALGRIND_MONITOR_COMMAND("ws dump FILE");
                          prints "ok"
     unsetfork VAR        unsetenv(VAR), forks; the child exits 7, the
                          parent checks it and exits 0
     bigwrite             write(pipe, buf, 1 << 40) on a 16-byte buffer;
                          exits 0 when the write failed or wrote less
     forkwork             forks a child that works and exits 5; the
                          parent works, waits and exits 0
     mark LABEL...        WS_STOP, WS_START, then WS_MARK(LABEL) and
                          WS_DUMP(LABEL) for each argument, with work
                          between them (the last names the region)
     odd                  runs code whose debug information names the
                          source file "odd dir/my file\with<TAB>tab.c"

   Exit status 2 on bad arguments. */

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <valgrind/valgrind.h>
#include <valgrind/ws.h>

static volatile long sink;

static void work(long n)
{
   for (long i = 0; i < n; i++)
      sink += i;
}

/* With |names|, each line ends with what the descriptor names. */
static void list_fds_named(int names)
{
   for (int fd = 0; fd < 1024; fd++) {
      int flags = fcntl(fd, F_GETFD);
      char link[64], target[4096] = "";
      if (flags < 0)
         continue;
      printf("%d %d", fd, (flags & FD_CLOEXEC) != 0);
      snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
      if (names && readlink(link, target, sizeof target - 1) > 0)
         printf(" %s", target);
      printf("\n");
   }
}

static void list_fds(void)
{
   list_fds_named(0);
}

static int closeall(const char *file)
{
   char buf[64];
   for (int fd = 3; fd < 1024; fd++)
      close(fd);
   int fd = open(file, O_RDWR | O_CREAT | O_TRUNC, 0644);
   if (fd < 0)
      return 3;
   work(1000000);
   if (write(fd, "mine", 4) != 4)
      return 3;
   work(1000000);
   close(fd);
   fd = open(file, O_RDONLY);
   ssize_t n = read(fd, buf, sizeof buf);
   close(fd);
   return n == 4 && memcmp(buf, "mine", 4) == 0 ? 0 : 1;
}

static int sigbus(const char *file)
{
   long page = sysconf(_SC_PAGESIZE);
   int fd = open(file, O_RDWR | O_CREAT | O_TRUNC, 0644);
   char *buf = malloc(page);
   if (fd < 0 || !buf)
      return 3;
   memset(buf, 'a', page);
   if (write(fd, buf, page) != page)
      return 3;
   char *map = mmap(NULL, 2 * page, PROT_READ, MAP_SHARED, fd, 0);
   if (map == MAP_FAILED)
      return 3;
   const char *s = map + page - 16;     /* 16 a's, then past the end */
   WS_MARK(s);
   int r = open(s, O_RDONLY);
   int err = errno;
   printf("open %d %s\n", r, r < 0 ? strerror(err) : "");
   return r < 0 && err == EFAULT ? 0 : 1;
}

static int reexec(char *self, long n)
{
   if (n == 0) {
      list_fds();
      return 0;
   }
   char arg[32];
   snprintf(arg, sizeof arg, "%ld", n - 1);
   work(300000);
   execl(self, self, "exec", arg, (char *)NULL);
   return 4;
}

static int execfail(char *self)
{
   work(300000);
   execl("/nonexistent/program", "program", (char *)NULL);
   execl("/etc/hostname", "hostname", (char *)NULL);
   work(300000);
   printf("ok\n");
   return 0;
}

static int bigmark(long n)
{
   char *cmd = malloc(n + 16);
   if (!cmd)
      return 3;
   strcpy(cmd, "ws mark ");
   memset(cmd + 8, 'x', n);
   cmd[8 + n] = '\0';
   VALGRIND_MONITOR_COMMAND(cmd);
   printf("ok\n");
   return 0;
}

static int dumpheap(void)
{
   char *p = malloc(3 * 4096);
   memset(p, 1, 3 * 4096);
   WS_DUMP("heap");
   free(p);
   printf("ok\n");
   return 0;
}

static int dumpfile(const char *file)
{
   char cmd[4200];
   char *p = malloc(256 * 4096);
   if (!p || strlen(file) > 4096)
      return 3;
   memset(p, 1, 256 * 4096);
   snprintf(cmd, sizeof cmd, "ws dump %s", file);
   VALGRIND_MONITOR_COMMAND(cmd);
   free(p);
   printf("ok\n");
   return 0;
}

static int unsetfork(const char *var)
{
   int status;
   unsetenv(var);
   pid_t pid = fork();
   if (pid < 0)
      return 3;
   if (pid == 0) {
      work(100000);
      _exit(7);
   }
   if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status)
       || WEXITSTATUS(status) != 7)
      return 4;
   return 0;
}

static int bigwrite(void)
{
   int p[2];
   char buf[16] = "0123456789abcde";
   if (pipe(p) != 0)
      return 3;
   /* volatile: the compiler would rightly warn about the size */
   volatile size_t huge = 1UL << 40;
   fcntl(p[1], F_SETFL, O_NONBLOCK);
   ssize_t n = write(p[1], buf, huge);
   printf("write %zd\n", n);
   return n < 0 || n < (1L << 40) ? 0 : 1;
}

void oddly_placed(volatile char *p, long n);

static int forkwork(void)
{
   int status;
   pid_t pid = fork();
   if (pid < 0)
      return 3;
   if (pid == 0) {
      work(1000000);
      _exit(5);
   }
   work(1000000);
   if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status)
       || WEXITSTATUS(status) != 5)
      return 4;
   return 0;
}

int main(int argc, char **argv)
{
   if (argc < 2)
      return 2;
   const char *m = argv[1];
   if (!strcmp(m, "fds")) {
      list_fds();
      return 0;
   }
   if (!strcmp(m, "limit")) {
      struct rlimit rl;
      if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
         return 1;
      printf("limit %llu %llu\n", (unsigned long long)rl.rlim_cur,
             (unsigned long long)rl.rlim_max);
      list_fds_named(1);
      return 0;
   }
   if (!strcmp(m, "closeall") && argc == 3)
      return closeall(argv[2]);
   if (!strcmp(m, "dup2")) {
      if (dup2(1, 3) != 3)
         return 3;
      work(3000000);
      printf("ok\n");
      return 0;
   }
   if (!strcmp(m, "pipe3")) {
      int p[2];
      char buf[256];
      if (pipe(p) != 0 || dup2(p[1], 3) != 3)
         return 3;
      close(p[1]);
      fcntl(p[0], F_SETFL, O_NONBLOCK);
      work(3000000);
      close(3);
      ssize_t n = read(p[0], buf, sizeof buf);
      printf("%zd\n", n < 0 ? 0 : n);
      return n > 0;
   }
   if (!strcmp(m, "exec") && argc == 3)
      return reexec(argv[0], strtol(argv[2], NULL, 10));
   if (!strcmp(m, "execfail"))
      return execfail(argv[0]);
   if (!strcmp(m, "work")) {
      work(1000000);
      return 0;
   }
   if (!strcmp(m, "sigbus") && argc == 3)
      return sigbus(argv[2]);
   if (!strcmp(m, "bigmark") && argc == 3)
      return bigmark(strtol(argv[2], NULL, 10));
   if (!strcmp(m, "dumpheap"))
      return dumpheap();
   if (!strcmp(m, "dumpfile") && argc == 3)
      return dumpfile(argv[2]);
   if (!strcmp(m, "unsetfork") && argc == 3)
      return unsetfork(argv[2]);
   if (!strcmp(m, "bigwrite"))
      return bigwrite();
   if (!strcmp(m, "forkwork"))
      return forkwork();
   if (!strcmp(m, "odd")) {
      char *p = malloc(64 * 4096);
      oddly_placed(p, 64 * 4096);
      return 0;
   }
   if (!strcmp(m, "mark")) {
      WS_STOP;                  /* a region opens at WS_START ... */
      WS_START;
      for (int i = 2; i < argc; i++) {
         work(50000);
         WS_MARK(argv[i]);
         WS_DUMP(argv[i]);
      }
      return 0;
   }
   return 2;
}

/* Code whose debug information names a source file with a space, a
   backslash and a tab (tests/test_escaping.py): every name ws writes is
   escaped. */
#line 1 "odd dir/my file\\with\ttab.c"
void oddly_placed(volatile char *p, long n)
{
   for (long i = 0; i < n; i += 4096)
      p[i] = 1;
}

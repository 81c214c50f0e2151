/*--------------------------------------------------------------------*/
/*--- ws_print: charts and reports from ws output files.         ---*/
/*---                                                   ws_print.c ---*/
/*--------------------------------------------------------------------*/

/*
   This file is part of ws, a Valgrind tool that measures a program's
   instruction and data working sets over time.

   Copyright (C) 2026 the ws authors.

   This program is free software; you can redistribute it and/or
   modify it under the terms of the GNU General Public License as
   published by the Free Software Foundation; either version 2 of the
   License, or (at your option) any later version.

   The GNU General Public License is contained in the file COPYING.
*/

/* ws_print reads the file `valgrind --tool=ws` writes (ws.out.<pid>)
   and shows it, as ms_print does for massif: by default a text report
   with charts sized to the terminal; --csv the samples for a
   spreadsheet; --html a self-contained interactive report.

   This file owns the command line, reading the file and exit statuses:
   0 when the file was shown (also a file cut short by a killed run,
   with a note), 1 for a bad option, a file that cannot be read, or a
   file that breaks the grammar (`ws_print: FILE:LINE: what is wrong`).
   The reader (wsp_read.h) fills in the model (wsp_model.h), which one
   renderer (wsp_render.h) writes out. */

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wsp_read.h"
#include "wsp_render.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "unknown"
#endif

#define MIN_WIDTH  30
#define MAX_WIDTH  1000
#define MIN_HEIGHT 4
#define MAX_HEIGHT 1000
/* The largest file read unless --max-size says otherwise: about 10^8
   samples.  Memory does not grow with the file (print/wsp_series.c);
   the limit ends an endless pipe, and bounds the copy of a pipe kept
   for a second reading. */
#define DEFAULT_MAX_SIZE ((size_t)4 << 30)

static void usage(void)
{
   printf(
"usage: ws_print [options] ws-output-file\n"
"\n"
"  Shows a file written by valgrind --tool=ws (ws.out.<pid>): its\n"
"  largest samples, the instruction and data working sets over time as\n"
"  text charts, then the summary, the regions, the peaks (the stack\n"
"  where each rose, its pages by owner), the hot pages, the heap usage\n"
"  by allocation site and the events.  A file from a run that was\n"
"  killed is shown as far as it goes.  '-' reads standard input.\n"
"  A file that 'ws dump FILE' wrote is shown as its pages, with a\n"
"  summary (text, or --csv).\n"
"\n"
"  options:\n"
"    --width=<30..1000>   line width of the report and its charts\n"
"                         [the terminal's, else $COLUMNS, else 80]\n"
"    --height=<4..1000>   rows of each chart\n"
"                         [the terminal's rows - 7, 5 to 60, else 17]\n"
"    --csv[=<file>]       write the samples as CSV (a header row, then\n"
"                         t,insn,data[,insn_lines,data_lines][,heap]\n"
"                         [,shared,tidN_insn,tidN_data...])\n"
"                         to <file> or to standard output, instead of\n"
"                         the text report\n"
"    --html <file>        write a self-contained HTML report to <file>\n"
"                         (an interactive chart; no network needed)\n"
"                         instead of the text report\n"
"    --max-size=<n>[k|M|G]  read at most <n> bytes; a larger input is\n"
"                         refused (memory stays bounded) [4G]\n"
"    --folded <key>       write the allocation sites' stacks as folded\n"
"                         stacks (flamegraph.pl, inferno, speedscope) to\n"
"                         standard output, instead of the text report;\n"
"                         each sized by <key>: usage (bytes never\n"
"                         touched), useful (bytes idle after their last\n"
"                         use), bytes (allocated), never (bytes in\n"
"                         chunks never touched) or score (bytes x\n"
"                         (1 - score)); a stack cut at\n"
"                         --num-callers starts with a frame '[stack cut\n"
"                         at N frames]'; nothing to show (no heap usage\n"
"                         lines, every value 0) is an error\n"
"    --folded-by=<function|line>  a frame of --folded is a function, or\n"
"                         a function and its source line (each call\n"
"                         site a frame of its own) [function]\n"
"    --pprof <file>       write the heap sites as a gzip-compressed pprof\n"
"                         profile (go tool pprof) to <file>: sample types\n"
"                         chunks, bytes, untouched, never, idle\n"
"    --trace <file>       write the run as Chrome trace-event JSON ('-':\n"
"                         standard output)\n"
"                         (Perfetto, chrome://tracing) to <file>: counter\n"
"                         tracks of the working sets, slices for the\n"
"                         measured stretches, instant events for marks,\n"
"                         peaks, dumps, breaks; one unit of the run's\n"
"                         time (an instruction, or a ms) is 1 us\n"
"    --json <file>        write the whole run (every record of the file)\n"
"                         as one JSON object to <file> ('-': standard\n"
"                         output); the schema is " WS_DOCDIR "/docs/json-schema.md\n"
"    --diff <A> <B>       compare run B with run A, instead of the text\n"
"                         report: the summary, the peaks (matched by\n"
"                         stack), the regions (by label), the heap sites\n"
"                         (by allocation stack), worst changes first;\n"
"                         runs of different programs, page sizes or time\n"
"                         units are refused\n"
"    --force              --diff compares such runs all the same\n"
"    --fail-above=<percent>  --diff exits with status 3 when the run's\n"
"                         peak of a kind, a region's or a heap site's\n"
"                         bytes grew by more than <percent>\n"
"    -h, --help           this message\n"
"    --version            ws_print's version\n"
"\n"
"  Exit status: 0 when the file was shown, 1 for a bad option, a file\n"
"  that cannot be read, or a malformed file (ws_print: FILE:LINE: what\n"
"  is wrong), 3 when --diff's --fail-above found a growth above it.\n"
"  It reads format version %d (and versions %d to %d, of older ws).\n"
"  More in man ws_print; the format is\n"
"  " WS_DOCDIR "/docs/output-format.md.\n",
      WSP_FORMAT_VERSION, WSP_FORMAT_OLDEST, WSP_FORMAT_VERSION - 1);
}

__attribute__((format(printf, 1, 2), noreturn))
static void die(const char *fmt, ...)
{
   va_list ap;
   fprintf(stderr, "ws_print: ");
   va_start(ap, fmt);
   vfprintf(stderr, fmt, ap);
   va_end(ap);
   fputc('\n', stderr);
   exit(1);
}

/* Why a file was refused, in ws_print's words. */
static void report(const char *path, const char *name,
                   const struct wsp_error *err)
{
   if (err->errnum && !err->msg[0])
      fprintf(stderr, "ws_print: cannot read '%s': %s\n", path,
              strerror(err->errnum));
   else if (err->errnum)
      fprintf(stderr, "ws_print: %s: %s: %s\n", name, err->msg,
              strerror(err->errnum));
   else if (err->line)
      fprintf(stderr, "ws_print: %s:%zu: %s\n", name, err->line, err->msg);
   else
      fprintf(stderr, "ws_print: %s: %s\n", name, err->msg);
}

/* A size option's value: a positive number of bytes, with k, M or G
   for 2^10, 2^20, 2^30. */
static size_t size_value(const char *opt, const char *v)
{
   char *end;
   unsigned long long x;
   int shift = 0;
   errno = 0;
   x = strtoull(v, &end, 10);
   if (*end == 'k' || *end == 'K')
      shift = 10;
   else if (*end == 'M')
      shift = 20;
   else if (*end == 'G')
      shift = 30;
   if (shift)
      end++;
   if (!*v || *v == '-' || *end || errno || x == 0
       || x > (SIZE_MAX - 1) >> shift)
      die("%s takes a number of bytes (with k, M or G), not '%s'", opt, v);
   return (size_t)x << shift;
}

/* A number option's value, from 'lo' to 'hi'. */
static int number(const char *opt, const char *v, int lo, int hi)
{
   char *end;
   long x;
   errno = 0;
   x = strtol(v, &end, 10);
   if (!*v || *end || errno || x < lo || x > hi) {
      fprintf(stderr, "ws_print: %s takes a number from %d to %d, not "
              "'%s'\n", opt, lo, hi, v);
      exit(1);
   }
   return (int)x;
}

/* The terminal's size, else $COLUMNS and $LINES, else 80x24. */
static void terminal_size(int *cols, int *rows)
{
   struct winsize ws;
   const char *e;
   *cols = 80;
   *rows = 24;
   if (isatty(1) && ioctl(1, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) {
      *cols = ws.ws_col;
      if (ws.ws_row > 0)
         *rows = ws.ws_row;
      return;
   }
   if ((e = getenv("COLUMNS")) && atoi(e) > 0)
      *cols = atoi(e);
   if ((e = getenv("LINES")) && atoi(e) > 0)
      *rows = atoi(e);
}

/* Whether path names a file ws wrote: an output file or a dump file
   (by its first line).  A file that cannot be read is none. */
static int is_ws_file(const char *path)
{
   char buf[WSP_FIRST_LINE_MAX];
   struct stat st;
   ssize_t n;
   int fd = open(path, O_RDONLY | O_NONBLOCK);
   if (fd < 0)
      return 0;
   if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
      close(fd);
      return 0;
   }
   n = read(fd, buf, sizeof buf);
   close(fd);
   return n > 0 && wsp_is_ws_start(buf, (size_t)n);
}

/* Refuses |out| as the name of an output if it is a file ws wrote:
   "<how the option takes its name>, and '<out>' is a file ws wrote
   (ws_print <example> <the file to read>)". */
static void refuse_ws_file(const char *out, const char *how,
                           const char *example, const char *file)
{
   if (out && is_ws_file(out))
      die("%s, and '%s' is a file ws wrote (ws_print %s %s)", how, out,
          example, file ? file : out);
}

/* The value of an option written --opt=VALUE or --opt VALUE (then
   argv[++*i]), or NULL when the option is last. */
static const char *option_value(int argc, char **argv, int *i)
{
   const char *eq = strchr(argv[*i], '=');
   if (eq)
      return eq + 1;
   return *i + 1 < argc ? argv[++*i] : NULL;
}

/* A file being written: under a temporary name in its folder until it
   is whole, then renamed to its own, so that a reader never sees half
   a report and an error leaves the old file (if any) as it was. */
static char tmp_path[4096];

__attribute__((format(printf, 1, 2), noreturn))
static void die_out(const char *fmt, ...)
{
   va_list ap;
   if (tmp_path[0])
      unlink(tmp_path);
   fprintf(stderr, "ws_print: ");
   va_start(ap, fmt);
   vfprintf(stderr, fmt, ap);
   va_end(ap);
   fputc('\n', stderr);
   exit(1);
}

/* Closes what open_out gave (|path| NULL: standard output) and gives
   the file its name.  A file that could not be written whole (a full
   disk, the file-size limit: SIGXFSZ is ignored, so the write fails
   instead of killing ws_print) is removed: a report or a table cut
   short is no use. */
static void close_out(FILE *out, const char *path)
{
   if (fflush(out) != 0 || ferror(out)
       || (out != stdout && fclose(out) != 0))
      die_out("error writing %s: %s%s", path ? path : "standard output",
              strerror(errno), path ? " (nothing was written)" : "");
   if (path && rename(tmp_path, path) != 0)
      die_out("cannot write '%s': %s", path, strerror(errno));
   tmp_path[0] = 0;
}

/* The file to write to (NULL: standard output): a temporary file next
   to path, with the permissions fopen would give. */
static FILE *open_out(const char *path)
{
   FILE *out;
   mode_t mask;
   int fd;
   if (!path)
      return stdout;
   if (snprintf(tmp_path, sizeof tmp_path, "%s.tmp.XXXXXX", path)
       >= (int)sizeof tmp_path)
      die("cannot create '%s': the name is too long", path);
   fd = mkstemp(tmp_path);
   if (fd < 0) {
      tmp_path[0] = 0;
      die("cannot create '%s': %s", path, strerror(errno));
   }
   mask = umask(0);
   umask(mask);
   if (fchmod(fd, 0666 & ~mask) != 0 || !(out = fdopen(fd, "w")))
      die_out("cannot create '%s': %s", path, strerror(errno));
   return out;
}

/* After a renderer walked the samples: when the model had let them go
   and reading them again failed (the file changed), the output is no
   use: the file being written is removed, and ws_print says why. */
static void samples_read(const struct wsp_file *f, const char *file,
                         const char *name)
{
   if (wsp_samples_error(f)) {
      if (tmp_path[0])
         unlink(tmp_path);
      report(file, name, wsp_samples_error(f));
      exit(1);
   }
}

/* The text report's size: as given, else the terminal's. */
static struct wsp_text_opts text_opts(int width, int height,
                                      const char *name)
{
   struct wsp_text_opts o;
   int cols, rows;
   terminal_size(&cols, &rows);
   o.width = width ? width : cols < MIN_WIDTH ? MIN_WIDTH
             : cols > MAX_WIDTH ? MAX_WIDTH : cols;
   o.height = height ? height : rows - 7 < 5 ? 5
              : rows - 7 > 60 ? 60 : rows - 7;
   o.name = name;
   return o;
}

/* A dump file: its text view, or its pages as CSV; refused is what
   the options asked for that a dump file has not. */
static void show_dump(const struct wsp_file *f, const char *name,
                      int want_csv, const char *csv, int width,
                      const char *refused)
{
   if (refused)
      die("%s: a dump file (from 'ws dump FILE') has no %s; ws_print "
          "shows it as text, --csv or --json", name, refused);
   if (want_csv) {
      FILE *out = open_out(csv);
      wsp_dump_csv(out, f);
      close_out(out, csv);
   } else {
      struct wsp_text_opts o = text_opts(width, 0, name);
      wsp_dump_text(stdout, f, &o);
      close_out(stdout, NULL);
   }
}

/* The percentage --fail-above takes: a number from 0 up. */
static double percent(const char *opt, const char *v)
{
   char *end;
   double x;
   errno = 0;
   x = strtod(v, &end);
   if (!*v || *end || errno || !(x >= 0) || x > 1e9)
      die("%s takes a percentage (a number from 0), not '%s'", opt, v);
   return x;
}

/* Read the file named path into f (ws_print's reasons on failure: exit
   status 1). */
static void read_run(const char *path, size_t max_size, unsigned flags,
                     struct wsp_file *f)
{
   const char *name = strcmp(path, "-") == 0 ? "(stdin)" : path;
   int fd = strcmp(path, "-") == 0 ? 0 : open(path, O_RDONLY);
   struct wsp_error err;
   if (fd < 0)
      die("cannot open '%s': %s", path, strerror(errno));
   if (wsp_read_fd(fd, max_size, flags, f, &err) != 0) {
      report(path, name, &err);
      exit(1);
   }
}

/* --diff A B: B against A (exit status 3 when --fail-above finds a
   growth above it). */
static int diff_runs(const char *pa, const char *pb, size_t max_size,
                     int force, double fail_above)
{
   struct wsp_file a, b;
   char why[300];
   if (strcmp(pa, "-") == 0 && strcmp(pb, "-") == 0)
      die("--diff reads standard input once: name a file for one run");
   read_run(pa, max_size, 0, &a);
   read_run(pb, max_size, 0, &b);
   for (int r = 0; r < 2; r++) {
      const struct wsp_file *f = r ? &b : &a;
      const char *p = r ? pb : pa;
      if (f->dump_file)
         die("%s: a dump file (from 'ws dump FILE') is no run to compare",
             p);
      if (!f->complete)
         die("%s: the run did not finish (the file has no trailer): "
             "there is no summary to compare", p);
   }
   if (!force && wsp_diff_refusal(&a, &b, why, sizeof why))
      die("%s and %s: %s; --force compares them all the same", pa, pb, why);
   int grew = wsp_diff(stdout, &a, pa, &b, pb, fail_above);
   samples_read(&a, pa, pa);
   samples_read(&b, pb, pb);
   close_out(stdout, NULL);
   wsp_free(&a);
   wsp_free(&b);
   return grew ? 3 : 0;
}

int main(int argc, char **argv)
{
   const char *file = NULL, *csv = NULL, *html = NULL, *json = NULL;
   const char *pprof = NULL, *trace = NULL;
   const char *diff_a = NULL, *diff_b = NULL;
   int width = 0, height = 0, want_csv = 0, only_files = 0, folded = 0;
   int folded_by_line = 0, force = 0;
   double fail_above = -1;
   size_t max_size = DEFAULT_MAX_SIZE;
   enum wsp_heap_key key = WSP_KEY_USAGE;

   signal(SIGXFSZ, SIG_IGN);
   for (int i = 1; i < argc; i++) {
      const char *a = argv[i];
      const char *v;
      if (only_files || a[0] != '-' || strcmp(a, "-") == 0) {
         if (file)
            die("one output file at a time ('%s' and '%s' given)", file, a);
         file = a;
      } else if (strcmp(a, "--") == 0) {
         only_files = 1;
      } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
         usage();
         return 0;
      } else if (strcmp(a, "--version") == 0) {
         printf("ws_print (ws) %s, output format %d\n", PACKAGE_VERSION,
                WSP_FORMAT_VERSION);
         return 0;
      } else if (strcmp(a, "--csv") == 0) {
         want_csv = 1;
      } else if (strncmp(a, "--csv=", 6) == 0) {
         want_csv = 1;
         csv = a + 6;
         if (!*csv)
            die("--csv= needs a file name");
      } else if (strcmp(a, "--html") == 0 || strncmp(a, "--html=", 7) == 0) {
         html = option_value(argc, argv, &i);
         if (!html || !*html)
            die("--html needs a file name");
      } else if (strcmp(a, "--json") == 0 || strncmp(a, "--json=", 7) == 0) {
         json = option_value(argc, argv, &i);
         if (!json || !*json)
            die("--json needs a file name ('-' for standard output)");
      } else if (strcmp(a, "--pprof") == 0
                 || strncmp(a, "--pprof=", 8) == 0) {
         pprof = option_value(argc, argv, &i);
         if (!pprof || !*pprof)
            die("--pprof needs a file name");
      } else if (strcmp(a, "--trace") == 0
                 || strncmp(a, "--trace=", 8) == 0) {
         trace = option_value(argc, argv, &i);
         if (!trace || !*trace)
            die("--trace needs a file name");
      } else if (strcmp(a, "--diff") == 0) {
         if (i + 2 >= argc)
            die("--diff needs two output files (ws_print --diff A B)");
         diff_a = argv[++i];
         diff_b = argv[++i];
      } else if (strcmp(a, "--force") == 0) {
         force = 1;
      } else if (strncmp(a, "--fail-above=", 13) == 0) {
         fail_above = percent("--fail-above", a + 13);
      } else if (strcmp(a, "--folded") == 0
                 || strncmp(a, "--folded=", 9) == 0) {
         if (!(v = option_value(argc, argv, &i)))
            die("--folded needs a key: usage, useful, bytes, never or "
                "score");
         if (!wsp_heap_key(v, &key))
            die("--folded takes usage, useful, bytes, never or score, not "
                "'%s'",
                v);
         folded = 1;
      } else if (strncmp(a, "--folded-by=", 12) == 0) {
         if (strcmp(a + 12, "line") == 0)
            folded_by_line = 1;
         else if (strcmp(a + 12, "function") == 0)
            folded_by_line = 0;
         else
            die("--folded-by takes function or line, not '%s'", a + 12);
      } else if (strcmp(a, "--width") == 0 || strcmp(a, "--height") == 0) {
         if (i + 1 >= argc)
            die("%s needs a number", a);
         v = argv[++i];
         if (a[2] == 'w')
            width = number(a, v, MIN_WIDTH, MAX_WIDTH);
         else
            height = number(a, v, MIN_HEIGHT, MAX_HEIGHT);
      } else if (strncmp(a, "--width=", 8) == 0) {
         width = number("--width", a + 8, MIN_WIDTH, MAX_WIDTH);
      } else if (strncmp(a, "--height=", 9) == 0) {
         height = number("--height", a + 9, MIN_HEIGHT, MAX_HEIGHT);
      } else if (strncmp(a, "--max-size=", 11) == 0) {
         max_size = size_value("--max-size", a + 11);
      } else {
         die("unknown option '%s' (ws_print --help lists the options)", a);
      }
   }
   /* Each output takes its own name first: a ws file there was meant
      to be read, and writing the output would destroy it. */
   refuse_ws_file(html, "--html takes the report's file name first",
                  "--html report.html", file);
   refuse_ws_file(csv, "--csv=<file> names the CSV file to write",
                  "--csv=samples.csv", file);
   refuse_ws_file(trace, "--trace takes the trace's file name first",
                  "--trace run.trace.json", file);
   refuse_ws_file(pprof, "--pprof takes the profile's file name first",
                  "--pprof heap.pb.gz", file);
   refuse_ws_file(json, "--json takes the JSON file's name first",
                  "--json run.json", file);
   if (diff_a) {
      if (file || want_csv || html || json || folded || pprof || trace)
         die("--diff writes its own report: no other file or view with it");
      return diff_runs(diff_a, diff_b, max_size, force, fail_above);
   }
   if (force || fail_above >= 0)
      die("%s goes with --diff A B", force ? "--force" : "--fail-above");
   if (!file)
      die("no output file given (usage: ws_print [options] "
          "ws.out.PID)");

   const char *name = strcmp(file, "-") == 0 ? "(stdin)" : file;
   int fd = strcmp(file, "-") == 0 ? 0 : open(file, O_RDONLY);
   struct wsp_file f;
   struct wsp_error err;
   if (fd < 0)
      die("cannot open '%s': %s", file, strerror(errno));
   if (wsp_read_fd(fd, max_size, json ? WSP_READ_PAGES : 0, &f, &err) != 0) {
      report(file, name, &err);
      wsp_free(&f);
      return 1;
   }
   if (f.dump_file && json) {
      const char *path = strcmp(json, "-") == 0 ? NULL : json;
      FILE *out = open_out(path);
      wsp_json(out, &f);
      close_out(out, path);
   }
   if (f.dump_file) {
      if (!json || want_csv || html || folded || pprof || trace)
         show_dump(&f, name, want_csv, csv, width,
                   html ? "HTML report" : trace ? "samples to trace"
                   : folded || pprof
                                          ? "heap usage lines" : NULL);
      wsp_free(&f);
      return 0;
   }
   if (!f.complete)
      fprintf(stderr, "ws_print: %s: note: the run did not finish (the "
              "file has no trailer%s); showing its %zu sample%s\n", name,
              f.cut_line ? " and its cut last line was left out" : "",
              f.samples.n, f.samples.n == 1 ? "" : "s");

   if (want_csv) {
      FILE *out = open_out(csv);
      wsp_csv(out, &f);
      samples_read(&f, file, name);
      close_out(out, csv);
   }
   if (html) {
      FILE *out = open_out(html);
      wsp_html(out, &f, name);
      samples_read(&f, file, name);
      close_out(out, html);
   }
   if (json) {
      const char *path = strcmp(json, "-") == 0 ? NULL : json;
      FILE *out = open_out(path);
      wsp_json(out, &f);
      samples_read(&f, file, name);
      close_out(out, path);
   }
   if (folded) {
      /* an empty file would read as "no stacks" to flamegraph.pl, which
         then fails without saying why */
      if (f.version < 4)
         die("%s: a format %d file has no heap usage lines (ws writes them "
             "from format 4 on): nothing to fold", name, f.version);
      if (f.heap_usage == 0)
         die("%s: heap usage was not followed in this run "
             "(--ws-heap-usage=no): nothing to fold", name);
      if (wsp_folded(stdout, &f, key, folded_by_line) == 0)
         die("%s: no allocation site has %s (--folded %s): nothing to fold",
             name, wsp_heap_key_words(key), wsp_heap_key_name(key));
      close_out(stdout, NULL);
   }
   if (pprof) {
      FILE *out;
      if (f.n_miss_stacks == 0
          && (f.version < 4 || f.heap_usage == 0 || f.n_heap_sites == 0))
         die("%s: %s: no profile to write", name, f.version < 4
             ? "a file of format 3 or 2 has no heap sites"
             : f.heap_usage == 0 ? "heap usage was not followed in this "
                                   "run (--ws-heap-usage=no)"
             : f.complete ? "the run allocated no heap chunk"
                          : "the run did not finish (heap sites are in "
                            "the trailer)");
      out = open_out(pprof);
      if (wsp_pprof(out, &f) != 0)
         die_out("cannot write '%s': out of memory", pprof);
      close_out(out, pprof);
   }
   if (trace) {
      const char *path = strcmp(trace, "-") == 0 ? NULL : trace;
      FILE *out = open_out(path);
      wsp_trace(out, &f);
      samples_read(&f, file, name);
      close_out(out, path);
   }
   if (!want_csv && !html && !folded && !json && !pprof && !trace) {
      struct wsp_text_opts o = text_opts(width, height, name);
      wsp_text(stdout, &f, &o);
      close_out(stdout, NULL);
   }
   /* the samples that were read again, when the model let them go */
   int status = 0;
   if (wsp_samples_error(&f)) {
      report(file, name, wsp_samples_error(&f));
      status = 1;
   }
   wsp_free(&f);
   return status;
}

/*--------------------------------------------------------------------*/
/*--- end                                               ws_print.c ---*/
/*--------------------------------------------------------------------*/

/* measure.c -- run a command, report its wall time and peak RSS.
 *
 * Usage: measure RESULT-FILE command [args...]
 *
 * run.py starts every timed command through this small program instead
 * of forking the command from Python itself.  The reason is ru_maxrss:
 * a child forked from a process keeps that process's pages until it
 * execs, and Linux carries that high-water mark across exec, so a
 * command forked directly from the ~20 MB Python harness never reports
 * less than ~20 MB.  Forked from this program it starts from ~1 MB.
 *
 * The command inherits stdin, stdout and stderr.  After it ends,
 * RESULT-FILE gets one line:
 *     wall=<s> maxrss_kb=<n> status=<exit code or -signal> utime=<s> stime=<s>
 * wall is CLOCK_MONOTONIC from just before fork to just after wait4;
 * maxrss_kb, utime and stime come from wait4's rusage of the command
 * (valgrind runs the client in its own process, and the Debian wrapper
 * script execs valgrind.bin, so this is tool and client together).
 * Exit status: 0 when the result was written, 125 on a failure of this
 * program, 127 when the command could not be executed.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s RESULT-FILE command [args...]\n", argv[0]);
        return 125;
    }
    FILE *out = fopen(argv[1], "w");
    if (!out) {
        fprintf(stderr, "measure: %s: %s\n", argv[1], strerror(errno));
        return 125;
    }
    double t0 = now();
    pid_t pid = fork();
    if (pid < 0) {
        perror("measure: fork");
        return 125;
    }
    if (pid == 0) {
        fclose(out);
        execvp(argv[2], argv + 2);
        fprintf(stderr, "measure: cannot execute %s: %s\n", argv[2], strerror(errno));
        _exit(127);
    }
    int status;
    struct rusage ru;
    pid_t r;
    do
        r = wait4(pid, &status, 0, &ru);
    while (r < 0 && errno == EINTR);
    double t1 = now();
    if (r < 0) {
        perror("measure: wait4");
        return 125;
    }
    int code = WIFEXITED(status) ? WEXITSTATUS(status)
             : WIFSIGNALED(status) ? -WTERMSIG(status) : -1;
    fprintf(out, "wall=%.6f maxrss_kb=%ld status=%d utime=%.6f stime=%.6f\n",
            t1 - t0, ru.ru_maxrss, code,
            ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6,
            ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6);
    return fclose(out) == 0 ? 0 : 125;
}

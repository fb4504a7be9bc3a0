/* startup.c: xaiform-startup, the fixed cost of one xaiform process: N runs
 * each of `xaiform copy`, `tangent` and `adjoint` of a small file (written
 * to /dev/null), and of `xaiform --version` and of /bin/true for the floor.
 * Prints the mean process time (user+sys CPU time of the child, from
 * rusage of the waited-for children) and the mean and median wall time per run. See
 * tools/bench/README.md. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef XF_STARTUP_PROGRAM
#define XF_STARTUP_PROGRAM "xaiform"
#endif
#ifndef XF_STARTUP_INPUT
#define XF_STARTUP_INPUT "examples/head.xaif"
#endif

static const char usage[] =
    "usage: xaiform-startup [-n N] [-p XAIFORM] [FILE]\n"
    "\n"
    "Run `XAIFORM copy|tangent|adjoint FILE -o /dev/null` N times each (and\n"
    "`XAIFORM --version` and /bin/true, the floor), one after the other, and\n"
    "print per run the mean process time (user+sys CPU time of the child),\n"
    "the mean and the median wall time, in ms.\n"
    "\n"
    "  -n, --runs N        runs per command (default 200)\n"
    "  -p, --program PATH  the xaiform to run (default " XF_STARTUP_PROGRAM ")\n"
    "  FILE                the input (default " XF_STARTUP_INPUT ")\n";

static double
seconds(struct timeval t)
{
    return (double)t.tv_sec + (double)t.tv_usec / 1e6;
}

static double
now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* One run of @argv with stdout and stderr to /dev/null: its CPU and wall seconds. */
static int
run_once(char *const argv[], double *cpu, double *wall)
{
    double t0 = now();
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        int fd = open("/dev/null", O_WRONLY);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
        }
        execv(argv[0], argv);
        _exit(127);
    }
    int status;
    struct rusage r0, r1;
    getrusage(RUSAGE_CHILDREN, &r0);
    if (waitpid(pid, &status, 0) != pid)
        return -1;
    *wall = now() - t0;
    getrusage(RUSAGE_CHILDREN, &r1);
    *cpu =
        seconds(r1.ru_utime) - seconds(r0.ru_utime) + seconds(r1.ru_stime) - seconds(r0.ru_stime);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

static int
cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int
measure(const char *label, char *const argv[], int n, double *walls)
{
    double cpu_sum = 0, wall_sum = 0;
    for (int i = 0; i < n; i++) {
        double cpu, wall;
        if (run_once(argv, &cpu, &wall) != 0) {
            fprintf(stderr, "xaiform-startup: %s %s failed\n", argv[0], argv[1] ? argv[1] : "");
            return -1;
        }
        cpu_sum += cpu;
        wall_sum += wall;
        walls[i] = wall;
    }
    qsort(walls, (size_t)n, sizeof *walls, cmp_double);
    printf("| %-18s | %5d | %8.2f | %8.2f | %8.2f |\n", label, n, 1e3 * cpu_sum / n,
           1e3 * wall_sum / n, 1e3 * walls[n / 2]);
    return 0;
}

int
main(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"runs", required_argument, NULL, 'n'},
        {"program", required_argument, NULL, 'p'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int n = 200, c;
    const char *prog = XF_STARTUP_PROGRAM;
    while ((c = getopt_long(argc, argv, "n:p:h", longopts, NULL)) != -1) {
        if (c == 'n' && (n = atoi(optarg)) > 0)
            continue;
        if (c == 'p') {
            prog = optarg;
            continue;
        }
        fputs(usage, c == 'h' ? stdout : stderr);
        return c == 'h' ? 0 : 2;
    }
    if (argc - optind > 1) {
        fputs(usage, stderr);
        return 2;
    }
    const char *in = optind < argc ? argv[optind] : XF_STARTUP_INPUT;
    double *walls = malloc((size_t)n * sizeof *walls);
    if (!walls) {
        fprintf(stderr, "xaiform-startup: %s\n", strerror(errno));
        return 1;
    }
    printf("%s, %s: %d runs each\n\n", prog, in, n);
    printf("| %-18s | %5s | %8s | %8s | %8s |\n", "command", "runs", "cpu ms", "wall ms",
           "wall med");
    printf("|%s|%s|%s|%s|%s|\n", "--------------------",
           "------:", "---------:", "---------:", "---------:");
    static const char *const verbs[] = {"copy", "tangent", "adjoint"};
    char *floor_argv[] = {(char *)"/bin/true", NULL};
    char *version_argv[] = {(char *)prog, (char *)"--version", NULL};
    int ret = measure("/bin/true", floor_argv, n, walls) ||
              measure("xaiform --version", version_argv, n, walls);
    for (size_t i = 0; i < 3 && !ret; i++) {
        char *verb_argv[] = {(char *)prog, (char *)verbs[i],    (char *)in,
                             (char *)"-o", (char *)"/dev/null", NULL};
        char label[32];
        snprintf(label, sizeof label, "xaiform %s", verbs[i]);
        ret = measure(label, verb_argv, n, walls);
    }
    free(walls);
    return ret ? 1 : 0;
}

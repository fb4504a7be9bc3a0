/* scale.c: xaiform-scale, how the cost of each verb grows with the size of
 * its input. For each shape of shapes.h at four sizes growing by 4x, it runs
 * `xaiform copy`, `tangent` and `adjoint` (`batch --mode tangent` for the
 * folder of many files) as fresh processes, takes the best wall time of N
 * runs and the peak resident memory of the child (wait4's ru_maxrss), and
 * prints Markdown tables: the measurements, the fitted growth exponents, and
 * the adjoint's time against copying its input and its output. A run that
 * passes the timeout is killed and reported as such. See docs/scaling.md.
 *
 * A tool, not the product: it measures, it decides nothing, and its
 * --quick mode only checks that everything runs. */
#define _DEFAULT_SOURCE
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "shapes.h"

#ifndef XF_SCALE_XAIFORM
#define XF_SCALE_XAIFORM "xaiform"
#endif

enum { NSIZES = 4 };

/* Sizes (4x apart) chosen so that the largest run of the slowest verb
 * takes seconds on a shared two-core machine with the main of issue 11;
 * see docs/scaling.md. ORDER: xf_shape */
static const long full_sizes[XF_SHAPE_COUNT][NSIZES] = {
    {100, 400, 1600, 6400},  /* block */
    {125, 500, 2000, 8000},  /* deep */
    {100, 400, 1600, 6400},  /* wide */
    {200, 800, 3200, 12800}, /* routines */
    {40, 160, 640, 2560},    /* chain */
    {40, 160, 640, 2560},    /* nest */
    {8, 32, 128, 512},       /* files */
    {10, 40, 160, 640},      /* loopnest */
    {100, 400, 1600, 6400},  /* loopseq */
    {125, 500, 2000, 8000},  /* sindeep */
};
static const long quick_sizes[XF_SHAPE_COUNT][NSIZES] = {
    {8, 32, 128, 512}, {4, 16, 64, 256}, {4, 16, 64, 256}, {2, 8, 32, 128}, {2, 8, 32, 128},
    {2, 8, 32, 128},   {1, 4, 16, 64},   {2, 4, 8, 16},    {2, 8, 32, 128}, {4, 16, 64, 256},
};

static const char usage[] =
    "usage: xaiform-scale [options] [SHAPE...]\n"
    "       xaiform-scale --time [-n N] [-t S] [-M MB] -- PROGRAM [ARG...]\n"
    "\n"
    "Measure how xaiform's time and peak memory grow with the size of its input:\n"
    "for each SHAPE (default: all; `xaiform-gen-shapes --list` names them) at four\n"
    "sizes growing by 4x, run copy, tangent and adjoint (for `files`: batch --mode\n"
    "tangent -j 1) as fresh processes; print a Markdown table of the best wall\n"
    "time of N runs and the child's peak resident memory, the growth exponents\n"
    "fitted over the four sizes, and the adjoint against copying its input and\n"
    "its output. Before timing, the smallest input of each shape is checked:\n"
    "`validate` accepts it, and the Jacobians of `run --driver dd`, of the\n"
    "tangent output under `--driver tangent` and of the adjoint output under\n"
    "`adjoint-joint` and `adjoint-split` agree (the derivative codes to 1e-12,\n"
    "divided differences, a first-order estimate, to 1e-3 relative).\n"
    "\n"
    "  -q, --quick          small sizes, one run each: checks that all runs and\n"
    "                       prints the tables, in seconds (the times mean nothing)\n"
    "  -x, --xaiform PATH   the program to measure (default: the one built with this)\n"
    "  -w, --workdir DIR    where inputs and outputs go (default: a new folder\n"
    "                       ./xaiform-scale.XXXXXX, removed at the end)\n"
    "  -k, --keep           keep the work folder\n"
    "  -n, --runs N         timed runs per verb and size, the best counts (default 3)\n"
    "  -t, --timeout S      kill a run after S seconds, report `timeout` (default 120)\n"
    "  -M, --max-memory MB  limit each run's address space (RLIMIT_AS) to MB, so that\n"
    "                       a run that would take the machine's memory fails instead\n"
    "                       (default 4000; 0: no limit, as a sanitizer build needs)\n"
    "  -s, --sizes A,B,C,D  these four sizes for every shape given\n"
    "  -c, --cpu            time = the child's CPU time (user + sys, with its\n"
    "                       workers) instead of the wall clock: steadier on a\n"
    "                       loaded machine (the timeout stays on the wall clock)\n"
    "      --no-check       skip the check of the smallest inputs\n"
    "      --time           run PROGRAM with ARGs N times (stdout and stderr to\n"
    "                       /dev/null) and print the best time (wall, or --cpu) in s and\n"
    "                       the least peak resident memory in MB (10^6 bytes) of\n"
    "                       the N runs on one line; exit 1 when a run failed\n"
    "  -h, --help           this text\n"
    "\n"
    "Exit status: 0 when every run and check succeeded (a timeout counts as a\n"
    "result), 1 when a run failed or a check disagreed, 2 usage error.\n";

/* ------------------------------------------------------------ processes */

typedef enum outcome { RUN_OK, RUN_EXIT, RUN_SIGNAL, RUN_TIMEOUT, RUN_SPAWN } outcome;

typedef struct result {
    outcome how;
    int code;    /* exit status or signal */
    double secs; /* wall clock, fork to reaping (--cpu: the child's user + sys) */
    double mb;   /* the child's ru_maxrss, in MB (10^6 bytes) */
} result;

static volatile sig_atomic_t alarmed;

/* --cpu: a run's time is the child's CPU time (user + sys, its waited-for
 * children included), which a loaded machine disturbs less than the wall
 * clock; the timeout stays on the wall clock. */
static bool cpu_time;

static void
on_alarm(int sig)
{
    (void)sig;
    alarmed = 1;
}

static double
now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Run ARGV[0] with ARGV, stdout to OUT and stderr to ERR (NULL:
 * /dev/null), killing it after TIMEOUT seconds. */
static result
spawn(char *const argv[], const char *out, const char *err, double timeout, double max_mb)
{
    result r = {RUN_SPAWN, 0, 0, 0};
    struct sigaction sa = {0};
    sa.sa_handler = on_alarm; /* no SA_RESTART: wait4 returns EINTR */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, NULL);
    alarmed = 0;
    double t0 = now();
    pid_t pid = fork();
    if (pid < 0)
        return r;
    if (pid == 0) {
        int o = open(out ? out : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0666);
        int e = open(err ? err : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0666);
        if (o < 0 || e < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0)
            _exit(127);
        if (max_mb > 0) {
            struct rlimit rl;
            rl.rlim_cur = rl.rlim_max = (rlim_t)(max_mb * 1e6);
            setrlimit(RLIMIT_AS, &rl);
        }
        execv(argv[0], argv);
        _exit(127);
    }
    struct itimerval it = {{0, 0}, {(time_t)timeout, (suseconds_t)(fmod(timeout, 1.0) * 1e6)}};
    setitimer(ITIMER_REAL, &it, NULL);
    int status = 0;
    struct rusage ru;
    pid_t w;
    while ((w = wait4(pid, &status, 0, &ru)) < 0 && errno == EINTR) {
        if (alarmed) {
            kill(pid, SIGKILL);
            alarmed = 2;
        }
    }
    r.secs = now() - t0;
    struct itimerval off = {{0, 0}, {0, 0}};
    setitimer(ITIMER_REAL, &off, NULL);
    if (w < 0)
        return r;
    r.mb = (double)ru.ru_maxrss * 1024.0 / 1e6;
    if (cpu_time)
        r.secs = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
                 (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
    if (alarmed == 2) {
        r.how = RUN_TIMEOUT;
    } else if (WIFSIGNALED(status)) {
        r.how = RUN_SIGNAL;
        r.code = WTERMSIG(status);
    } else if (WEXITSTATUS(status) == 127) {
        r.how = RUN_SPAWN;
    } else {
        r.how = WEXITSTATUS(status) ? RUN_EXIT : RUN_OK;
        r.code = WEXITSTATUS(status);
    }
    return r;
}

/* The best of N runs: the least time and the least peak of the successful
 * ones, or the first failure. */
static result
best_of(int n, char *const argv[], const char *err, double timeout, double max_mb)
{
    result best = {RUN_SPAWN, 0, 0, 0};
    for (int k = 0; k < n; k++) {
        result r = spawn(argv, NULL, err, timeout, max_mb);
        if (r.how != RUN_OK)
            return r;
        if (k == 0 || r.secs < best.secs)
            best.secs = r.secs;
        if (k == 0 || r.mb < best.mb)
            best.mb = r.mb;
        best.how = RUN_OK;
    }
    return best;
}

static const char *
describe(const result *r, char *buf, size_t n)
{
    switch (r->how) {
    case RUN_OK:
        snprintf(buf, n, "%.3f", r->secs);
        break;
    case RUN_EXIT:
        snprintf(buf, n, "exit %d", r->code);
        break;
    case RUN_SIGNAL:
        snprintf(buf, n, "signal %d (%s)", r->code, strsignal(r->code));
        break;
    case RUN_TIMEOUT:
        snprintf(buf, n, "timeout (%.1f s)", r->secs);
        break;
    case RUN_SPAWN:
        snprintf(buf, n, "cannot run");
        break;
    }
    return buf;
}

/* ------------------------------------------------------------ the files */

typedef struct ctx {
    const char *xaiform;
    char *work;
    int runs;
    double timeout, max_mb;
    bool quick, check, keep;
    long sizes[NSIZES];
    bool own_sizes;
    int failures;
} ctx;

static char *path(const ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* WORK/NAME, NAME from FMT; the caller frees it. */
static char *
path(const ctx *c, const char *fmt, ...)
{
    char name[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(name, sizeof name, fmt, ap);
    va_end(ap);
    size_t n = strlen(c->work) + strlen(name) + 2;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s/%s", c->work, name);
    return p;
}

static int
rm_entry(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(p);
}

static void
rm_tree(const char *p)
{
    nftw(p, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* Bytes of a file, or of the files directly in a folder. */
static double
bytes(const char *p)
{
    struct stat st;
    if (stat(p, &st) != 0)
        return 0;
    if (!S_ISDIR(st.st_mode))
        return (double)st.st_size;
    char cmd[64];
    double sum = 0;
    for (long k = 1;; k++) {
        size_t n = strlen(p) + sizeof cmd;
        char *f = malloc(n);
        if (!f)
            break;
        snprintf(f, n, "%s/f%06ld.xaif", p, k);
        int ok = stat(f, &st) == 0;
        free(f);
        if (!ok)
            break;
        sum += (double)st.st_size;
    }
    return sum;
}

/* ------------------------------------------------------ the Jacobians */

typedef struct jac {
    double v[4]; /* F(k, i) for m = 1, n = 2: i = 1, 2 */
    int n;
} jac;

/* Read OpenAD's ad.out lines F(  k,  i)=value from P. */
static int
read_jac(const char *p, jac *j)
{
    FILE *f = fopen(p, "r");
    char line[256];
    j->n = 0;
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f)) {
        int k, i;
        char *eq = strchr(line, '=');
        if (sscanf(line, " F(%d,%d)", &k, &i) == 2 && eq && j->n < 4)
            j->v[j->n++] = strtod(eq + 1, NULL);
    }
    fclose(f);
    return j->n == 2 ? 0 : -1;
}

static bool
close_to(const jac *a, const jac *b, double tol)
{
    for (int k = 0; k < 2; k++) {
        double scale = fmax(1.0, fmax(fabs(a->v[k]), fabs(b->v[k])));
        if (!(fabs(a->v[k] - b->v[k]) <= tol * scale))
            return false;
    }
    return true;
}

/* Run xaiform with ARGS (NULL-terminated), stdout to OUT; true on exit 0. */
static bool
xf(const ctx *c, const char *out, const char *const *args)
{
    char *argv[16];
    int n = 0;
    argv[n++] = (char *)c->xaiform;
    while (*args && n < 15)
        argv[n++] = (char *)*args++;
    argv[n] = NULL;
    result r = spawn(argv, out, NULL, c->timeout, c->max_mb);
    return r.how == RUN_OK;
}

/* `xaiform run FILE --driver DRIVER` with n = 2, m = 1, h = 1e-6: its
 * Jacobian into J, through the scratch file OUT. */
static bool
run_jac(const ctx *c, const char *file, const char *driver, const char *out, jac *j)
{
    const char *args[] = {"run", file, "--driver", driver, "-n", "2",
                          "-m",  "1",  "-H",       "1e-6", NULL};
    return xf(c, out, args) && read_jac(out, j) == 0;
}

/* The smallest input IN of a shape: validate accepts it, and the Jacobians
 * of divided differences, the tangent code and the adjoint code (joint and
 * split) agree. Prints one line; returns 0 when all holds. */
static int
check(const ctx *c, const char *shape, long size, const char *in)
{
    char *t = path(c, "check.tangent.xaif"), *a = path(c, "check.adjoint.xaif");
    char *out = path(c, "check.out");
    const char *why = NULL;
    jac dd = {0}, tl = {0}, aj = {0}, as = {0};
    const char *validate[] = {"validate", "-q", in, NULL};
    const char *tangent[] = {"tangent", in, "-o", t, NULL};
    const char *adjoint[] = {"adjoint", in, "-o", a, NULL};
    if (!t || !a || !out)
        why = "out of memory";
    else if (!xf(c, NULL, validate))
        why = "validate refuses it";
    else if (!xf(c, NULL, tangent))
        why = "tangent failed";
    else if (!xf(c, NULL, adjoint))
        why = "adjoint failed";
    else if (!run_jac(c, in, "dd", out, &dd))
        why = "run --driver dd failed";
    else if (!run_jac(c, t, "tangent", out, &tl))
        why = "run --driver tangent failed";
    else if (!run_jac(c, a, "adjoint-joint", out, &aj))
        why = "run --driver adjoint-joint failed";
    else if (!run_jac(c, a, "adjoint-split", out, &as))
        why = "run --driver adjoint-split failed";
    else if (!close_to(&tl, &aj, 1e-12) || !close_to(&tl, &as, 1e-12))
        why = "the tangent and adjoint Jacobians differ";
    else if (!close_to(&tl, &dd, 1e-3))
        why = "divided differences differ from the tangent Jacobian";
    if (why)
        printf("- check %s %ld: FAILED: %s\n", shape, size, why);
    else
        printf("- check %s %ld: valid; F(1,1) = %.6g, F(1,2) = %.6g by dd, tangent, adjoint "
               "joint and split\n",
               shape, size, tl.v[0], tl.v[1]);
    if (t)
        remove(t);
    if (a)
        remove(a);
    if (out)
        remove(out);
    free(t);
    free(a);
    free(out);
    return why ? -1 : 0;
}

/* ---------------------------------------------------------- measuring */

enum { V_COPY, V_TANGENT, V_ADJOINT, V_BATCH, V_LOOPS, V_ITERDRY, NVERBS };
static const char *const verb_name[NVERBS] = {"copy",
                                              "tangent",
                                              "adjoint",
                                              "batch --mode tangent",
                                              "adjoint --loops auto",
                                              "adjoint --per-iteration-dry-run"};

/* The loop options' verbs run on the shapes of loops only. */
static bool
loop_shape(xf_shape s)
{
    return s == XF_SHAPE_NEST || s == XF_SHAPE_LOOPNEST || s == XF_SHAPE_LOOPSEQ;
}

typedef struct cell {
    result r;
    bool done;
} cell;

typedef struct row {
    xf_shape shape;
    long size[NSIZES];
    double in_mb[NSIZES];
    cell m[NSIZES][NVERBS];
    result copy_in, copy_out; /* at the largest size */
    double out_mb;
} row;

/* Time VERB on IN (OUT: its output) at best of c->runs. */
static result
measure(ctx *c, int verb, const char *in, const char *out)
{
    char *err = path(c, "stderr.txt");
    const char *argv[12];
    int n = 0;
    argv[n++] = c->xaiform;
    switch (verb) {
    case V_COPY:
    case V_TANGENT:
    case V_ADJOINT:
        argv[n++] = verb_name[verb];
        argv[n++] = in;
        argv[n++] = "-o";
        argv[n++] = out;
        break;
    case V_BATCH:
        argv[n++] = "batch";
        argv[n++] = "--mode";
        argv[n++] = "tangent";
        argv[n++] = "-j";
        argv[n++] = "1";
        argv[n++] = "--out-dir";
        argv[n++] = out;
        argv[n++] = in;
        break;
    case V_LOOPS:
    case V_ITERDRY:
        argv[n++] = "adjoint";
        argv[n++] = in;
        argv[n++] = "-o";
        argv[n++] = out;
        argv[n++] = verb == V_LOOPS ? "--loops" : "--per-iteration-dry-run";
        if (verb == V_LOOPS)
            argv[n++] = "auto";
        break;
    }
    argv[n] = NULL;
    result r = best_of(c->runs, (char *const *)argv, err, c->timeout, c->max_mb);
    if (r.how != RUN_OK && r.how != RUN_TIMEOUT) {
        char line[512] = "";
        FILE *f = err ? fopen(err, "r") : NULL;
        if (f) {
            if (!fgets(line, sizeof line, f))
                line[0] = 0;
            fclose(f);
        }
        fprintf(stderr, "xaiform-scale: %s %s failed: %s", verb_name[verb], in,
                line[0] ? line : "(no message)\n");
    }
    if (err)
        remove(err);
    free(err);
    return r;
}

/* Least-squares slope of log(y) against log(x) over the N points with
 * OK[k]; NAN when fewer than two. */
static double
slope(const long *x, const double *y, const bool *ok, int n, int *used)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    int m = 0;
    for (int k = 0; k < n; k++) {
        if (!ok[k] || !(y[k] > 0))
            continue;
        double lx = log((double)x[k]), ly = log(y[k]);
        sx += lx;
        sy += ly;
        sxx += lx * lx;
        sxy += lx * ly;
        m++;
    }
    *used = m;
    if (m < 2)
        return NAN;
    double d = m * sxx - sx * sx;
    return d > 0 ? (m * sxy - sx * sy) / d : NAN;
}

static void
print_exp(double e, int used)
{
    if (isnan(e))
        printf(" – |");
    else if (used < NSIZES)
        printf(" %.2f (%d sizes) |", e, used);
    else
        printf(" %.2f |", e);
}

static void
measure_shape(ctx *c, row *w)
{
    const char *name = xf_shape_name(w->shape);
    bool files = w->shape == XF_SHAPE_FILES;
    for (int s = 0; s < NSIZES; s++) {
        long size = w->size[s];
        char *in = path(c, files ? "%s-%ld" : "%s-%ld.xaif", name, size);
        char *out = path(c, files ? "%s-%ld.out" : "%s-%ld.out.xaif", name, size);
        char *adj = path(c, "%s-%ld.adjoint.xaif", name, size);
        char *back = path(c, "%s-%ld.back.xaif", name, size);
        if (!in || !out || !adj || !back || xf_shape_make(in, w->shape, size) != 0) {
            fprintf(stderr, "xaiform-scale: cannot make %s at %ld: %s\n", name, size,
                    strerror(errno));
            c->failures++;
            goto next;
        }
        w->in_mb[s] = bytes(in) / 1e6;
        if (s == 0 && c->check) {
            char *first = files ? path(c, "%s-%ld/f000001.xaif", name, size) : NULL;
            if (check(c, name, size, first ? first : in) != 0)
                c->failures++;
            free(first);
            fflush(stdout);
        }
        for (int v = 0; v < NVERBS; v++) {
            bool loopv = v == V_LOOPS || v == V_ITERDRY;
            if ((v == V_BATCH) != files || (loopv && !loop_shape(w->shape)))
                continue;
            const char *o = v == V_ADJOINT ? adj : out;
            w->m[s][v].r = measure(c, v, in, o);
            w->m[s][v].done = true;
            /* a loop option may refuse a loop nest past its work budget (exit 1) */
            if (w->m[s][v].r.how != RUN_OK && w->m[s][v].r.how != RUN_TIMEOUT &&
                !(loopv && w->m[s][v].r.how == RUN_EXIT && w->m[s][v].r.code == 1))
                c->failures++;
            if (v != V_ADJOINT)
                rm_tree(o);
        }
        /* The adjoint against reading and writing what it reads and writes. */
        if (s == NSIZES - 1 && !files && w->m[s][V_ADJOINT].r.how == RUN_OK) {
            w->copy_in = w->m[s][V_COPY].r;
            w->out_mb = bytes(adj) / 1e6;
            w->copy_out = measure(c, V_COPY, adj, back);
            remove(back);
        }
        remove(adj);
        if (!c->keep)
            rm_tree(in);
    next:
        free(in);
        free(out);
        free(adj);
        free(back);
    }
}

static void
print_tables(const row *rows, int nrows, const result *base)
{
    char buf[64];
    printf("\n| shape | size | input MB | verb | %s | peak MB |\n"
           "|---|---:|---:|---|---:|---:|\n",
           cpu_time ? "CPU seconds" : "seconds");
    for (int i = 0; i < nrows; i++)
        for (int v = 0; v < NVERBS; v++)
            for (int s = 0; s < NSIZES; s++) {
                const cell *m = &rows[i].m[s][v];
                if (!m->done)
                    continue;
                printf("| %s | %ld | %.2f | %s | %s |", xf_shape_name(rows[i].shape),
                       rows[i].size[s], rows[i].in_mb[s], verb_name[v],
                       describe(&m->r, buf, sizeof buf));
                if (m->r.how == RUN_OK)
                    printf(" %.1f |\n", m->r.mb);
                else
                    printf(" – |\n");
            }
    printf("\nGrowth exponents: the least-squares slope of log(seconds), of log(seconds -\n"
           "%.3f s baseline) and of log(peak MB - %.1f MB baseline) against log(size)\n"
           "over the four sizes (the baselines: copy of a 5-statement file), and of\n"
           "log(seconds) over the two largest sizes only.\n\n"
           "| shape | verb | time exponent | time exponent, minus baseline | time exponent, "
           "two largest sizes | memory exponent, minus baseline |\n|---|---|---:|---:|---:|---:|\n",
           base->secs, base->mb);
    for (int i = 0; i < nrows; i++)
        for (int v = 0; v < NVERBS; v++) {
            double t[NSIZES], tb[NSIZES], mem[NSIZES];
            bool ok[NSIZES];
            int used;
            if (!rows[i].m[0][v].done)
                continue;
            for (int s = 0; s < NSIZES; s++) {
                const result *r = &rows[i].m[s][v].r;
                ok[s] = rows[i].m[s][v].done && r->how == RUN_OK;
                t[s] = r->secs;
                tb[s] = r->secs - base->secs;
                mem[s] = r->mb - base->mb;
            }
            printf("| %s | %s |", xf_shape_name(rows[i].shape), verb_name[v]);
            double e = slope(rows[i].size, t, ok, NSIZES, &used);
            print_exp(e, used);
            e = slope(rows[i].size, tb, ok, NSIZES, &used);
            print_exp(e, used);
            e = slope(rows[i].size + 2, t + 2, ok + 2, 2, &used);
            print_exp(e, used + 2);
            e = slope(rows[i].size, mem, ok, NSIZES, &used);
            print_exp(e, used);
            printf("\n");
        }
    printf("\nThe adjoint at the largest size against copying its input and its output\n"
           "(issue 11 asks for a ratio of at most 2):\n\n"
           "| shape | size | adjoint s | copy in s | output MB | copy out s | ratio |\n"
           "|---|---:|---:|---:|---:|---:|---:|\n");
    for (int i = 0; i < nrows; i++) {
        const row *w = &rows[i];
        const result *a = &w->m[NSIZES - 1][V_ADJOINT].r;
        if (w->shape == XF_SHAPE_FILES)
            continue;
        if (a->how != RUN_OK || w->copy_in.how != RUN_OK || w->copy_out.how != RUN_OK) {
            printf("| %s | %ld | %s | – | – | – | – |\n", xf_shape_name(w->shape),
                   w->size[NSIZES - 1], describe(a, buf, sizeof buf));
            continue;
        }
        printf("| %s | %ld | %.3f | %.3f | %.1f | %.3f | %.1f |\n", xf_shape_name(w->shape),
               w->size[NSIZES - 1], a->secs, w->copy_in.secs, w->out_mb, w->copy_out.secs,
               a->secs / (w->copy_in.secs + w->copy_out.secs));
    }
}

/* ---------------------------------------------------------------- main */

static int
parse_sizes(const char *s, long *sizes)
{
    char *end;
    for (int k = 0; k < NSIZES; k++) {
        errno = 0;
        sizes[k] = strtol(s, &end, 10);
        if (errno || end == s || sizes[k] < 1 || sizes[k] > 100000000)
            return -1;
        if (k < NSIZES - 1 && *end != ',')
            return -1;
        s = end + 1;
    }
    return *end ? -1 : 0;
}

static const char *
optarg_of(int argc, char **argv, int *i)
{
    if (*i + 1 >= argc) {
        fprintf(stderr, "xaiform-scale: error: %s needs a value\n", argv[*i]);
        return NULL;
    }
    return argv[++*i];
}

int
main(int argc, char **argv)
{
    ctx c = {.xaiform = XF_SCALE_XAIFORM, .runs = 3, .timeout = 120, .max_mb = 4000, .check = true};
    const char *workdir = NULL;
    bool want[XF_SHAPE_COUNT] = {false}, any = false, runs_given = false, time_only = false;
    char **command = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(usage, stdout);
            return 0;
        } else if (!strcmp(a, "-q") || !strcmp(a, "--quick")) {
            c.quick = true;
        } else if (!strcmp(a, "-k") || !strcmp(a, "--keep")) {
            c.keep = true;
        } else if (!strcmp(a, "--time")) {
            time_only = true;
        } else if (!strcmp(a, "--") && time_only) {
            command = argv + i + 1;
            break;
        } else if (!strcmp(a, "-c") || !strcmp(a, "--cpu")) {
            cpu_time = true;
        } else if (!strcmp(a, "--no-check")) {
            c.check = false;
        } else if (!strcmp(a, "-x") || !strcmp(a, "--xaiform")) {
            if (!(v = optarg_of(argc, argv, &i)))
                return 2;
            c.xaiform = v;
        } else if (!strcmp(a, "-w") || !strcmp(a, "--workdir")) {
            if (!(v = optarg_of(argc, argv, &i)))
                return 2;
            workdir = v;
        } else if (!strcmp(a, "-n") || !strcmp(a, "--runs")) {
            if (!(v = optarg_of(argc, argv, &i)))
                return 2;
            c.runs = atoi(v);
            runs_given = true;
            if (c.runs < 1 || c.runs > 100) {
                fprintf(stderr, "xaiform-scale: error: --runs must be 1 to 100\n");
                return 2;
            }
        } else if (!strcmp(a, "-t") || !strcmp(a, "--timeout")) {
            if (!(v = optarg_of(argc, argv, &i)))
                return 2;
            c.timeout = atof(v);
            if (!(c.timeout > 0 && c.timeout <= 86400)) {
                fprintf(stderr, "xaiform-scale: error: --timeout must be 0 to 86400 seconds\n");
                return 2;
            }
        } else if (!strcmp(a, "-M") || !strcmp(a, "--max-memory")) {
            if (!(v = optarg_of(argc, argv, &i)))
                return 2;
            c.max_mb = atof(v);
            if (!(c.max_mb >= 0)) {
                fprintf(stderr, "xaiform-scale: error: --max-memory must be 0 or more MB\n");
                return 2;
            }
        } else if (!strcmp(a, "-s") || !strcmp(a, "--sizes")) {
            if (!(v = optarg_of(argc, argv, &i)))
                return 2;
            if (parse_sizes(v, c.sizes) != 0) {
                fprintf(stderr, "xaiform-scale: error: --sizes wants four numbers A,B,C,D\n");
                return 2;
            }
            c.own_sizes = true;
        } else if (a[0] == '-') {
            fprintf(stderr, "xaiform-scale: error: unknown option %s\n%s", a, usage);
            return 2;
        } else {
            xf_shape s = xf_shape_find(a);
            if (s == XF_SHAPE_COUNT) {
                fprintf(stderr, "xaiform-scale: error: unknown shape '%s'\n", a);
                return 2;
            }
            want[s] = any = true;
        }
    }
    if (c.quick && !runs_given)
        c.runs = 1;
    if (time_only) {
        if (!command || !*command) {
            fprintf(stderr, "xaiform-scale: error: --time wants -- PROGRAM [ARG...]\n");
            return 2;
        }
        char buf[64];
        result r = best_of(c.runs, command, NULL, c.timeout, c.max_mb);
        if (r.how != RUN_OK) {
            fprintf(stderr, "xaiform-scale: %s: %s\n", command[0], describe(&r, buf, sizeof buf));
            return 1;
        }
        printf("%.4f %.1f\n", r.secs, r.mb);
        return 0;
    }
    char tmpl[] = "xaiform-scale.XXXXXX";
    if (workdir) {
        if (mkdir(workdir, 0777) != 0 && errno != EEXIST) {
            fprintf(stderr, "xaiform-scale: error: %s: %s\n", workdir, strerror(errno));
            return 1;
        }
        c.work = (char *)workdir;
        c.keep = true;
    } else if (!(c.work = mkdtemp(tmpl))) {
        fprintf(stderr, "xaiform-scale: error: cannot make a work folder: %s\n", strerror(errno));
        return 1;
    }

    /* The fixed cost of a process: copy of a 5-statement file. */
    char *tiny = path(&c, "tiny.xaif"), *tiny_out = path(&c, "tiny.out.xaif");
    if (!tiny || !tiny_out || xf_shape_make(tiny, XF_SHAPE_BLOCK, 5) != 0) {
        fprintf(stderr, "xaiform-scale: error: cannot write in %s\n", c.work);
        return 1;
    }
    result base = measure(&c, V_COPY, tiny, tiny_out);
    remove(tiny);
    remove(tiny_out);
    free(tiny);
    free(tiny_out);
    if (base.how != RUN_OK) {
        fprintf(stderr, "xaiform-scale: error: %s copy does not run\n", c.xaiform);
        if (!c.keep)
            rm_tree(c.work);
        return 1;
    }

    printf("xaiform-scale: %s; best of %d run%s, timeout %.0f s; times are %s; baseline: copy "
           "of a 5-statement file takes %.4f s and %.1f MB%s\n\n",
           c.xaiform, c.runs, c.runs == 1 ? "" : "s", c.timeout,
           cpu_time ? "CPU (user + sys)" : "wall clock", base.secs, base.mb,
           c.quick ? " (--quick: small sizes, the times mean nothing)" : "");
    row rows[XF_SHAPE_COUNT];
    int nrows = 0;
    for (int s = 0; s < XF_SHAPE_COUNT; s++) {
        if (any && !want[s])
            continue;
        row *w = &rows[nrows++];
        memset(w, 0, sizeof *w);
        w->shape = (xf_shape)s;
        for (int k = 0; k < NSIZES; k++)
            w->size[k] = c.own_sizes ? c.sizes[k] : c.quick ? quick_sizes[s][k] : full_sizes[s][k];
        fprintf(stderr, "xaiform-scale: %s ...\n", xf_shape_name(w->shape));
        measure_shape(&c, w);
        fflush(stdout);
    }
    print_tables(rows, nrows, &base);
    if (!c.keep)
        rm_tree(c.work);
    return c.failures ? 1 : 0;
}

/* cgrad_cost.c: the run time of a test function of tests/cgrad/ against
 * its tangent and adjoint, through the test's own shim (check.h): linked
 * in place of check.c, it defines xf_check_main and times instead of
 * checking (tools/bench/cgrad-cost.sh builds and runs it).
 *
 * Prints one line: "t_f=SECONDS t_d=SECONDS t_b=SECONDS finite=0|1", the CPU time of
 * one call of the shim's f, of its tangent (F_d) and of its adjoint
 * (F_b), each the best of 5 rounds of enough calls to take about 0.1 s;
 * -1 for a derivative the shim does not have. Not a test: times vary.
 *
 * Two variables of the environment change what it does (cgrad-cost.sh sets
 * them): XF_COST_F_ONLY times f alone (t_d and t_b are -1), to choose a
 * size; XF_COST_REPS=K times nothing and calls f, F_d and F_b K times each,
 * for callgrind to count the instructions of the shim's xf_f, xf_d, xf_b. */
#define _POSIX_C_SOURCE 199309L /* clock_gettime under -std=c99 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"

static int n, m;
static double *x0, *x, *xd, *xb, *y, *yd, *yb;
static xf_fn *f_;
static xf_dfn *d_;
static xf_bfn *b_;
static volatile double sink;

static double
now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* one call of f (0), F_d (1) or F_b (2) at the test's point */
static void
call(int which)
{
    memcpy(x, x0, (size_t)n * sizeof *x);
    for (int i = 0; i < n; i++)
        xd[i] = 1.0, xb[i] = 0.0;
    for (int k = 0; k < m; k++)
        yb[k] = 1.0;
    if (which == 0)
        f_(x, y);
    else if (which == 1)
        d_(x, xd, y, yd);
    else
        b_(x, xb, yb);
    sink += y[0] + yd[0] + xb[0];
}

/* seconds per call of @which */
static double
per_call(int which)
{
    long reps = 1;
    double t;
    for (;;) {
        double t0 = now();
        for (long r = 0; r < reps; r++)
            call(which);
        t = now() - t0;
        if (t > 0.1 || reps > (1L << 30))
            break;
        reps *= 2;
    }
    double best = t / (double)reps;
    for (int round = 0; round < 4; round++) {
        double t0 = now();
        for (long r = 0; r < reps; r++)
            call(which);
        double s = (now() - t0) / (double)reps;
        if (s < best)
            best = s;
    }
    return best;
}

static double *
vec(int k)
{
    double *v = calloc((size_t)(k > 0 ? k : 1), sizeof *v);
    if (!v) {
        fprintf(stderr, "cgrad_cost: out of memory\n");
        exit(2);
    }
    return v;
}

int
xf_check_main(int nn, int mm, void (*point)(double *), xf_fn *f, xf_dfn *d, xf_bfn *b)
{
    n = nn, m = mm, f_ = f, d_ = d, b_ = b;
    x0 = vec(n), x = vec(n), xd = vec(n), xb = vec(n);
    y = vec(m), yd = vec(m), yb = vec(m);
    point(x0);
    const char *reps = getenv("XF_COST_REPS");
    if (reps) {
        long k = strtol(reps, NULL, 10);
        for (int which = 0; which < 3; which++)
            for (long r = 0; r < k && (which == 0 || (which == 1 ? d != NULL : b != NULL)); r++)
                call(which);
        printf("reps=%ld\n", k);
        return 0;
    }
    int f_only = getenv("XF_COST_F_ONLY") != NULL;
    double tf = per_call(0);
    double td = d && !f_only ? per_call(1) : -1;
    double tb = b && !f_only ? per_call(2) : -1;
    printf("t_f=%.6g t_d=%.6g t_b=%.6g finite=%d\n", tf, td, tb, isfinite(sink) != 0);
    return 0;
}

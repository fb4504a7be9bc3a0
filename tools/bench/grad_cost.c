/* grad_cost.c: the run time of a C function F(x, y) against its tangent
 * F_D and adjoint F_B as `xaiform grad` writes them, all compiled with the
 * same flags (tools/bench/grad-cost.sh builds it with -DF= -DF_D= -DF_B=).
 *
 *   grad_cost N M
 *
 * Prints one Markdown row: F, N, M, the CPU time of one call of F in
 * microseconds, and the ratios F_D/F and F_B/F (each the best of 5 rounds
 * of enough calls to take about 0.2 s). Not a test: times vary. */
#define _POSIX_C_SOURCE 199309L /* clock_gettime under -std=c99 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "xaiform/ad.h"

void F(const double *x, double *y);
void F_D(double *x, double *xd, double *y, double *yd);
void F_B(double *x, double *xb, double *y, double *yb);

#define STR2(s) #s
#define STR(s) STR2(s)

static int n, m;
static double *x, *xd, *xb, *y, *yd, *yb;
static volatile double sink;

static double
now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void
call(int which)
{
    for (int i = 0; i < n; i++)
        x[i] = (i + 1) / 2.0 + 0.0625, xd[i] = 1.0, xb[i] = 0.0;
    for (int k = 0; k < m; k++)
        yb[k] = 1.0;
    if (which == 0)
        F(x, y);
    else if (which == 1)
        F_D(x, xd, y, yd);
    else
        F_B(x, xb, y, yb);
    sink += y[0] + yd[0] + xb[0];
}

/* Seconds per call of @which. */
static double
per_call(int which)
{
    long reps = 1;
    double t;
    for (;;) { /* calls for about 0.2 s */
        double t0 = now();
        for (long r = 0; r < reps; r++)
            call(which);
        t = now() - t0;
        if (t > 0.2 || reps > (1L << 30))
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

int
main(int argc, char **argv)
{
    if (argc != 3)
        return 2;
    n = atoi(argv[1]);
    m = atoi(argv[2]);
    x = calloc((size_t)n, sizeof *x), xd = calloc((size_t)n, sizeof *xd);
    xb = calloc((size_t)n, sizeof *xb), y = calloc((size_t)m, sizeof *y);
    yd = calloc((size_t)m, sizeof *yd), yb = calloc((size_t)m, sizeof *yb);
    double f = per_call(0), d = per_call(1), b = per_call(2);
    printf("| %s | %d | %d | %.3f | %.2f | %.2f |\n", STR(F), n, m, f * 1e6, d / f, b / f);
    xf_ad_release();
    return 0;
}

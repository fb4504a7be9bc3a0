/* rt_check.h: checks of derivative code whose sizes are known only at run
 * time (tests/grad/rt.sh). A test's main wraps its function, F_d and F_b
 * as y = F(x), yd = J xd, xb += J^T yb over flat vectors of nx inputs and
 * ny outputs, the sizes in globals of its own, and calls rt_check for
 * several sizes. Every vector is malloc'ed at its exact size, so that a
 * read or write past it is caught under AddressSanitizer. */
#ifndef RT_CHECK_H
#define RT_CHECK_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "xaiform/ad.h"

/* How the generated code takes an int parameter: by value, as the user's
 * function does (docs/c-backend.md, "C interfaces"). */
#ifndef RT_INT
#define RT_INT int
#define RT_IARG(v) (v)
#define RT_IPARAM RT_INT
#endif

typedef void (*rt_f)(const double *x, double *y);
typedef void (*rt_fd)(const double *x, const double *xd, double *y, double *yd);
typedef void (*rt_fb)(const double *x, double *xb, double *y, double *yb);

static unsigned long rt_seed = 12345;
static double
rt_rand(void)
{
    rt_seed = rt_seed * 6364136223846793005UL + 1442695040888963407UL;
    return (double)(rt_seed >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

static double *
rt_vec(int n)
{
    double *v = calloc((size_t)(n > 0 ? n : 1), sizeof *v);
    if (!v) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    return v;
}

/* 0 when the tangent agrees with central differences (1e-6 relative), the
 * adjoint with the tangent by the dot-product test (1e-12), and yb is
 * consumed; 1 otherwise. */
static int
rt_check(const char *name, int nx, int ny, const double *x0, rt_f f, rt_fd fd, rt_fb fb)
{
    double *x = rt_vec(nx), *xd = rt_vec(nx), *xb = rt_vec(nx), *xp = rt_vec(nx);
    double *y = rt_vec(ny), *yd = rt_vec(ny), *yb = rt_vec(ny), *yp = rt_vec(ny), *ym = rt_vec(ny),
           *ybs = rt_vec(ny);
    int bad = 0;
    double worst_dd = 0, worst_dot = 0;
    for (int j = 0; j < nx; j++) { /* column j: tangent against central differences */
        for (int i = 0; i < nx; i++)
            x[i] = x0[i], xd[i] = i == j;
        fd(x, xd, y, yd);
        double h = 1e-6 * (fabs(x0[j]) > 1 ? fabs(x0[j]) : 1);
        for (int i = 0; i < nx; i++)
            xp[i] = x0[i];
        xp[j] = x0[j] + h;
        f(xp, yp);
        xp[j] = x0[j] - h;
        f(xp, ym);
        for (int i = 0; i < ny; i++) {
            double dd = (yp[i] - ym[i]) / (2 * h), e = fabs(dd - yd[i]) / (fabs(dd) + 1);
            if (e > worst_dd)
                worst_dd = e;
        }
    }
    for (int round = 0; round < 3; round++) { /* <yb, J xd> = <J^T yb, xd> */
        for (int i = 0; i < nx; i++)
            x[i] = x0[i], xd[i] = rt_rand(), xb[i] = 0;
        for (int i = 0; i < ny; i++)
            ybs[i] = yb[i] = rt_rand();
        fd(x, xd, y, yd);
        for (int i = 0; i < nx; i++)
            x[i] = x0[i];
        fb(x, xb, y, yb);
        double l = 0, r = 0, s = 0;
        for (int i = 0; i < ny; i++) {
            l += ybs[i] * yd[i];
            s += fabs(ybs[i] * yd[i]);
            if (yb[i] != 0)
                bad = 1;
        }
        for (int i = 0; i < nx; i++) {
            r += xb[i] * xd[i];
            s += fabs(xb[i] * xd[i]);
        }
        double e = fabs(l - r) / (s > 0 ? s : 1);
        if (e > worst_dot)
            worst_dot = e;
        if (xf_ad_words() != 0)
            bad = 1;
    }
    bad = bad || worst_dd > 1e-6 || worst_dot > 1e-12;
    printf("%s nx=%d ny=%d: dd %.1e dot %.1e %s\n", name, nx, ny, worst_dd, worst_dot,
           bad ? "FAIL" : "ok");
    free(x), free(xd), free(xb), free(xp), free(y), free(yd), free(yb), free(yp), free(ym),
        free(ybs);
    return bad;
}

#endif

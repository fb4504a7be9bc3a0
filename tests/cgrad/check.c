/* check.c: the checks of tests/cgrad/ (check.h), on the shim of one test.
 * At the test's point x0, one line each:
 *  tangent  (F_d) every column of the Jacobian equals central differences
 *           of the compiled function, 1e-6 relative to the column's
 *           largest entry (h = 1e-6 max(|x0_j|, 1)); the value y of F_d is
 *           f's to 1e-12; x is left as it was
 *  dot      (F_d and F_b) <yb, J xd> = <J^T yb, xd> to 1e-12 relative for
 *           5 random pairs, where J^T yb is what F_b adds to a random xb
 *           (so xb accumulates); x is left as it was
 *  adjoint  (F_b, no F_d) J^T yb against central differences, 1e-6
 *  f        (always) f's outputs at the point are finite
 * Exit status 0 when all hold. */
#include "check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long long state = 88172645463325252ULL;

static double
uniform(void)
{
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(state >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

static double *
vec(int n)
{
    double *v = calloc((size_t)(n > 0 ? n : 1), sizeof *v);
    if (!v) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    return v;
}

static int
same(const double *a, const double *b, int n)
{
    return memcmp(a, b, (size_t)n * sizeof *a) == 0;
}

/* column j of J by central differences of f at x0 */
static void
column(int n, int m, xf_fn *f, const double *x0, int j, double *x, double *ya, double *yc,
       double *col)
{
    double h = 1e-6 * fmax(fabs(x0[j]), 1);
    memcpy(x, x0, (size_t)n * sizeof *x);
    x[j] = x0[j] + h;
    f(x, ya);
    x[j] = x0[j] - h;
    f(x, yc);
    for (int k = 0; k < m; k++)
        col[k] = (ya[k] - yc[k]) / (2 * h);
}

int
xf_check_main(int n, int m, void (*point)(double *), xf_fn *f, xf_dfn *d, xf_bfn *b)
{
    double *x0 = vec(n), *x = vec(n), *xd = vec(n), *xb = vec(n), *xb0 = vec(n);
    double *y = vec(m), *y0 = vec(m), *yd = vec(m), *yb = vec(m), *yb0 = vec(m);
    double *ya = vec(m), *yc = vec(m), *col = vec(m), *g = vec(n);
    int bad = 0;
    point(x0);
    memcpy(x, x0, (size_t)n * sizeof *x);
    f(x, y0);
    for (int k = 0; k < m; k++)
        if (!isfinite(y0[k])) {
            printf("check f FAIL y[%d] = %g at the test's point\n", k, y0[k]);
            bad = 1;
        }
    if (d) {
        double worst = 0, vworst = 0;
        int moved = 0;
        for (int j = 0; j < n; j++) {
            memcpy(x, x0, (size_t)n * sizeof *x);
            for (int i = 0; i < n; i++)
                xd[i] = i == j;
            d(x, xd, y, yd);
            moved |= !same(x, x0, n);
            for (int k = 0; k < m; k++)
                vworst = fmax(vworst, fabs(y[k] - y0[k]) / fmax(fabs(y0[k]), 1e-300));
            column(n, m, f, x0, j, x, ya, yc, col);
            double scale = 1e-300, err = 0;
            for (int k = 0; k < m; k++)
                scale = fmax(scale, fabs(col[k]));
            for (int k = 0; k < m; k++)
                err = fmax(err, fabs(col[k] - yd[k]) / scale);
            worst = fmax(worst, err);
        }
        int ok = worst <= 1e-6 && vworst <= 1e-12 && !moved;
        printf("check tangent %s worst %.2e value %.2e%s\n", ok ? "ok" : "FAIL", worst, vworst,
               moved ? " x-changed" : "");
        bad |= !ok;
    }
    if (b && d) {
        double worst = 0;
        int moved = 0;
        for (int s = 0; s < 5; s++) {
            for (int i = 0; i < n; i++)
                xd[i] = uniform(), xb[i] = xb0[i] = uniform();
            for (int k = 0; k < m; k++)
                yb[k] = yb0[k] = uniform();
            memcpy(x, x0, (size_t)n * sizeof *x);
            d(x, xd, y, yd);
            memcpy(x, x0, (size_t)n * sizeof *x);
            b(x, xb, yb);
            moved |= !same(x, x0, n);
            double l = 0, r = 0, mag = 0;
            for (int k = 0; k < m; k++)
                l += yb0[k] * yd[k], mag += fabs(yb0[k] * yd[k]);
            for (int i = 0; i < n; i++)
                r += (xb[i] - xb0[i]) * xd[i], mag += fabs((xb[i] - xb0[i]) * xd[i]);
            worst = fmax(worst, fabs(l - r) / (mag > 0 ? mag : 1));
        }
        int ok = worst <= 1e-12 && !moved;
        printf("check dot %s worst %.2e%s\n", ok ? "ok" : "FAIL", worst, moved ? " x-changed" : "");
        bad |= !ok;
    } else if (b) {
        for (int i = 0; i < n; i++)
            xb[i] = xb0[i] = uniform();
        for (int k = 0; k < m; k++)
            yb[k] = yb0[k] = uniform();
        memcpy(x, x0, (size_t)n * sizeof *x);
        b(x, xb, yb);
        int moved = !same(x, x0, n);
        double scale = 1e-300, worst = 0;
        for (int j = 0; j < n; j++) {
            column(n, m, f, x0, j, x, ya, yc, col);
            g[j] = 0;
            for (int k = 0; k < m; k++)
                g[j] += col[k] * yb0[k];
            scale = fmax(scale, fabs(g[j]));
        }
        for (int j = 0; j < n; j++)
            worst = fmax(worst, fabs(xb[j] - xb0[j] - g[j]) / scale);
        int ok = worst <= 1e-6 && !moved;
        printf("check adjoint %s worst %.2e%s\n", ok ? "ok" : "FAIL", worst,
               moved ? " x-changed" : "");
        bad |= !ok;
    }
    free(x0), free(x), free(xd), free(xb), free(xb0), free(y), free(y0), free(yd);
    free(yb), free(yb0), free(ya), free(yc), free(col), free(g);
    return bad;
}

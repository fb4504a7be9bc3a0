/* check.c: checks the C that `xaiform grad` wrote for a function
 * F(const double x[N], double y[M]): its tangent F_D(x, xd, y, yd) and its
 * adjoint F_B(x, xb, y, yb), named by -DF=, -DF_D=, -DF_B=.
 *
 *   check N M SEEDS
 *
 * At x0(i) = (i+1)/2 + 1/16 (off the half-integers of OpenAD's driver, where
 * the (int) casts and data-dependent trip counts of the tests jump), one line each:
 *  tangent  every column of the Jacobian by F_D equals central differences
 *           of F, to 1e-6 relative to the column's largest entry (h = 1e-6
 *           relative to |x0(i)|)
 *  dot      <yb, J xd> = <J^T yb, xd> to 1e-12 relative, for SEEDS random
 *           pairs (xd, yb); F_B consumes yb (zero afterwards)
 * Exit status 0 when both hold. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void F(const double *x, double *y);
/* as grad writes them for F(const double x[N], double y[M]): const kept */
void F_D(const double *x, const double *xd, double *y, double *yd);
void F_B(const double *x, double *xb, double *y, double *yb);

static unsigned long long state = 88172645463325252ULL;

static double
uniform(void)
{
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(state >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

int
main(int argc, char **argv)
{
    if (argc != 4)
        return 2;
    int n = atoi(argv[1]), m = atoi(argv[2]), seeds = atoi(argv[3]);
    double *x = calloc((size_t)n, sizeof *x), *xd = calloc((size_t)n, sizeof *xd);
    double *xb = calloc((size_t)n, sizeof *xb), *xp = calloc((size_t)n, sizeof *xp);
    double *y = calloc((size_t)m, sizeof *y), *yd = calloc((size_t)m, sizeof *yd);
    double *yb = calloc((size_t)m, sizeof *yb), *yb0 = calloc((size_t)m, sizeof *yb0);
    double *ya = calloc((size_t)m, sizeof *ya), *yc = calloc((size_t)m, sizeof *yc);
    int bad = 0;
    double worst = 0;
    for (int j = 0; j < n; j++) { /* column j of J */
        for (int i = 0; i < n; i++)
            x[i] = (i + 1) / 2.0 + 0.0625, xd[i] = i == j;
        F_D(x, xd, y, yd);
        double h = 1e-6 * fabs(x[j] != 0 ? x[j] : 1);
        memcpy(xp, x, (size_t)n * sizeof *x);
        xp[j] = x[j] + h;
        F(xp, ya);
        xp[j] = x[j] - h;
        F(xp, yc);
        double scale = 1e-300, err = 0;
        for (int k = 0; k < m; k++)
            scale = fmax(scale, fabs(yd[k]));
        for (int k = 0; k < m; k++)
            err = fmax(err, fabs((ya[k] - yc[k]) / (2 * h) - yd[k]) / scale);
        worst = fmax(worst, err);
    }
    printf("check tangent %s worst %.2e\n", worst <= 1e-6 ? "ok" : "FAIL", worst);
    bad |= worst > 1e-6;
    double dworst = 0;
    for (int s = 0; s < seeds; s++) {
        for (int i = 0; i < n; i++)
            x[i] = (i + 1) / 2.0 + 0.0625, xd[i] = uniform(), xb[i] = 0;
        for (int k = 0; k < m; k++)
            yb[k] = yb0[k] = uniform();
        F_D(x, xd, y, yd);
        for (int i = 0; i < n; i++)
            x[i] = (i + 1) / 2.0 + 0.0625;
        F_B(x, xb, y, yb);
        double l = 0, r = 0, mag = 0;
        for (int k = 0; k < m; k++) {
            l += yb0[k] * yd[k], mag += fabs(yb0[k] * yd[k]);
            if (yb[k] != 0)
                bad |= 1, printf("check consumed FAIL yb[%d] = %g after F_B\n", k, yb[k]);
        }
        for (int i = 0; i < n; i++)
            r += xb[i] * xd[i], mag += fabs(xb[i] * xd[i]);
        dworst = fmax(dworst, fabs(l - r) / (mag > 0 ? mag : 1));
    }
    printf("check dot %s worst %.2e\n", dworst <= 1e-12 ? "ok" : "FAIL", dworst);
    bad |= dworst > 1e-12;
    return bad;
}

#include <string.h>

#include "rt_check.h"

void vla(int n, int m, const double a[n][m], const double x[m], double y[n]);
void vla_d(RT_IPARAM n, RT_IPARAM m, double *a, double *ad, double *x, double *xd, double *y,
           double *yd);
void vla_b(RT_IPARAM n, RT_IPARAM m, double *a, double *ab, double *x, double *xb, double *y,
           double *yb);

/* the inputs are a (n*m, row-major) then x (m), one flat vector */
static RT_INT N, M;
static void
f(const double *x, double *y)
{
    int n = (int)N, m = (int)M;
    vla(n, m, (const double(*)[m])x, x + n * m, y);
}
static void
fd(const double *x, const double *xd, double *y, double *yd)
{
    vla_d(RT_IARG(N), RT_IARG(M), (double *)x, (double *)xd, (double *)x + N * M,
          (double *)xd + N * M, y, yd);
}
static void
fb(const double *x, double *xb, double *y, double *yb)
{
    vla_b(RT_IARG(N), RT_IARG(M), (double *)x, xb, (double *)x + N * M, xb + N * M, y, yb);
}

int
main(void)
{
    static const int sizes[][2] = {{1, 1}, {2, 3}, {4, 2}, {3, 5}};
    int bad = 0;
    for (int k = 0; k < 4; k++) {
        N = sizes[k][0], M = sizes[k][1];
        int nx = (int)(N * M + M);
        double *x0 = rt_vec(nx);
        for (int i = 0; i < nx; i++)
            x0[i] = 0.1 + 0.07 * i - 0.02 * (i % 3);
        bad |= rt_check("vla", nx, (int)N, x0, f, fd, fb);
        free(x0);
    }
    xf_ad_release();
    return bad;
}

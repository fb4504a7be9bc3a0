#include "rt_check.h"

void rowptr(const double *x, double *y, int n, int d);
void rowptr_d(double *x, double *xd, double *y, double *yd, RT_IPARAM n, RT_IPARAM d);
void rowptr_b(double *x, double *xb, double *y, double *yb, RT_IPARAM n, RT_IPARAM d);

static RT_INT N, D;
static void
f(const double *x, double *y)
{
    rowptr(x, y, (int)N, (int)D);
}
static void
fd(const double *x, const double *xd, double *y, double *yd)
{
    rowptr_d((double *)x, (double *)xd, y, yd, RT_IARG(N), RT_IARG(D));
}
static void
fb(const double *x, double *xb, double *y, double *yb)
{
    rowptr_b((double *)x, xb, y, yb, RT_IARG(N), RT_IARG(D));
}

int
main(void)
{
    static const int sizes[][2] = {{3, 1}, {2, 3}, {4, 2}, {5, 3}};
    int bad = 0;
    for (int k = 0; k < 4; k++) {
        N = sizes[k][0], D = sizes[k][1];
        double *x0 = rt_vec((int)(N * D));
        for (int i = 0; i < N * D; i++)
            x0[i] = 0.3 + 0.05 * i - 0.01 * (i % 4);
        bad |= rt_check("rowptr", (int)(N * D), (int)N, x0, f, fd, fb);
        free(x0);
    }
    xf_ad_release();
    return bad;
}

#include "rt_check.h"

void rows(const double *x, double *y, int n, int d);
void rows_d(double *x, double *xd, double *y, double *yd, RT_IPARAM n, RT_IPARAM d);
void rows_b(double *x, double *xb, double *y, double *yb, RT_IPARAM n, RT_IPARAM d);

static RT_INT N, D;
static void
f(const double *x, double *y)
{
    rows(x, y, (int)N, (int)D);
}
static void
fd(const double *x, const double *xd, double *y, double *yd)
{
    rows_d((double *)x, (double *)xd, y, yd, RT_IARG(N), RT_IARG(D));
}
static void
fb(const double *x, double *xb, double *y, double *yb)
{
    rows_b((double *)x, xb, y, yb, RT_IARG(N), RT_IARG(D));
}

int
main(void)
{
    static const int sizes[][2] = {{1, 1}, {3, 2}, {2, 5}, {7, 3}};
    int bad = 0;
    for (int k = 0; k < 4; k++) {
        N = sizes[k][0], D = sizes[k][1];
        double *x0 = rt_vec((int)(N * D));
        for (int i = 0; i < N * D; i++)
            x0[i] = 0.2 + 0.05 * i;
        bad |= rt_check("rows", (int)(N * D), (int)N, x0, f, fd, fb);
        free(x0);
    }
    xf_ad_release();
    return bad;
}

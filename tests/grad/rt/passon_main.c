#include "rt_check.h"

void passon(const double *x, double *y, int n, int d);
void passon_d(const double *x, const double *xd, double *y, double *yd, RT_IPARAM n, RT_IPARAM d);
void passon_b(const double *x, double *xb, double *y, double *yb, RT_IPARAM n, RT_IPARAM d);

static RT_INT N, D;
static void
f(const double *x, double *y)
{
    passon(x, y, (int)N, (int)D);
}
static void
fd(const double *x, const double *xd, double *y, double *yd)
{
    passon_d(x, xd, y, yd, RT_IARG(N), RT_IARG(D));
}
static void
fb(const double *x, double *xb, double *y, double *yb)
{
    passon_b(x, xb, y, yb, RT_IARG(N), RT_IARG(D));
}

int
main(void)
{
    static const int sizes[][2] = {{1, 3}, {2, 4}, {3, 5}, {2, 7}};
    int bad = 0;
    for (int k = 0; k < 4; k++) {
        N = sizes[k][0], D = sizes[k][1];
        double *x0 = rt_vec((int)(N * D));
        for (int i = 0; i < N * D; i++)
            x0[i] = 0.4 + 0.03 * i - 0.05 * (i % 5);
        bad |= rt_check("passon", (int)(N * D), (int)(N + 2), x0, f, fd, fb);
        free(x0);
    }
    xf_ad_release();
    return bad;
}

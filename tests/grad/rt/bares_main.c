#include "rt_check.h"

void bares(const double *cams, double *err, int n, int p);
void bares_d(double *cams, double *camsd, double *err, double *errd, RT_IPARAM n, RT_IPARAM p);
void bares_b(double *cams, double *camsb, double *err, double *errb, RT_IPARAM n, RT_IPARAM p);

static RT_INT N, P;
static void
f(const double *x, double *y)
{
    bares(x, y, (int)N, (int)P);
}
static void
fd(const double *x, const double *xd, double *y, double *yd)
{
    bares_d((double *)x, (double *)xd, y, yd, RT_IARG(N), RT_IARG(P));
}
static void
fb(const double *x, double *xb, double *y, double *yb)
{
    bares_b((double *)x, xb, y, yb, RT_IARG(N), RT_IARG(P));
}

int
main(void)
{
    static const int sizes[][2] = {{1, 1}, {2, 3}, {3, 2}, {2, 5}};
    int bad = 0;
    for (int k = 0; k < 4; k++) {
        N = sizes[k][0], P = sizes[k][1];
        double *x0 = rt_vec((int)(N * 11));
        for (int i = 0; i < N * 11; i++)
            x0[i] = 0.4 + 0.03 * i - 0.05 * (i % 5);
        bad |= rt_check("bares", (int)(N * 11), (int)(4 * P), x0, f, fd, fb);
        free(x0);
    }
    xf_ad_release();
    return bad;
}

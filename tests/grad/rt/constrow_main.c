#include "rt_check.h"

void constrow(const double *x, const double *p, double *y, int n, int d);
void constrow_d(const double *x, const double *xd, const double *p, double *y, double *yd,
                RT_IPARAM n, RT_IPARAM d);
void constrow_b(const double *x, double *xb, const double *p, double *y, double *yb, RT_IPARAM n,
                RT_IPARAM d);

/* in read-only memory: any write to it by the generated code is a crash */
static const double P[24] = {0.3, -1.2, 0.8,  2.0, -0.4, 1.1, 0.0,  0.6,  -0.9, 1.7, 0.2,  -0.3,
                             1.4, 0.5,  -1.0, 0.9, 0.1,  0.7, -0.6, -1.5, 1.2,  0.4, -0.2, 0.8};
static RT_INT N, D;
static void
f(const double *x, double *y)
{
    constrow(x, P, y, (int)N, (int)D);
}
static void
fd(const double *x, const double *xd, double *y, double *yd)
{
    constrow_d(x, xd, P, y, yd, RT_IARG(N), RT_IARG(D));
}
static void
fb(const double *x, double *xb, double *y, double *yb)
{
    constrow_b(x, xb, P, y, yb, RT_IARG(N), RT_IARG(D));
}

int
main(void)
{
    static const int sizes[][2] = {{1, 1}, {3, 2}, {2, 5}, {4, 6}};
    int bad = 0;
    for (int k = 0; k < 4; k++) {
        N = sizes[k][0], D = sizes[k][1];
        double *x0 = rt_vec((int)(N * D));
        for (int i = 0; i < N * D; i++)
            x0[i] = 0.2 + 0.05 * i;
        bad |= rt_check("constrow", (int)(N * D), (int)N, x0, f, fd, fb);
        free(x0);
    }
    xf_ad_release();
    return bad;
}

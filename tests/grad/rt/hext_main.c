#include "rt_check.h"

void hext(const double *x, double *y, int n);
void hext_d(const double *x, const double *xd, double *y, double *yd, RT_IPARAM n);
void hext_b(const double *x, double *xb, double *y, double *yb, RT_IPARAM n);

static RT_INT N;
static void
f(const double *x, double *y)
{
    hext(x, y, (int)N);
}
static void
fd(const double *x, const double *xd, double *y, double *yd)
{
    hext_d(x, xd, y, yd, RT_IARG(N));
}
static void
fb(const double *x, double *xb, double *y, double *yb)
{
    hext_b(x, xb, y, yb, RT_IARG(N));
}

int
main(void)
{
    static const int sizes[] = {2, 3, 5, 8};
    int bad = 0;
    for (int k = 0; k < 4; k++) {
        N = sizes[k];
        double *x0 = rt_vec((int)N);
        for (int i = 0; i < N; i++)
            x0[i] = 0.4 + 0.03 * i - 0.05 * (i % 5);
        bad |= rt_check("hext", (int)N, (int)(N - 1), x0, f, fd, fb);
        free(x0);
    }
    xf_ad_release();
    return bad;
}

#include "rt_check.h"

void work(const double *x, double *y, int n);
void work_d(double *x, double *xd, double *y, double *yd, RT_IPARAM n);
void work_b(double *x, double *xb, double *y, double *yb, RT_IPARAM n);

static RT_INT N;
static void
f(const double *x, double *y)
{
    work(x, y, (int)N);
}
static void
fd(const double *x, const double *xd, double *y, double *yd)
{
    work_d((double *)x, (double *)xd, y, yd, RT_IARG(N));
}
static void
fb(const double *x, double *xb, double *y, double *yb)
{
    work_b((double *)x, xb, y, yb, RT_IARG(N));
}

int
main(void)
{
    static const int sizes[] = {1, 2, 5, 9};
    int bad = 0;
    for (int k = 0; k < 4; k++) {
        N = sizes[k];
        double *x0 = rt_vec((int)N);
        for (int i = 0; i < N; i++)
            x0[i] = 0.3 + 0.05 * i - 0.01 * (i % 4);
        bad |= rt_check("work", (int)N, (int)N, x0, f, fd, fb);
        free(x0);
    }
    xf_ad_release();
    return bad;
}

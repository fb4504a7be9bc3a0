#include "rt_check.h"

void negpart(const double *a, double *l, int n);
void negpart_d(double *a, double *ad, double *l, double *ld, RT_IPARAM n);
void negpart_b(double *a, double *ab, double *l, double *lb, RT_IPARAM n);

static RT_INT N;
static void
f(const double *x, double *y)
{
    negpart(x, y, (int)N);
}
static void
fd(const double *x, const double *xd, double *y, double *yd)
{
    negpart_d((double *)x, (double *)xd, y, yd, RT_IARG(N));
}
static void
fb(const double *x, double *xb, double *y, double *yb)
{
    negpart_b((double *)x, xb, y, yb, RT_IARG(N));
}

int
main(void)
{
    static const int sizes[] = {1, 2, 4};
    int bad = 0;
    for (int k = 0; k < 3; k++) {
        N = sizes[k];
        double *x0 = rt_vec((int)(N * N));
        for (int i = 0; i < N * N; i++)
            x0[i] = 1.5 + 0.1 * i;
        bad |= rt_check("negpart", (int)(N * N), (int)(N * N), x0, f, fd, fb);
        free(x0);
    }
    xf_ad_release();
    return bad;
}

#include "rt_check.h"

void names(const double *x, const char **labels, double *y, int n, void *ctx);
void names_d(const double *x, const double *xd, const char **labels, double *y, double *yd,
             RT_IPARAM n, void *ctx);
void names_b(const double *x, double *xb, const char **labels, double *y, double *yb, RT_IPARAM n,
             void *ctx);

static const char *labels[] = {"a", "b", "c", "d", "e", "f", "g", "h"};
static RT_INT N;
static void
f(const double *x, double *y)
{
    names(x, labels, y, (int)N, NULL);
}
static void
fd(const double *x, const double *xd, double *y, double *yd)
{
    names_d(x, xd, labels, y, yd, RT_IARG(N), NULL);
}
static void
fb(const double *x, double *xb, double *y, double *yb)
{
    names_b(x, xb, labels, y, yb, RT_IARG(N), NULL);
}

int
main(void)
{
    static const int sizes[] = {1, 2, 5, 8};
    int bad = 0;
    for (int k = 0; k < 4; k++) {
        N = sizes[k];
        double *x0 = rt_vec((int)N);
        for (int i = 0; i < N; i++)
            x0[i] = 0.4 + 0.03 * i - 0.05 * (i % 5);
        bad |= rt_check("names", (int)N, (int)N, x0, f, fd, fb);
        free(x0);
    }
    xf_ad_release();
    return bad;
}

/* cgrad: logsumexp --independent x --dependent logsumexp --extent x=n */
/* log(sum exp(x_i)), shifted by the largest entry, found by a helper. */
#include <math.h>

static double
arr_max(int n, const double *x)
{
    double m = x[0];
    for (int i = 1; i < n; i++)
        if (x[i] > m)
            m = x[i];
    return m;
}

double
logsumexp(int n, const double *x)
{
    double mx = arr_max(n, x), s = 0.0;
    for (int i = 0; i < n; i++)
        s += exp(x[i] - mx);
    return log(s) + mx;
}

#ifdef XF_CHECK
#include "check.h"
double logsumexp_d(int n, const double *x, const double *xd, double *logsumexp);
void logsumexp_b(int n, const double *x, double *xb, double logsumexpb);
enum { N = 6 * XF_SCALE };
XF_SIZES(N, 1)
XF_POINT(x)
{
    for (int i = 0; i < N; i++)
        x[i] = 0.7 * (i % 6) - 0.4 * (i % 3); /* no exp underflowing at larger scales */
}
XF_F(x, y)
{
    y[0] = logsumexp(N, x);
}
XF_D(x, xd, y, yd)
{
    yd[0] = logsumexp_d(N, x, xd, &y[0]);
}
XF_B(x, xb, yb)
{
    logsumexp_b(N, x, xb, yb[0]);
}
XF_MAIN
#endif

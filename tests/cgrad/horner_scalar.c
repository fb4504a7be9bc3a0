/* cgrad: horner --independent t,c --dependent horner --extent c=n */
/* Horner's rule with the argument first, a by-value scalar, and the
 * coefficients after it: the signature of the example. */
double
horner(double t, const double *c, int n)
{
    double s = c[n - 1];
    for (int i = n - 2; i >= 0; i--)
        s = s * t + c[i];
    return s;
}

#ifdef XF_CHECK
#include "check.h"
double horner_d(double t, double td, const double *c, const double *cd, int n, double *horner);
void horner_b(double t, double *tb, const double *c, double *cb, int n, double hornerb);
enum { N = 6 };
XF_SIZES(1 + N, 1)
XF_POINT(x)
{
    x[0] = 0.7;
    for (int i = 0; i < N; i++)
        x[1 + i] = 0.5 * i - 1.0;
}
XF_F(x, y)
{
    y[0] = horner(x[0], x + 1, N);
}
XF_D(x, xd, y, yd)
{
    yd[0] = horner_d(x[0], xd[0], x + 1, xd + 1, N, &y[0]);
}
XF_B(x, xb, yb)
{
    horner_b(x[0], &xb[0], x + 1, xb + 1, N, yb[0]);
}
XF_MAIN
#endif

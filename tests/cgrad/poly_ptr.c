/* cgrad: poly_eval --independent c,t --dependent poly_eval --extent c=n */
/* A polynomial of degree n-1 by Horner's rule, walking the coefficients
 * from the end with a pointer: c[0] + c[1] t + ... + c[n-1] t^(n-1). */
double
poly_eval(int n, const double *c, double t)
{
    const double *p = c + n;
    double s = 0.0;
    while (p > c)
        s = s * t + *--p;
    return s;
}

#ifdef XF_CHECK
#include "check.h"
double poly_eval_d(int n, const double *c, const double *cd, double t, double td,
                   double *poly_eval);
void poly_eval_b(int n, const double *c, double *cb, double t, double *tb, double poly_evalb);
enum { N = 5 };
XF_SIZES(N + 1, 1)
XF_POINT(x)
{
    for (int i = 0; i < N; i++)
        x[i] = 1.0 - 0.3 * i;
    x[N] = 0.8;
}
XF_F(x, y)
{
    y[0] = poly_eval(N, x, x[N]);
}
XF_D(x, xd, y, yd)
{
    yd[0] = poly_eval_d(N, x, xd, x[N], xd[N], &y[0]);
}
XF_B(x, xb, yb)
{
    poly_eval_b(N, x, xb, x[N], &xb[N], yb[0]);
}
XF_MAIN
#endif

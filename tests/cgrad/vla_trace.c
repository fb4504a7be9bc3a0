/* cgrad: trace_product --independent a,b --dependent trace_product */
/* trace(A B) for n x n matrices passed as C99 variable-length array
 * parameters. */
double
trace_product(int n, const double a[n][n], const double b[n][n])
{
    double t = 0.0;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < n; k++)
            t += a[i][k] * b[k][i];
    return t;
}

#ifdef XF_CHECK
#include "check.h"
double trace_product_d(int n, const double a[n][n], const double ad[n][n], const double b[n][n],
                       const double bd[n][n], double *trace_product);
void trace_product_b(int n, const double a[n][n], double ab[n][n], const double b[n][n],
                     double bb[n][n], double trace_productb);
enum { N = 3 * XF_SCALE };
XF_SIZES(2 * N * N, 1)
XF_POINT(x)
{
    for (int i = 0; i < 2 * N * N; i++)
        x[i] = 0.1 * i - 0.5 + 0.3 * (i % 4);
}
XF_F(x, y)
{
    y[0] = trace_product(N, (const double(*)[N])x, (const double(*)[N])(x + N * N));
}
XF_D(x, xd, y, yd)
{
    yd[0] =
        trace_product_d(N, (const double(*)[N])x, (const double(*)[N])xd,
                        (const double(*)[N])(x + N * N), (const double(*)[N])(xd + N * N), &y[0]);
}
XF_B(x, xb, yb)
{
    trace_product_b(N, (const double(*)[N])x, (double(*)[N])xb, (const double(*)[N])(x + N * N),
                    (double(*)[N])(xb + N * N), yb[0]);
}
XF_MAIN
#endif

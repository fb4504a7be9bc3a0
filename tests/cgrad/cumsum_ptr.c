/* cgrad: cumsum --independent x --dependent y --extent x=n,y=n */
/* Running sums of squares, written with pointer increments on input and
 * output: *y++ = s. */
void
cumsum(int n, const double *x, double *y)
{
    double s = 0.0;
    const double *end = x + n;
    while (x < end) {
        s += *x * *x;
        x++;
        *y++ = s;
    }
}

#ifdef XF_CHECK
#include "check.h"
void cumsum_d(int n, const double *x, const double *xd, double *y, double *yd);
void cumsum_b(int n, const double *x, double *xb, double *y, double *yb);
enum { N = 6 };
XF_SIZES(N, N)
XF_POINT(x)
{
    for (int i = 0; i < N; i++)
        x[i] = 1.1 - 0.35 * i;
}
XF_F(x, y)
{
    cumsum(N, x, y);
}
XF_D(x, xd, y, yd)
{
    cumsum_d(N, x, xd, y, yd);
}
XF_B(x, xb, yb)
{
    cumsum_b(N, x, xb, (double[N]){0}, yb);
}
XF_MAIN
#endif

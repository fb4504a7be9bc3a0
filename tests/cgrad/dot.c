/* cgrad: dot --independent a,b --dependent dot */
/* The dot product of two vectors of runtime length n, returned. */
double
dot(int n, const double *a, const double *b)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += a[i] * b[i];
    return s;
}

#ifdef XF_CHECK
#include "check.h"
double dot_d(int n, const double *a, const double *ad, const double *b, const double *bd,
             double *dot);
void dot_b(int n, const double *a, double *ab, const double *b, double *bb, double dotb);
enum { N = 7 * XF_SCALE };
XF_SIZES(2 * N, 1)
XF_POINT(x)
{
    for (int i = 0; i < 2 * N; i++)
        x[i] = 0.3 + 0.1 * i;
}
XF_F(x, y)
{
    y[0] = dot(N, x, x + N);
}
XF_D(x, xd, y, yd)
{
    yd[0] = dot_d(N, x, xd, x + N, xd + N, &y[0]);
}
XF_B(x, xb, yb)
{
    dot_b(N, x, xb, x + N, xb + N, yb[0]);
}
XF_MAIN
#endif

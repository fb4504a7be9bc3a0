/* cgrad: matvec --independent a,x --dependent y --extent a=r*c,x=c,y=r */
/* y = A x, each entry the dot product of a row of A, passed as a + i*c,
 * with x. */
static double
rowdot(int n, const double *u, const double *v)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += u[i] * v[i];
    return s;
}

void
matvec(int r, int c, const double *a, const double *x, double *y)
{
    for (int i = 0; i < r; i++)
        y[i] = rowdot(c, a + i * c, x);
}

#ifdef XF_CHECK
#include "check.h"
void matvec_d(int r, int c, const double *a, const double *ad, const double *x, const double *xd,
              double *y, double *yd);
void matvec_b(int r, int c, const double *a, double *ab, const double *x, double *xb, double *y,
              double *yb);
enum { R = 3 * XF_SCALE, C = 5 * XF_SCALE };
XF_SIZES(R *C + C, R)
/* no x near 0: with 0.1 * 3 - 0.3 = 5.6e-17, a column of J that small was
 * lost to rounding in the central differences (and the check failed) */
XF_POINT(x)
{
    for (int i = 0; i < R * C + C; i++)
        x[i] = 0.1 * (i % 7) - 0.25;
}
XF_F(x, y)
{
    matvec(R, C, x, x + R * C, y);
}
XF_D(x, xd, y, yd)
{
    matvec_d(R, C, x, xd, x + R * C, xd + R * C, y, yd);
}
XF_B(x, xb, yb)
{
    matvec_b(R, C, x, xb, x + R * C, xb + R * C, (double[R]){0}, yb);
}
XF_MAIN
#endif

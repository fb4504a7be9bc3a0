/* cgrad: row_norms --independent a --dependent out --extent a=r*c,out=r */
/* The Euclidean norm of each row of an r x c matrix (row-major), through
 * a helper that is given a pointer to the row. */
#include <math.h>

static double
sqnorm(int n, const double *x)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += x[i] * x[i];
    return s;
}

void
row_norms(int r, int c, const double *a, double *out)
{
    for (int i = 0; i < r; i++)
        out[i] = sqrt(sqnorm(c, &a[i * c]));
}

#ifdef XF_CHECK
#include "check.h"
void row_norms_d(int r, int c, const double *a, const double *ad, double *out, double *outd);
void row_norms_b(int r, int c, const double *a, double *ab, double *out, double *outb);
enum { R = 4 * XF_SCALE, C = 3 * XF_SCALE };
XF_SIZES(R *C, R)
XF_POINT(x)
{
    for (int i = 0; i < R * C; i++)
        x[i] = 0.5 + 0.25 * (i % 5) - 0.1 * i;
}
XF_F(x, y)
{
    row_norms(R, C, x, y);
}
XF_D(x, xd, y, yd)
{
    row_norms_d(R, C, x, xd, y, yd);
}
XF_B(x, xb, yb)
{
    row_norms_b(R, C, x, xb, (double[R]){0}, yb);
}
XF_MAIN
#endif

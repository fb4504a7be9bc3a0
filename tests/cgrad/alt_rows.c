/* cgrad: alt_rows --independent p,q --dependent out --extent p=n*d,q=n*d,out=n */
/* The squared norms of the rows of a layout that interleaves two n x d
 * arrays: row i of p for even i, of q for odd i, chosen by `?:`; the
 * pointer then walks along the row, and a branch on the row's first
 * element, read through it, adds a softplus. */
#include <math.h>

void
alt_rows(int n, int d, const double *p, const double *q, double *out)
{
    for (int i = 0; i < n; i++) {
        const double *r = (i % 2 == 0) ? &p[i * d] : q + i * d;
        double s = 0.0;
        for (int j = 0; j < d; j++) {
            s += *r * *r;
            r++;
        }
        r -= d;
        if (r[0] > 0.0)
            s += log(1.0 + exp(r[0]));
        out[i] = s;
    }
}

#ifdef XF_CHECK
#include "check.h"
void alt_rows_d(int n, int d, const double *p, const double *pd, const double *q, const double *qd,
                double *out, double *outd);
void alt_rows_b(int n, int d, const double *p, double *pb, const double *q, double *qb, double *out,
                double *outb);
enum { N = 4, D = 3 };
XF_SIZES(2 * N * D, N)
XF_POINT(x)
{
    for (int i = 0; i < 2 * N * D; i++)
        x[i] = 0.5 * cos(1.1 * i) + 0.05 * i;
}
XF_F(x, y)
{
    alt_rows(N, D, x, x + N * D, y);
}
XF_D(x, xd, y, yd)
{
    alt_rows_d(N, D, x, xd, x + N * D, xd + N * D, y, yd);
}
XF_B(x, xb, yb)
{
    double y[N];
    alt_rows_b(N, D, x, xb, x + N * D, xb + N * D, y, yb);
}
XF_MAIN
#endif

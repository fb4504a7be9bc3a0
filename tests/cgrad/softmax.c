/* cgrad: softmax --independent z --dependent p */
/* The softmax of n scores, its exponentials kept in a work array from
 * malloc. */
#include <math.h>
#include <stdlib.h>

void
softmax(int n, const double *z, double *p)
{
    double *e = malloc((size_t)n * sizeof *e);
    double m = z[0], s = 0.0;
    for (int i = 1; i < n; i++)
        m = fmax(m, z[i]);
    for (int i = 0; i < n; i++) {
        e[i] = exp(z[i] - m);
        s += e[i];
    }
    for (int i = 0; i < n; i++)
        p[i] = e[i] / s;
    free(e);
}

#ifdef XF_CHECK
#include "check.h"
void softmax_d(int n, const double *z, const double *zd, double *p, double *pd);
void softmax_b(int n, const double *z, double *zb, double *p, double *pb);
enum { N = 5 };
XF_SIZES(N, N)
XF_POINT(x)
{
    for (int i = 0; i < N; i++)
        x[i] = 0.2 * i * i - 0.5;
}
XF_F(x, y)
{
    softmax(N, x, y);
}
XF_D(x, xd, y, yd)
{
    softmax_d(N, x, xd, y, yd);
}
XF_B(x, xb, yb)
{
    softmax_b(N, x, xb, (double[N]){0}, yb);
}
XF_MAIN
#endif

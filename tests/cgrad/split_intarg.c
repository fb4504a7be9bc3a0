/* cgrad: intarg_sum --independent x --dependent y --extent x=2*n */
/* Integer arguments that size a callee's work array from malloc and
 * change between calls: an expression of a loop counter that runs down
 * (2 * k: the last call is the smallest) and a local reassigned after each
 * call. The adjoint of each call must see the size its forward call had
 * (under split reversal the callee's adjoint sweep allocates from it). */
#include <stdlib.h>

static double
energy(int m, const double *x)
{
    double *w = malloc((size_t)m * sizeof *w);
    for (int i = 0; i < m; i++)
        w[i] = x[i] * (i + 1);
    double s = 0;
    for (int i = 0; i < m; i++)
        s += w[i] * w[i] / m;
    free(w);
    return s;
}

void
intarg_sum(int n, const double *x, double *y)
{
    double t = 0;
    for (int k = n; k >= 1; k--)
        t += energy(2 * k, x) * k;
    int m = 2 * n;
    y[0] = t + energy(m, x);
    m = m / 2 - 1;
    y[1] = t * energy(m, x);
    m = 1;
}

#ifdef XF_CHECK
#include "check.h"
void intarg_sum_d(int n, const double *x, const double *xd, double *y, double *yd);
void intarg_sum_b(int n, const double *x, double *xb, double *y, double *yb);
enum { N = 3 };
XF_SIZES(2 * N, 2)
XF_POINT(x)
{
    for (int i = 0; i < 2 * N; i++)
        x[i] = 1.1 - 0.35 * i;
}
XF_F(x, y)
{
    intarg_sum(N, x, y);
}
XF_D(x, xd, y, yd)
{
    intarg_sum_d(N, x, xd, y, yd);
}
XF_B(x, xb, yb)
{
    intarg_sum_b(N, x, xb, (double[2]){0}, yb);
}
XF_MAIN
#endif

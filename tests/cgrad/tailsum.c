/* cgrad: tailsum --independent x --dependent tailsum --extent x=n */
/* A count that runs down to 0 in a by-value int parameter (issue 23's
 * wrong case): called once per direction with the same n, every call must
 * see the caller's n. The shim keeps n in one variable for all calls. */
double
tailsum(const double *x, int n)
{
    double s = 0.0;
    while (n > 0) {
        n--;
        s += (n + 1) * x[n] * x[n];
    }
    return s;
}

#ifdef XF_CHECK
#include "check.h"
double tailsum_d(const double *x, const double *xd, int n, double *tailsum);
void tailsum_b(const double *x, double *xb, int n, double tailsumb);
static int count = 4;
XF_SIZES(4, 1)
XF_POINT(x)
{
    for (int i = 0; i < 4; i++)
        x[i] = 0.5 + 0.25 * i;
}
XF_F(x, y)
{
    y[0] = tailsum(x, count);
}
XF_D(x, xd, y, yd)
{
    yd[0] = tailsum_d(x, xd, count, &y[0]);
}
XF_B(x, xb, yb)
{
    tailsum_b(x, xb, count, yb[0]);
}
XF_MAIN
#endif

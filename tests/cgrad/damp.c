/* cgrad: damp --independent x,c --dependent damp */
/* A by-value parameter used as a work variable (issue 23's wrong case):
 * x is overwritten inside; nothing of that may reach the caller, nor the
 * incoming xb be taken as the adjoint of the final x. */
#include <math.h>

double
damp(double x, double c)
{
    for (int i = 0; i < 3; i++)
        x = x - c * sin(x);
    return x * x + c;
}

#ifdef XF_CHECK
#include "check.h"
double damp_d(double x, double xd, double c, double cd, double *damp);
void damp_b(double x, double *xb, double c, double *cb, double dampb);
XF_SIZES(2, 1)
XF_POINT(x)
{
    x[0] = 1.3, x[1] = 0.4;
}
XF_F(x, y)
{
    y[0] = damp(x[0], x[1]);
}
XF_D(x, xd, y, yd)
{
    yd[0] = damp_d(x[0], xd[0], x[1], xd[1], &y[0]);
}
XF_B(x, xb, yb)
{
    damp_b(x[0], &xb[0], x[1], &xb[1], yb[0]);
}
XF_MAIN
#endif

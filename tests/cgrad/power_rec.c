/* cgrad: power_rec --independent x --dependent power_rec */
/* x^n by recursive squaring: a recursive function. */
double
power_rec(double x, int n)
{
    if (n == 0)
        return 1.0;
    double h = power_rec(x, n / 2);
    return n % 2 ? h * h * x : h * h;
}

#ifdef XF_CHECK
#include "check.h"
double power_rec_d(double x, double xd, int n, double *power_rec);
void power_rec_b(double x, double *xb, int n, double power_recb);
XF_SIZES(1, 1)
XF_POINT(x)
{
    x[0] = 1.1;
}
XF_F(x, y)
{
    y[0] = power_rec(x[0], 7);
}
XF_D(x, xd, y, yd)
{
    yd[0] = power_rec_d(x[0], xd[0], 7, &y[0]);
}
XF_B(x, xb, yb)
{
    power_rec_b(x[0], &xb[0], 7, yb[0]);
}
XF_MAIN
#endif

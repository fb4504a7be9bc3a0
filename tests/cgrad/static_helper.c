/* cgrad: energy --independent x --dependent energy --extent x=n */
/* A static helper of a by-value scalar (sq), the name many files use: its
 * derivative must stay static. */
static double
sq(double v)
{
    return v * v;
}

double
energy(int n, const double *x)
{
    double e = 0.0;
    for (int i = 0; i + 1 < n; i++)
        e += sq(x[i + 1] - x[i]) + 0.1 * sq(x[i]);
    return e;
}

#ifdef XF_CHECK
#include "check.h"
double energy_d(int n, const double *x, const double *xd, double *energy);
void energy_b(int n, const double *x, double *xb, double energyb);
enum { N = 5 };
XF_SIZES(N, 1)
XF_POINT(x)
{
    for (int i = 0; i < N; i++)
        x[i] = 0.2 * i * i - 0.3;
}
XF_F(x, y)
{
    y[0] = energy(N, x);
}
XF_D(x, xd, y, yd)
{
    yd[0] = energy_d(N, x, xd, &y[0]);
}
XF_B(x, xb, yb)
{
    energy_b(N, x, xb, yb[0]);
}
XF_MAIN
#endif

/* c2xaif-test: trig 3 6 */
#include <math.h>

/* The inverse and hyperbolic functions of <math.h>. */
void
trig(const double x[3], double y[6])
{
    double t = x[0] / (x[0] + x[1] + x[2]); /* in (0, 1) */
    y[0] = asin(t) + acos(t * t);
    y[1] = atan(x[1]) * tan(0.3 * x[2]);
    y[2] = sinh(x[0]) - cosh(0.5 * x[1]);
    y[3] = tanh(x[2] - x[0]);
    y[4] = exp(-x[0] * x[1]) * log(1.0 + x[2]);
    y[5] = sqrt(x[0] * x[0] + x[1] * x[1]) / x[2];
}

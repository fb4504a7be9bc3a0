/* c2xaif-test: piecewise 3 3 */
#include <math.h>

/* if / else-if chains, fabs, pow and a ternary. */
void
piecewise(const double x[3], double y[3])
{
    double s = x[0] + x[1] - x[2];
    if (s > 2.0)
        y[0] = pow(s, 1.5);
    else if (s > 0.0)
        y[0] = s * s;
    else
        y[0] = -s;
    y[1] = fabs(x[0] - x[2]) * x[1];
    y[2] = x[1] > x[0] ? x[1] * cos(x[2]) : x[0] * sin(x[2]);
}

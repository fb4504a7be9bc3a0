/* c2xaif-test: mathfns 3 16 */
/* Every <math.h> function of the catalogue. */
#include <math.h>

void
mathfns(const double x[3], double y[16])
{
    double a = x[0] * 0.8; /* in (-1, 1) for asin, acos */
    y[0] = sin(x[1]) + cos(x[2]);
    y[1] = tan(a);
    y[2] = asin(a);
    y[3] = acos(a);
    y[4] = atan(x[2]);
    y[5] = sinh(x[1]);
    y[6] = cosh(x[2]);
    y[7] = tanh(x[0]);
    y[8] = exp(x[1] * x[0]);
    y[9] = log(x[2] + x[0]);
    y[10] = sqrt(x[1] + x[2]);
    y[11] = pow(x[2], x[0]) + pow(x[1], 3);
    y[12] = fabs(x[0] - x[2]);
    y[13] = fmin(x[0], x[1]) * fmax(x[1] * x[1], x[2]);
    y[14] = fmod(x[2] * 7.0, x[1]);
    y[15] = exp(sin(x[0]) * log(x[1] + 2.0));
}

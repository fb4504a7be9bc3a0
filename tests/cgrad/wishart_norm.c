/* cgrad: log_mvgamma --independent a --dependent log_mvgamma */
/* The log of the multivariate gamma function, the normaliser of a
 * Wishart density: p(p-1)/4 log(pi) + sum_{j=1..p} lgamma(a + (1-j)/2),
 * with a by-value scalar a and an int p. */
#include <math.h>

double
log_mvgamma(double a, int p)
{
    double out = 0.25 * p * (p - 1) * log(3.14159265358979323846);
    for (int j = 1; j <= p; j++)
        out += lgamma(a + 0.5 * (1 - j));
    return out;
}

#ifdef XF_CHECK
#include "check.h"
double log_mvgamma_d(double a, double ad, int p, double *log_mvgamma);
void log_mvgamma_b(double a, double *ab, int p, double log_mvgammab);
XF_SIZES(1, 1)
XF_POINT(x)
{
    x[0] = 3.7;
}
XF_F(x, y)
{
    y[0] = log_mvgamma(x[0], 4);
}
XF_D(x, xd, y, yd)
{
    yd[0] = log_mvgamma_d(x[0], xd[0], 4, &y[0]);
}
XF_B(x, xb, yb)
{
    log_mvgamma_b(x[0], &xb[0], 4, yb[0]);
}
XF_MAIN
#endif

/* c2xaif-test: norms 5 3 */
#include <math.h>

/* The 2-norm, the 1-norm and a p-norm (p = 3) of a vector. */
static double
pnorm(const double v[5], double p)
{
    double s = 0.0;
    for (int i = 0; i < 5; i++)
        s += pow(fabs(v[i]), p);
    return pow(s, 1.0 / p);
}

void
norms(const double x[5], double y[3])
{
    double s2 = 0.0, s1 = 0.0;
    for (int i = 0; i < 5; i++) {
        s2 += x[i] * x[i];
        s1 += fabs(x[i]);
    }
    y[0] = sqrt(s2);
    y[1] = s1;
    y[2] = pnorm(x, 3.0);
}

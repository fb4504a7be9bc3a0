/* cgrad: normal_logcdf --independent x --dependent y --extent x=n,y=n */
/* log Phi(x) for each entry, Phi(x) = erfc(-x / sqrt 2) / 2, and the
 * error function of each entry too. */
#include <math.h>

void
normal_logcdf(int n, const double *x, double *y)
{
    for (int i = 0; i < n; i++) {
        y[2 * i] = log(0.5 * erfc(-x[i] / sqrt(2.0)));
        y[2 * i + 1] = erf(x[i]);
    }
}

#ifdef XF_CHECK
#include "check.h"
void normal_logcdf_d(int n, const double *x, const double *xd, double *y, double *yd);
void normal_logcdf_b(int n, const double *x, double *xb, double *y, double *yb);
enum { N = 4 * XF_SCALE };
XF_SIZES(N, 2 * N)
XF_POINT(x)
{
    for (int i = 0; i < N; i++)
        x[i] = -1.5 + 0.9 * (i % 4); /* at larger scales too, where erfc and exp are not flat */
}
XF_F(x, y)
{
    normal_logcdf(N, x, y);
}
XF_D(x, xd, y, yd)
{
    normal_logcdf_d(N, x, xd, y, yd);
}
XF_B(x, xb, yb)
{
    normal_logcdf_b(N, x, xb, (double[2 * N]){0}, yb);
}
XF_MAIN
#endif

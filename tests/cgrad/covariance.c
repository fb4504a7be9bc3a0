/* cgrad: covariance --independent x --dependent c --extent x=n*d,c=d*d */
/* The d x d sample covariance of n points (rows of x): the mean in a
 * work array from calloc, then sum (x_i - mean)(x_i - mean)^T / (n - 1). */
#include <stdlib.h>

void
covariance(int n, int d, const double *x, double *c)
{
    double *mean = calloc((size_t)d, sizeof *mean);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < d; j++)
            mean[j] += x[i * d + j] / n;
    for (int j = 0; j < d * d; j++)
        c[j] = 0.0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < d; j++)
            for (int k = 0; k < d; k++)
                c[j * d + k] += (x[i * d + j] - mean[j]) * (x[i * d + k] - mean[k]) / (n - 1);
    free(mean);
}

#ifdef XF_CHECK
#include "check.h"
void covariance_d(int n, int d, const double *x, const double *xd, double *c, double *cd);
void covariance_b(int n, int d, const double *x, double *xb, double *c, double *cb);
enum { N = 4 * XF_SCALE, D = 3 * XF_SCALE };
XF_SIZES(N *D, D *D)
XF_POINT(x)
{
    for (int i = 0; i < N * D; i++)
        x[i] = 0.1 * i * (i % 3) - 0.4;
}
XF_F(x, y)
{
    covariance(N, D, x, y);
}
XF_D(x, xd, y, yd)
{
    covariance_d(N, D, x, xd, y, yd);
}
XF_B(x, xb, yb)
{
    covariance_b(N, D, x, xb, (double[D * D]){0}, yb);
}
XF_MAIN
#endif

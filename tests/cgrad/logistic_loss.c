/* cgrad: logistic_loss --independent w --dependent logistic_loss --extent x=n*d,label=n,w=d */
/* The mean logistic loss log(1 + exp(-y_i w.x_i)) of n labelled samples
 * in d dimensions, with log1p. */
#include <math.h>

double
logistic_loss(int n, int d, const double *x, const double *label, const double *w)
{
    double s = 0.0;
    for (int i = 0; i < n; i++) {
        double z = 0.0;
        for (int j = 0; j < d; j++)
            z += w[j] * x[i * d + j];
        s += log1p(exp(-label[i] * z));
    }
    return s / n;
}

#ifdef XF_CHECK
#include "check.h"
double logistic_loss_d(int n, int d, const double *x, const double *label, const double *w,
                       const double *wd, double *logistic_loss);
void logistic_loss_b(int n, int d, const double *x, const double *label, const double *w,
                     double *wb, double logistic_lossb);
enum { N = 5, D = 3 };
static const double xs[N * D] = {1, 0.5, -1, 0.2, 1, 0.3, -0.7, 0.1, 2, 1.5, -1, 0, 0.3, 0.3, 0.3};
static const double lab[N] = {1, -1, 1, -1, 1};
XF_SIZES(D, 1)
XF_POINT(x)
{
    x[0] = 0.4, x[1] = -0.8, x[2] = 0.25;
}
XF_F(x, y)
{
    y[0] = logistic_loss(N, D, xs, lab, x);
}
XF_D(x, xd, y, yd)
{
    yd[0] = logistic_loss_d(N, D, xs, lab, x, xd, &y[0]);
}
XF_B(x, xb, yb)
{
    logistic_loss_b(N, D, xs, lab, x, xb, yb[0]);
}
XF_MAIN
#endif

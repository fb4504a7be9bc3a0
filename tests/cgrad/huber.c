/* cgrad: huber_sum --independent r,delta --dependent huber_sum */
/* The Huber loss of n residuals: r^2/2 inside |r| <= delta, delta (|r| -
 * delta/2) outside; delta a by-value scalar. */
#include <math.h>

double
huber_sum(int n, const double *r, double delta)
{
    double s = 0.0;
    for (int i = 0; i < n; i++) {
        double a = fabs(r[i]);
        if (a <= delta)
            s += 0.5 * r[i] * r[i];
        else
            s += delta * (a - 0.5 * delta);
    }
    return s;
}

#ifdef XF_CHECK
#include "check.h"
double huber_sum_d(int n, const double *r, const double *rd, double delta, double deltad,
                   double *huber_sum);
void huber_sum_b(int n, const double *r, double *rb, double delta, double *deltab,
                 double huber_sumb);
enum { N = 6 };
XF_SIZES(N + 1, 1)
XF_POINT(x)
{
    static const double v[N] = {0.3, -2.0, 1.4, -0.6, 3.1, 0.05};
    for (int i = 0; i < N; i++)
        x[i] = v[i];
    x[N] = 1.0;
}
XF_F(x, y)
{
    y[0] = huber_sum(N, x, x[N]);
}
XF_D(x, xd, y, yd)
{
    yd[0] = huber_sum_d(N, x, xd, x[N], xd[N], &y[0]);
}
XF_B(x, xb, yb)
{
    huber_sum_b(N, x, xb, x[N], &xb[N], yb[0]);
}
XF_MAIN
#endif

/* cgrad: smax_sum --independent x --dependent smax_sum --extent x=n --external-derivative smax */
/* A function the file only declares (a library's, say), with derivatives
 * the user writes in Tapenade's form: grad --external-derivative smax
 * calls smax_d in the tangent and smax and smax_b in the adjoints. The
 * definitions are in the shim below, which grad does not see. Constant
 * arguments (passive) go to its active parameters with zero derivatives. */
double smax(double a, double b, int k);

double
smax_sum(int n, const double *x)
{
    double s = 0.0;
    for (int i = 0; i + 1 < n; i++) {
        double t = smax(x[i], 0.5 * x[i + 1], i % 3 + 1);
        s += t * x[i];
    }
    return s + smax(s, x[0], 2) + smax(x[1], 1.0, 1) + smax(2.0, 0.5, 1);
}

#ifdef XF_CHECK
#include <math.h>

#include "check.h"
/* the smooth maximum log(exp(k a) + exp(k b)) / k and its derivatives */
double
smax(double a, double b, int k)
{
    return log(exp(k * a) + exp(k * b)) / k;
}
double
smax_d(double a, double ad, double b, double bd, int k, double *smax)
{
    double ea = exp(k * a), eb = exp(k * b);
    *smax = log(ea + eb) / k;
    return (ea * ad + eb * bd) / (ea + eb);
}
void
smax_b(double a, double *ab, double b, double *bb, int k, double smaxb)
{
    double ea = exp(k * a), eb = exp(k * b);
    *ab += ea / (ea + eb) * smaxb;
    *bb += eb / (ea + eb) * smaxb;
}
double smax_sum_d(int n, const double *x, const double *xd, double *smax_sum);
void smax_sum_b(int n, const double *x, double *xb, double smax_sumb);
enum { N = 6 };
XF_SIZES(N, 1)
XF_POINT(x)
{
    for (int i = 0; i < N; i++)
        x[i] = 0.7 - 0.3 * i + 0.1 * i * i;
}
XF_F(x, y)
{
    y[0] = smax_sum(N, x);
}
XF_D(x, xd, y, yd)
{
    yd[0] = smax_sum_d(N, x, xd, &y[0]);
}
XF_B(x, xb, yb)
{
    smax_sum_b(N, x, xb, yb[0]);
}
XF_MAIN
#endif

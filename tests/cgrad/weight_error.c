/* cgrad: weight_errors --independent w --dependent err --extent w=p,err=p */
/* The benchmarks' weight residuals 1 - w^2, through a helper that reads
 * and writes through pointers to single entries (*w, *err). */
static void
weight_error(const double *w, double *err)
{
    *err = 1.0 - (*w) * (*w);
}

void
weight_errors(int p, const double *w, double *err)
{
    for (int i = 0; i < p; i++)
        weight_error(&w[i], &err[i]);
}

#ifdef XF_CHECK
#include "check.h"
void weight_errors_d(int p, const double *w, const double *wd, double *err, double *errd);
void weight_errors_b(int p, const double *w, double *wb, double *err, double *errb);
enum { P = 5 * XF_SCALE };
XF_SIZES(P, P)
XF_POINT(x)
{
    for (int i = 0; i < P; i++)
        x[i] = 0.3 + 0.2 * i;
}
XF_F(x, y)
{
    weight_errors(P, x, y);
}
XF_D(x, xd, y, yd)
{
    weight_errors_d(P, x, xd, y, yd);
}
XF_B(x, xb, yb)
{
    weight_errors_b(P, x, xb, (double[P]){0}, yb);
}
XF_MAIN
#endif

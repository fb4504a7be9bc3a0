/* cgrad: prior_fit --independent w --dependent prior_fit */
/* A penalized least-squares fit whose prior's parameters come in a
 * struct passed by value (a real and an int member, passive, as ADBench's
 * Wishart), handed on by value to a helper that changes its own copy. */
#include <math.h>

typedef struct {
    double gamma;
    int m;
} prior_t;

static double
penalty(int n, const double w[n], prior_t p)
{
    double s = 0.0;
    p.gamma = p.gamma * p.gamma; /* the helper's own copy */
    for (int i = 0; i < n; i++)
        s += 0.5 * p.gamma * w[i] * w[i] - p.m * log(1.0 + w[i] * w[i]);
    return s;
}

double
prior_fit(int n, const double w[n], const double t[n], prior_t prior)
{
    double r = 0.0;
    for (int i = 0; i < n; i++)
        r += (w[i] - t[i]) * (w[i] - t[i]);
    return r + penalty(n, w, prior) + prior.gamma * w[0];
}

#ifdef XF_CHECK
#include "check.h"
double prior_fit_d(int n, const double w[n], const double wd[n], const double t[n], prior_t prior,
                   double *prior_fit);
void prior_fit_b(int n, const double w[n], double wb[n], const double t[n], prior_t prior,
                 double prior_fitb);
enum { N = 5 };
static const double tg[N] = {0.5, -0.2, 1.1, 0.3, 0.9};
static const prior_t pr = {1.5, 2};
XF_SIZES(N, 1)
XF_POINT(x)
{
    for (int i = 0; i < N; i++)
        x[i] = 0.7 * cos(1.1 * i);
}
XF_F(x, y)
{
    y[0] = prior_fit(N, x, tg, pr);
}
XF_D(x, xd, y, yd)
{
    yd[0] = prior_fit_d(N, x, xd, tg, pr, &y[0]);
}
XF_B(x, xb, yb)
{
    prior_fit_b(N, x, xb, tg, pr, yb[0]);
}
XF_MAIN
#endif

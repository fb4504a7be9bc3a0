/* c2xaif-test: argkeep 3 2 */
#include <math.h>

/* Argument checkpoints under joint reversal: wsum never writes w, and every
 * call passes there x, which argkeep never writes either: w is not stored.
 * sqacc never writes t either, but argkeep writes t between its two calls
 * of sqacc: the first call's rerun in the adjoint sweep needs t's first
 * values back, so t is stored (left out, the gradient is wrong). wsum's v
 * is not: argkeep writes t only before calling wsum (argflow.c has more). */
static double
wsum(const double *w, const double *v)
{
    double s = 0.0;
    for (int i = 0; i < 3; i++)
        s += w[i] * w[i] * v[i];
    return s;
}

static void
sqacc(const double *t, double *acc)
{
    for (int i = 0; i < 3; i++)
        acc[0] += sin(t[i]) * t[i];
}

void
argkeep(const double x[3], double y[2])
{
    double t[3];
    double acc[1];
    acc[0] = 0.0;
    for (int i = 0; i < 3; i++)
        t[i] = 2.0 * x[i];
    sqacc(t, acc);
    for (int i = 0; i < 3; i++)
        t[i] = x[i] * x[i];
    sqacc(t, acc);
    y[0] = acc[0];
    y[1] = wsum(x, t) + wsum(x, x);
}

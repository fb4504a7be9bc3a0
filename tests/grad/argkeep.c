/* c2xaif-test: argkeep 3 2 */
#include <math.h>

/* Argument checkpoints under joint reversal: wsum never writes w, and every
 * call passes there x, which argkeep never writes either: w is not stored.
 * sqacc never writes t either, but argkeep writes t between its two calls
 * of sqacc: the first call's rerun in the adjoint sweep needs t's first
 * values back, so t is stored (left out, the gradient is wrong). wsum's v
 * is not: argkeep writes t only before calling wsum (argflow.c has more).
 * cube never writes c: argkeep passes u, written only before the call (the
 * callee's two runs see the same values), so c is not stored; lsq never
 * writes q, but its call sits in a loop that writes q before it (each
 * iteration's rerun needs that iteration's q), so q is stored. */
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

static double
cube(const double *c)
{
    return c[0] * c[1] * c[2];
}

static double
lsq(const double *q)
{
    return q[0] * q[0] + q[1];
}

void
argkeep(const double x[3], double y[2])
{
    double t[3];
    double acc[1];
    double u[3];
    double q[2];
    acc[0] = 0.0;
    for (int i = 0; i < 3; i++)
        t[i] = 2.0 * x[i];
    sqacc(t, acc);
    for (int i = 0; i < 3; i++)
        t[i] = x[i] * x[i];
    sqacc(t, acc);
    y[0] = acc[0];
    y[1] = wsum(x, t) + wsum(x, x);
    for (int i = 0; i < 3; i++)
        u[i] = x[i] + 1.0;
    y[1] += cube(u);
    for (int i = 0; i < 2; i++) {
        q[0] = x[i];
        q[1] = x[i + 1];
        y[0] += lsq(q);
    }
}

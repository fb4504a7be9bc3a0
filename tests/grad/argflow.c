/* c2xaif-test: argflow 3 1 */
#include <math.h>

/* Argument checkpoints under joint reversal follow the caller's control
 * flow: a write of an actual matters only where it may run after the call.
 * q is written by prep before the loop and never after: scale's q is not
 * stored. v is written in the loop before scale's call, so the next
 * iteration's write follows the call (the loop's back edge): scale's v is
 * stored. scale writes o, which sq3 reads, in every later iteration: sq3's
 * v is stored (left out, either gradient is wrong). */
static void
prep(const double *x, double *q)
{
    for (int i = 0; i < 3; i++)
        q[i] = exp(0.5 * x[i]);
}

static void
scale(const double *q, const double *v, double *out)
{
    for (int i = 0; i < 3; i++)
        out[i] = q[i] * v[i] * v[i];
}

static double
sq3(const double *v)
{
    return v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
}

void
argflow(const double x[3], double y[1])
{
    double q[3], v[3], o[3];
    prep(x, q);
    y[0] = 0.0;
    for (int k = 0; k < 4; k++) {
        for (int i = 0; i < 3; i++)
            v[i] = sin(x[i] + k);
        scale(q, v, o);
        y[0] += sq3(o);
    }
}

/* c2xaif-test: callcp 3 2 */
#include <math.h>

/* Argument checkpoints decided call by call under joint reversal (as
 * ADBench's BA sqsum): sq never writes v. turn passes it r, its own formal,
 * which nothing writes: that call needs no checkpoint, and turn's adjoint
 * calls sq's functions without the store and the restore. stretch passes
 * it p and then overwrites p: sq's rerun in stretch's adjoint sweep needs
 * p's old values back, so that call keeps them (left out, the gradient is
 * wrong). tests/grad/callcp.sh reads which function each call goes to;
 * golden.grad checks the gradient. */
static double
sq(int n, const double *v)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += v[i] * v[i];
    return s;
}

static void
turn(const double *r, double *out)
{
    double t = sqrt(sq(3, r));
    for (int i = 0; i < 3; i++)
        out[i] = sin(t) * r[i];
}

static void
stretch(double *p)
{
    double L = 1.0 + 0.5 * sq(2, p);
    p[0] = p[0] * L;
    p[1] = p[1] * L;
}

void
callcp(const double x[3], double y[2])
{
    double o[3];
    double p[2];
    turn(x, o);
    p[0] = o[0] / o[2];
    p[1] = o[1] / o[2];
    stretch(p);
    y[0] = p[0];
    y[1] = p[1];
}

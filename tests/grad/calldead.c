/* c2xaif-test: cdobj 12 1 cstep:w=2*n,cstep:h=n,cstep:c=n */

/* Liveness of the joint taping sweep across calls (transforms/simplify/
 * deadstore.c): cstep's second loop writes only its formal h, which its
 * adjoint sweep does not read; the call of sq in that adjoint sweep (sq's
 * rerun and adjoint) restores what sq reads before reading it, so the
 * store h[i] = ... goes from cstep's taping sweep, as Tapenade's adjoint
 * leaves out ADBench's lstm_model's hidden[i] = .... Before, any call in
 * the adjoint sweep kept every formal live. tests/grad/calldead.sh counts
 * the stores; golden.grad checks the gradient. */
#include <math.h>

static double
sq(double u)
{
    return u * u;
}

static void
cstep(int n, const double *w, double *h, double *c)
{
    for (int i = 0; i < n; i++)
        c[i] = c[i] * w[i] + sq(h[i]);
    for (int i = 0; i < n; i++)
        h[i] = w[n + i] * tanh(c[i]);
}

void
cdobj(const double x[12], double y[1])
{
    double s[8];
    for (int k = 0; k < 4; k++) {
        s[k] = x[8 + k];
        s[4 + k] = 0.5;
    }
    cstep(2, &x[0], &s[0], &s[4]);
    cstep(2, &x[4], &s[2], &s[6]);
    y[0] = s[0] * s[1] + s[2] * s[3] + s[4] + s[7];
}

/* c2xaif-test: splitentry 3 2 */
#include <math.h>

/* The entry of a split adjoint that calls a helper (transforms/core/
 * revjoint.h): grad's splitentry_b runs splitentry's two sweeps in one
 * activation, so its partials of sin(u) * u, which read u and sin(u),
 * written once earlier in the block, are computed again in its adjoint
 * from those values, as under joint reversal, while scale keeps its
 * split sweeps. tests/grad/splitentry.sh counts the pushes; golden.grad
 * checks the gradient. */
static double
scale(double a, const double *w)
{
    return a * w[0];
}

void
splitentry(const double x[3], double y[2])
{
    double u = x[0] * x[1] + 1.0;
    double s = sin(u);
    y[0] = s * u;
    y[1] = scale(x[2], &x[0]);
}

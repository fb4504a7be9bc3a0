/* c2xaif-test: splitentry 3 3 */
#include <math.h>

/* The entry of a split adjoint that calls a helper (transforms/core/
 * revjoint.h): grad's splitentry_b runs splitentry's two sweeps in one
 * activation, so its partials of sin(u) * u, which read u and sin(u),
 * written once earlier in the block, are computed again in its adjoint
 * from those values, as under joint reversal, while scale keeps its
 * split sweeps. scale's w, bound to the entry's x, which nothing writes,
 * is read in place by its adjoint sweep (not taped); shift's w, bound to
 * the entry's y, is taped. tests/grad/splitentry.sh counts the pushes;
 * golden.grad checks the gradient. */
static double
scale(double a, const double *w)
{
    return a * w[0];
}

static double
shift(double a, const double *w)
{
    return a * w[0];
}

void
splitentry(const double x[3], double y[3])
{
    double u = x[0] * x[1] + 1.0;
    double s = sin(u);
    y[0] = s * u;
    y[1] = scale(x[2], &x[0]);
    y[2] = shift(x[1], &y[0]);
}

/* c2xaif-test: onceval 2 1 */
#include <math.h>

/* Partials recomputed from a local written once (transforms/tape/
 * tbr_values.c, stable_once): under joint reversal the adjoint of a
 * branch runs in the activation that taped it, so the partials of
 * sin(u) * u, which read u and sin(u), written once earlier in the
 * branch, are computed again there from those values, and nothing is
 * taped. tests/grad/onceval.sh counts the pushes; golden.grad checks the
 * gradient. */
void
onceval(const double x[2], double y[1])
{
    if (x[0] > x[1]) {
        double u = x[0] * x[1] + 1.0;
        double s = sin(u);
        y[0] = s * u;
    } else {
        double t = x[0] - x[1];
        y[0] = t * t;
    }
}

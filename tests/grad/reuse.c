/* c2xaif-test: rotate 2 2 */
#include <math.h>

/* Partials that read a value the routine computed (transforms/tape/
 * tbr_values.c, reuse): under joint reversal the partial of cos(t) is
 * sin(t), which the routine already holds in s, and that of sin(t) is
 * cos(t), in c; the adjoint reads s and c instead of calling sin and cos
 * again. tests/grad/reuse.sh counts the calls; golden.grad checks the
 * gradient. */
void
rotate(const double x[2], double y[2])
{
    double t = x[0] * x[1];
    double c = cos(t);
    double s = sin(t);
    y[0] = c * x[0] - s * x[1];
    y[1] = s * x[0] + c * x[1];
}

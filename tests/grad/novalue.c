/* c2xaif-test: novalue 3 2 */
#include <math.h>

static double
sq(double a)
{
    return a * a;
}

/* Outputs whose values an adjoint need not store (tests/grad/novalue.sh):
 * grad --no-value leaves y[0] and y[1] out of novalue_b, and sin(x[2]),
 * which only y[0]'s value reads (its partial is cos(x[2])), with them;
 * the partials still read s and x. The adjoint of sq, called after the
 * stores, cannot read y (not its argument). golden.grad checks the
 * gradient with the values stored. */
void
novalue(const double x[3], double y[2])
{
    double s = x[0] * x[1];
    double e = sin(x[2]);
    y[0] = s + e;
    y[1] = s * x[2] + sq(x[0]);
}

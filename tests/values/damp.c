/* damp: a by-value parameter used as a work variable. The derivative code
 * must treat x as the caller's copy: nothing written to it reaches the
 * caller, and the adjoint of its final value is zero. */
#include <math.h>

double
damp(double x, double c)
{
    x = x * c + sin(x);
    x = x * x / (1.0 + c * c);
    c = c * x;
    return x + 0.5 * c;
}

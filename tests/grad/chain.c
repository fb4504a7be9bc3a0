/* c2xaif-test: chain 4 2 */
#include <math.h>

/* A chain of calls: f calls g calls h, arrays and scalars passed along,
 * a function's value used in an expression. */
static double
h(double a, double b)
{
    return a * exp(-b) + b;
}

static double
g(const double v[4], int k)
{
    double s = 0.0;
    for (int i = 0; i < 4; i++)
        s += h(v[i], v[(i + k) % 4]);
    return s;
}

void
chain(const double x[4], double y[2])
{
    y[0] = g(x, 1) * g(x, 2);
    y[1] = h(g(x, 3), x[0]);
}

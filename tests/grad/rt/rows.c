/* rt-test: --function rows --independent x --dependent y --extent x=n*d,y=n */
/* x is n rows of d, both known only at run time; the helpers' extents are
 * found from their loops (k), so a helper called with n or n*d elements
 * stores and restores exactly those in the adjoint's checkpoints. */
#include <math.h>

static void
scale(double *v, int k, double s)
{
    for (int i = 0; i < k; i++)
        v[i] = v[i] * s + sin(v[i]);
}

static double
total(const double *v, int k)
{
    double t = 0.0;
    for (int i = 0; i < k; i++)
        t += v[i] * v[i] * v[i];
    return t;
}

void
rows(const double *x, double *y, int n, int d)
{
    for (int i = 0; i < n; i++) {
        double t = 0.0;
        for (int j = 0; j < d; j++)
            t += x[i * d + j] * x[i * d + j];
        y[i] = t;
    }
    scale(y, n, 0.5);
    y[0] = y[0] + total(x, n * d);
}

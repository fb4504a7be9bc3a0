/* rt-test: --function negpart --independent a --dependent l --extent a=n*n,l=n*n */
/* A quotient's partial by its denominator, -(q/d), where the denominator
 * and the quotient's target are entries of one array at run-time offsets
 * (as in a Cholesky factor): the propagator is kept as it is, not
 * preaccumulated, and the adjoint must still apply the partial's sign
 * (it once lost it: the dot-product test failed by 1e-2). */
#include <math.h>

void
negpart(const double *a, double *l, int n)
{
    for (int i = 0; i < n * n; i++)
        l[i] = a[i];
    for (int j = 0; j < n; j++)
        for (int i = j + 1; i < n; i++)
            l[i * n + j] = l[i * n + j] / l[j * n + j];
}

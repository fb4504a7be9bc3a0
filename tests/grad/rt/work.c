/* rt-test: --function work --independent x --dependent y --extent x=n,y=n */
/* Work arrays from malloc and calloc, n known only at run time, freed at
 * the end: their adjoints are allocated and freed alike. */
#include <math.h>
#include <stdlib.h>

void
work(const double *x, double *y, int n)
{
    double *q = malloc(n * sizeof(double));
    double *s = (double *)calloc(2 * n + 1, sizeof(double));
    for (int i = 0; i < n; i++)
        q[i] = exp(0.5 * x[i]);
    s[0] = 0.0;
    for (int i = 0; i < n; i++)
        s[i + 1] = s[i] + q[i] * q[i];
    for (int i = 0; i < n; i++)
        y[i] = s[i + 1] / s[n] + x[i] * q[n - 1 - i];
    free(q);
    free(s);
}

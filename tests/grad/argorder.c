/* c2xaif-test: argorder 4 4 x=4,y=4 */
/* A caller written before its callees (tests/grad/argorder.sh). The loop
 * counter i changes after each call, so the adjoint pushes it for a
 * callee's adjoint that may read the formal: mix's k is named by no
 * statement of mix (its pair goes although mix follows argorder in the
 * file); wsum sizes a work array from its m (a run-time extent: kept). */
#include <stdlib.h>

void mix(int k, const double *u, double *v);
double wsum(int m, const double *u);

void
argorder(const double *x, double *y)
{
    for (int i = 0; i < 2; i++)
        mix(i, &x[2 * i], &y[2 * i]);
    for (int i = 1; i < 3; i++)
        y[i] = y[i] + wsum(i, x);
}

void
mix(int k, const double *u, double *v)
{
    v[0] = u[0] * u[1];
    v[1] = u[0] + u[1] * u[1];
}

double
wsum(int m, const double *u)
{
    double *w = malloc((size_t)m * sizeof *w);
    double s = 0;
    for (int j = 0; j < m; j++)
        w[j] = u[j] * u[j];
    for (int j = 0; j < m; j++)
        s += w[j];
    free(w);
    return s;
}

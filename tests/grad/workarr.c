/* c2xaif-test: waobj 4 1 */
#include <stdlib.h>

/* Work arrays allocated only where each variant names them
 * (frontends/xaif2c/c_extent.c): under joint reversal cell runs three
 * times, plainly (inside step's first run), as a checkpointed rerun, and
 * taped with its adjoint; only the last names the work array's
 * derivative tb, so only it allocates tb. tests/grad/workarr.sh counts
 * the allocations; golden.grad checks the gradient. */
static void
cell(int n, double *h)
{
    double *t = (double *)malloc(n * sizeof(double));
    for (int i = 0; i < n; i++)
        t[i] = h[i] * h[i];
    for (int i = 0; i < n; i++)
        h[i] = t[i] + h[i];
    free(t);
}

static void
step(double *h)
{
    for (int k = 0; k < 2; k++)
        cell(4, h);
}

void
waobj(const double x[4], double y[1])
{
    double h[4];
    for (int i = 0; i < 4; i++)
        h[i] = x[i];
    step(h);
    y[0] = h[0] + h[1] + h[2] + h[3];
}

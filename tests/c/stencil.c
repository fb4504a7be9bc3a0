/* c2xaif-test: stencil 8 8 */
/* A stencil sweep: explicit heat-equation steps on a 1-D grid, the
 * fields of two time levels in one 2x8 array. */
#define N 8
#define STEPS 5

static void
sweep(const double u[N], double v[N], double nu)
{
    v[0] = u[0];
    v[N - 1] = u[N - 1];
    for (int i = 1; i < N - 1; i++)
        v[i] = u[i] + nu * (u[i - 1] - 2.0 * u[i] + u[i + 1]) + 0.01 * u[i] * u[i];
}

void
stencil(const double x[N], double y[N])
{
    double a[N], b[N];
    for (int i = 0; i < N; i++)
        a[i] = x[i];
    for (int t = 0; t < STEPS; t++) {
        sweep(a, b, 0.2);
        sweep(b, a, 0.2);
    }
    for (int i = 0; i < N; i++)
        y[i] = a[i];
}

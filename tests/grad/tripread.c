/* c2xaif-test: tripobj 4 2 */

/* Loop bounds read again (transforms/core/reverse.c with unwritten.c):
 * under joint reversal the adjoint of cubes runs its loop backwards from
 * n, which nothing in cubes writes, read in place: its trip count is not
 * taped. halves writes n after its loop, so that loop's bound is taped.
 * tests/grad/tripread.sh looks at the code; golden.grad checks the
 * gradient. */
static double
cubes(int n, const double *x)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += x[i] * x[i] * x[i];
    return s;
}

static double
halves(int n, const double *x)
{
    double s = 1.0;
    for (int i = 0; i < n; i++)
        s = s * 0.5 + x[i] * s;
    n = n / 2;
    return s * x[n];
}

void
tripobj(const double x[4], double y[2])
{
    y[0] = cubes(4, x);
    y[1] = halves(3, x);
}

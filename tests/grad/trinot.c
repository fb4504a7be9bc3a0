/* c2xaif-test: trinot 16 16 */
/* tests/grad/trifac.c's triangular nest run twice over the strictly lower
 * part of l (a second pass): the elements l[i*n+k], l[j*n+k] that the
 * first pass's partials read are written again by the second, after the
 * read, so they must be taped, not read in place at the adjoint
 * (transforms/tape/tbr_region.c: later iterations of an outer loop;
 * tests/grad/trifac.sh counts the tape, golden.grad checks the
 * gradient). */
static void
passes(int n, const double *a, double *l)
{
    for (int i = 0; i < n * n; i++)
        l[i] = a[i];
    for (int r = 0; r < 2; r++)
        for (int j = 0; j < n; j++)
            for (int i = j + 1; i < n; i++) {
                double t = l[i * n + j];
                for (int k = 0; k < j; k++)
                    t -= l[i * n + k] * l[j * n + k];
                l[i * n + j] = 0.5 * t;
            }
}

void
trinot(const double x[16], double y[16])
{
    passes(4, x, y);
}

/* c2xaif-test: trifac 16 16 */
/* A triangular factor, as a Cholesky factorization without its square
 * root (l[j][j] = d_j, l[i][j] = t / d_j), row-major in a helper whose
 * row length n is a size passed in, of a 4x4 matrix built from x with a
 * heavy diagonal. The partials of t -= l[i*n+k] * l[j*n+k] read l, which
 * the helper writes, but only at l[i*n+j] with j > k after those reads:
 * the joint adjoint reads them in place (transforms/tape/tbr_region.c;
 * tests/grad/trifac.sh counts the tape, golden.grad checks the
 * gradient). tests/grad/trinot.c is the case where a later pass writes
 * the elements read. */
static void
fac(int n, const double *a, double *l)
{
    for (int i = 0; i < n * n; i++)
        l[i] = 0.0;
    for (int j = 0; j < n; j++) {
        double d = a[j * n + j];
        for (int k = 0; k < j; k++)
            d -= l[j * n + k] * l[j * n + k];
        l[j * n + j] = d;
        for (int i = j + 1; i < n; i++) {
            double t = a[i * n + j];
            for (int k = 0; k < j; k++)
                t -= l[i * n + k] * l[j * n + k];
            l[i * n + j] = t / l[j * n + j];
        }
    }
}

void
trifac(const double x[16], double y[16])
{
    double a[16];
    for (int i = 0; i < 16; i++)
        a[i] = 0.1 * x[i] + (i % 5 == 0 ? 4.0 : 0.0);
    fac(4, a, y);
}

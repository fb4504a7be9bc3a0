/* c2xaif-test: rowsub 12 3 */
/* y = A v for a 3x4 matrix A (row-major in x[0..11]) and v = (1, 2, 3,
 * 4), through a helper whose row length c is a size passed in: the
 * subscript i * c + j reads c, which nothing in the helper writes, and
 * the loop variables. The adjoint computes it again, as Tapenade's does,
 * rather than tape it each iteration (tests/grad/rowsub.sh counts the
 * pushes; golden.grad checks the gradient). */
static void
rows(int r, int c, const double *a, const double *v, double *y)
{
    for (int i = 0; i < r; i++) {
        double s = 0.0;
        for (int j = 0; j < c; j++)
            s += a[i * c + j] * a[i * c + j] * v[j];
        y[i] = s;
    }
}

void
rowsub(const double x[12], double y[3])
{
    const double v[4] = {1.0, 2.0, 3.0, 4.0};
    rows(3, 4, x, v, y);
}

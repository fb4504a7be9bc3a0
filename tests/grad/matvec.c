/* c2xaif-test: matvec 12 3 */
/* y = A v for a 3x3 matrix A (row-major in x[0..8]) and v = x[9..11],
 * through a function over fixed-size arrays. */
static void
mv(const double a[9], const double v[3], double w[3])
{
    for (int i = 0; i < 3; i++) {
        w[i] = 0.0;
        for (int j = 0; j < 3; j++)
            w[i] += a[3 * i + j] * v[j];
    }
}

void
matvec(const double x[12], double y[3])
{
    double a[9], v[3];
    for (int k = 0; k < 9; k++)
        a[k] = x[k];
    for (int k = 0; k < 3; k++)
        v[k] = x[9 + k];
    mv(a, v, y);
}

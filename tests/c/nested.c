/* c2xaif-test: nested 4 3 */
/* Nested loops over a matrix: a local 3x4 array filled and reduced by rows. */
void
nested(const double x[4], double y[3])
{
    double a[3][4];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++)
            a[i][j] = x[j] * (i + 1) + x[(i + j) % 4] * x[j];
    for (int i = 0; i < 3; i++) {
        y[i] = 0.0;
        for (int j = 0; j <= i + 1; j++)
            y[i] = y[i] + a[i][j] * a[i][j];
    }
}

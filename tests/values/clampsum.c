/* clampsum: an int result (passive: the tangent returns it, the adjoint
 * is void) beside an active output array. */
int
clampsum(const double *x, double *y, int n)
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        if (x[i] > 1.0) {
            y[i] = 1.0 + 0.1 * x[i];
            k = k + 1;
        } else
            y[i] = x[i] * x[i];
    }
    return k;
}

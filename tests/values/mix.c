/* mix: a const input array, an in-out output array, a by-value real and
 * an int size: y = s * y + a elementwise, then s reused as a work variable. */
void
mix(const double *a, double *y, double s, int n)
{
    for (int i = 0; i < n; i++) {
        y[i] = s * y[i] + a[i] * a[i];
        s = s * 0.5 + a[i];
    }
}

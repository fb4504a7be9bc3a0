/* tailsum: an int parameter counted down; a caller that loops over
 * directions must find n unchanged after every call. */
double
tailsum(const double *x, int n)
{
    double s = 0.0;
    while (n > 0) {
        n = n - 1;
        s = s + x[n] * x[n] * (double)(n + 1);
    }
    return s;
}

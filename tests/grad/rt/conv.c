/* rt-test: --function conv --independent x --dependent y --extent x=n */
/* A sliding product over x of n elements, n known only at run time: y's
 * extent is found from its loop, x's (read at i + k) given as --extent. */
void
conv(const double *x, double *y, int n)
{
    for (int i = 0; i < n; i++) {
        double s = 0.0;
        for (int k = 0; k < 3; k++)
            if (i + k < n)
                s += x[i + k] * x[i + k] * (k + 1);
        y[i] = s;
    }
}

/* rt-test: --function names --independent x --dependent y --extent x=n,y=n */
/* Parameters passed through untouched: names (const char **) and ctx
 * (void *) are passive data of types xaiform does not differentiate; the
 * top function passes names on to a helper that takes it too. The
 * derivatives keep both in their signatures, at their places, once and
 * without derivative (names_main.c declares them so). */
static double
weigh(const double *v, const char **labels, int k)
{
    double s = 0.0;
    for (int i = 0; i < k; i++)
        s += v[i] * v[i];
    return s;
}

void
names(const double *x, const char **labels, double *y, int n, void *ctx)
{
    double s = weigh(x, labels, n);
    for (int i = 0; i < n; i++)
        y[i] = x[i] * s;
}

/* c2xaif-test: pointers 4 2 x=4,y=2 */
/* Pointer parameters used as arrays: the top function's extents come from
 * --extent, the callees' from the arrays their calls pass (one size for all
 * the calls of a callee), through two levels of calls. */
static double
norm2(const double *v, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += v[i] * v[i];
    return s;
}

static void
axpy(double a, const double *u, double *w, int n)
{
    for (int i = 0; i < n; i++)
        w[i] = w[i] + a * u[i];
    w[0] = w[0] + norm2(u, n);
}

void
pointers(const double *x, double *y)
{
    double t[4], r[4];
    for (int i = 0; i < 4; i++) {
        t[i] = x[i] * x[3 - i];
        r[i] = x[i];
    }
    axpy(0.5, x, t, 4);
    axpy(x[3], t, r, 3);
    y[0] = norm2(t, 4);
    y[1] = r[1] * r[2] + r[0];
}

/* rt-test: --function constrow --independent x --dependent y --extent x=n*d,p=n*d,y=n */
/* A passive array the caller defined const (read-only memory, in
 * constrow_main.c) reaches a helper through a const pointer: the joint
 * adjoint's argument checkpoint of the helper must restore it without
 * writing it (a write there is a crash). */
static double
dist2(int d, const double *a, const double *b)
{
    double s = 0.0;
    for (int i = 0; i < d; i++)
        s += (a[i] - b[i]) * (a[i] - b[i]);
    return s;
}

void
constrow(const double *x, const double *p, double *y, int n, int d)
{
    for (int i = 0; i < n; i++)
        y[i] = dist2(d, &p[i * d], &x[i * d]);
    y[0] = y[0] * dist2(n * d, p, x);
}

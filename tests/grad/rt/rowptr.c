/* rt-test: --function rowptr --independent x --dependent y --extent x=n*d,y=n */
/* Pointers into arrays: a row pointer local (&x[i*d]) passed to a helper,
 * x + i*d passed, *p and p[k], a pointer walked by p++, and one helper
 * (cross) given arrays of 3, 11 and n*d elements, at an offset or not. */
static void
cross(const double *a, const double *b, double *out)
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

static double
dot(const double *u, const double *v, int k)
{
    double s = 0.0;
    for (int i = 0; i < k; i++)
        s += u[i] * v[i];
    return s;
}

void
rowptr(const double *x, double *y, int n, int d)
{
    double w[11], c[3], e[3];
    for (int i = 0; i < 11; i++)
        w[i] = 0.1 * (i + 1);
    for (int i = 0; i < n; i++) {
        const double *row = &x[i * d];
        double s = dot(row, row, d);
        s += dot(x + i * d, w, 1);
        y[i] = s * *row + row[d - 1];
    }
    cross(&x[0], w, c);
    cross(c, w + 3, e);
    const double *q = x;
    double t = 0.0;
    for (int k = 0; k < n * d; k++) {
        t += *q * q[0];
        q++;
    }
    double *p = y + (n - 1);
    *p = *p + t + e[0] * e[1] + e[2];
}

/* rt-test: --function passon --independent x --dependent y --extent x=n*d,y=n+2 */
/* Extents that flow through calls: rotate() passes its whole rot to
 * sqsum(3, rot) (sqsum's extent is its parameter k) and to cross(), and
 * indexes it with constants; scaled() passes its whole v to sqsum(m, v),
 * so v has m elements, m being scaled()'s own parameter; shift() indexes
 * its p only with constants (p[0], p[2]: 3 elements); lead() passes q to
 * s3(const double a[3]) and reads q[1] (3 elements). None of them gets an
 * --extent: each extent comes from what its callees need. */
#include <math.h>

static double
sqsum(int k, const double *a)
{
    double s = 0.0;
    for (int i = 0; i < k; i++)
        s += a[i] * a[i];
    return s;
}

static void
cross(const double *a, const double *b, double *out)
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

static void
rotate(const double *rot, const double *pt, double *out)
{
    double th = sqrt(sqsum(3, rot) + 1e-3), c[3];
    cross(rot, pt, c);
    for (int i = 0; i < 3; i++)
        out[i] = pt[i] * cos(th) + c[i] * sin(th) / th + rot[i] * 0.1;
}

static double
scaled(int m, const double *v, double f)
{
    return f * sqsum(m, v);
}

static double
shift(const double *p)
{
    return p[0] - 2.0 * p[2];
}

static double
s3(const double a[3])
{
    return a[0] + a[1] * a[2];
}

static double
lead(const double *q)
{
    return s3(q) * q[1];
}

void
passon(const double *x, double *y, int n, int d)
{
    double pt[3] = {0.3, -0.2, 0.5}, r[3] = {0.0, 0.0, 0.0};
    for (int i = 0; i < n; i++) {
        rotate(&x[i * d], pt, r);
        y[i] = r[0] * r[1] + r[2] + scaled(d, &x[i * d], 0.5) + shift(x + i * d);
    }
    y[n] = scaled(n * d, x, 1.0);
    y[n + 1] = shift(r) + lead(&x[(n - 1) * d]);
}

/* cgrad: cpoly --independent z,c --dependent out --extent c=2*n */
/* A complex polynomial sum c_k z^k evaluated with a struct for complex
 * numbers, helpers that take and return it by value, locals of it. */
typedef struct {
    double re, im;
} cplx;

static cplx
cmul(cplx a, cplx b)
{
    cplx r = {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
    return r;
}

static cplx
cadd(cplx a, cplx b)
{
    cplx r = {a.re + b.re, a.im + b.im};
    return r;
}

void
cpoly(int n, const double *z, const double *c, double *out)
{
    cplx zz = {z[0], z[1]}, acc = {c[2 * (n - 1)], c[2 * (n - 1) + 1]};
    for (int k = n - 2; k >= 0; k--) {
        cplx ck = {c[2 * k], c[2 * k + 1]};
        acc = cadd(cmul(acc, zz), ck);
    }
    out[0] = acc.re;
    out[1] = acc.im;
}

#ifdef XF_CHECK
#include "check.h"
void cpoly_d(int n, const double *z, const double *zd, const double *c, const double *cd,
             double *out, double *outd);
void cpoly_b(int n, const double *z, double *zb, const double *c, double *cb, double *out,
             double *outb);
enum { N = 4 };
XF_SIZES(2 + 2 * N, 2)
XF_POINT(x)
{
    for (int i = 0; i < 2 + 2 * N; i++)
        x[i] = 0.6 - 0.2 * i + 0.5 * (i % 2);
}
XF_F(x, y)
{
    cpoly(N, x, x + 2, y);
}
XF_D(x, xd, y, yd)
{
    cpoly_d(N, x, xd, x + 2, xd + 2, y, yd);
}
XF_B(x, xb, yb)
{
    cpoly_b(N, x, xb, x + 2, xb + 2, (double[2]){0}, yb);
}
XF_MAIN
#endif

/* cgrad: cfield --independent z,w --dependent out --extent z=2*n,w=2*n */
/* Complex helpers that return structs by value: products and exponentials
 * called in a loop, a call as another call's argument, a member of a
 * returned struct (cmul(a, b).im), a returned compound literal, a result
 * with a nested struct and an array member, and a helper returning a
 * struct that calls another. out[0], out[1]: sum_k w_k exp(z_k^2);
 * out[2]: sum_k Im(z_k w_k) * s_k[1], s_k the scaled square of z_k. */
#include <math.h>

typedef struct {
    double re, im;
} Cplx;

typedef struct {
    Cplx v;
    double s[2];
} Term;

static Cplx
cmul(Cplx a, Cplx b)
{
    return (Cplx){a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}

static Cplx
cexpo(Cplx a)
{
    Cplx r;
    double m = exp(a.re);
    r.re = m * cos(a.im);
    r.im = m * sin(a.im);
    return r;
}

static Term
square_term(Cplx z, double scale)
{
    Term t;
    t.v = cmul(z, z);
    t.s[0] = scale * t.v.re;
    t.s[1] = scale * t.v.im;
    return t;
}

void
cfield(int n, const double *z, const double *w, double *out)
{
    Cplx acc = {0.0, 0.0};
    double im = 0.0;
    for (int k = 0; k < n; k++) {
        Cplx zk = {z[2 * k], z[2 * k + 1]}, wk = {w[2 * k], w[2 * k + 1]};
        Term t = square_term(zk, 0.5 + 0.25 * k);
        Cplx e = cmul(wk, cexpo(t.v));
        acc.re += e.re;
        acc.im += e.im;
        im += cmul(zk, wk).im * t.s[1];
    }
    out[0] = acc.re;
    out[1] = acc.im;
    out[2] = im;
}

#ifdef XF_CHECK
#include "check.h"
void cfield_d(int n, const double *z, const double *zd, const double *w, const double *wd,
              double *out, double *outd);
void cfield_b(int n, const double *z, double *zb, const double *w, double *wb, double *out,
              double *outb);
enum { N = 3 };
XF_SIZES(4 * N, 3)
XF_POINT(x)
{
    for (int i = 0; i < 4 * N; i++)
        x[i] = 0.45 - 0.15 * i + 0.3 * (i % 3);
}
XF_F(x, y)
{
    cfield(N, x, x + 2 * N, y);
}
XF_D(x, xd, y, yd)
{
    cfield_d(N, x, xd, x + 2 * N, xd + 2 * N, y, yd);
}
XF_B(x, xb, yb)
{
    cfield_b(N, x, xb, x + 2 * N, xb + 2 * N, (double[3]){0}, yb);
}
XF_MAIN
#endif

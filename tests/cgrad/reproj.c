/* cgrad: reproj --independent cam,pt,w --dependent err */
/* The weighted reprojection residual of one point seen by one camera,
 * from the pinhole model: cam = (angle-axis r[3], centre c[3], focal f,
 * principal point u0[2], radial distortion k1, k2); Xc = R(r) (X - c),
 * p = Xc[0..1] / Xc[2], distorted by (1 + k1 |p|^2 + k2 |p|^4), times f,
 * plus u0; err = w (proj - feat). The weight is a by-value scalar. */
#include <math.h>

static void
rotate(const double *r, const double *v, double *out)
{
    double t2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2], t = sqrt(t2);
    double c = cos(t), s = sin(t) / t, rv = (r[0] * v[0] + r[1] * v[1] + r[2] * v[2]) / t2;
    double rx[3] = {r[1] * v[2] - r[2] * v[1], r[2] * v[0] - r[0] * v[2],
                    r[0] * v[1] - r[1] * v[0]};
    for (int i = 0; i < 3; i++)
        out[i] = v[i] * c + rx[i] * s + r[i] * rv * (1 - c);
}

static void
distort(const double *k, double *p)
{
    double r2 = p[0] * p[0] + p[1] * p[1];
    double f = 1.0 + k[0] * r2 + k[1] * r2 * r2;
    p[0] *= f;
    p[1] *= f;
}

void
reproj(const double *cam, const double *pt, double w, const double *feat, double *err)
{
    double v[3], xc[3], p[2];
    for (int i = 0; i < 3; i++)
        v[i] = pt[i] - cam[3 + i];
    rotate(cam, v, xc);
    p[0] = xc[0] / xc[2];
    p[1] = xc[1] / xc[2];
    distort(&cam[9], p);
    err[0] = w * (cam[6] * p[0] + cam[7] - feat[0]);
    err[1] = w * (cam[6] * p[1] + cam[8] - feat[1]);
}

#ifdef XF_CHECK
#include "check.h"
void reproj_d(const double *cam, const double *camd, const double *pt, const double *ptd, double w,
              double wd, const double *feat, double *err, double *errd);
void reproj_b(const double *cam, double *camb, const double *pt, double *ptb, double w, double *wb,
              const double *feat, double *err, double *errb);
static const double feat[2] = {0.1, -0.2};
XF_SIZES(15, 2)
XF_POINT(x)
{
    static const double v[15] = {0.1,   -0.2, 0.15,  0.3, 0.2,  -0.1, 2.0, 0.05,
                                 -0.03, 0.01, 0.002, 0.4, -0.3, 5.0,  0.8};
    for (int i = 0; i < 15; i++)
        x[i] = v[i];
}
XF_F(x, y)
{
    reproj(x, x + 11, x[14], feat, y);
}
XF_D(x, xd, y, yd)
{
    reproj_d(x, xd, x + 11, xd + 11, x[14], xd[14], feat, y, yd);
}
XF_B(x, xb, yb)
{
    reproj_b(x, xb, x + 11, xb + 11, x[14], &xb[14], feat, (double[2]){0}, yb);
}
XF_MAIN
#endif

/* cgrad: rodrigues --independent r,p --dependent out */
/* Rotates the point p by the angle-axis vector r (angle |r|, axis r/|r|):
 * p cos t + (k x p) sin t + k (k . p)(1 - cos t), written from the
 * formula with small helpers. */
#include <math.h>

static double
dot3(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void
cross3(const double *a, const double *b, double *out)
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

void
rodrigues(const double *r, const double *p, double *out)
{
    double theta = sqrt(dot3(r, r));
    double k[3], kxp[3];
    for (int i = 0; i < 3; i++)
        k[i] = r[i] / theta;
    cross3(k, p, kxp);
    double c = cos(theta), s = sin(theta), kp = dot3(k, p);
    for (int i = 0; i < 3; i++)
        out[i] = p[i] * c + kxp[i] * s + k[i] * kp * (1.0 - c);
}

#ifdef XF_CHECK
#include "check.h"
void rodrigues_d(const double *r, const double *rd, const double *p, const double *pd, double *out,
                 double *outd);
void rodrigues_b(const double *r, double *rb, const double *p, double *pb, double *out,
                 double *outb);
XF_SIZES(6, 3)
XF_POINT(x)
{
    static const double v[6] = {0.3, -0.2, 0.6, 1.5, 0.25, -0.75};
    for (int i = 0; i < 6; i++)
        x[i] = v[i];
}
XF_F(x, y)
{
    rodrigues(x, x + 3, y);
}
XF_D(x, xd, y, yd)
{
    rodrigues_d(x, xd, x + 3, xd + 3, y, yd);
}
XF_B(x, xb, yb)
{
    rodrigues_b(x, xb, x + 3, xb + 3, (double[3]){0}, yb);
}
XF_MAIN
#endif

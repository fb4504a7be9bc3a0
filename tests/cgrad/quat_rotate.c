/* cgrad: quat_rotate --independent q,v --dependent out */
/* Rotates v by the unit quaternion q/|q| (w, x, y, z): out = v + 2w(u x v)
 * + 2 u x (u x v), u the vector part, with a cross-product helper. */
#include <math.h>

static void
cross(const double *a, const double *b, double *out)
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

void
quat_rotate(const double q[4], const double v[3], double out[3])
{
    double len = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    double w = q[0] / len, u[3], t[3], s[3];
    for (int i = 0; i < 3; i++)
        u[i] = q[i + 1] / len;
    cross(u, v, t);
    cross(u, t, s);
    for (int i = 0; i < 3; i++)
        out[i] = v[i] + 2.0 * w * t[i] + 2.0 * s[i];
}

#ifdef XF_CHECK
#include "check.h"
void quat_rotate_d(const double q[4], const double qd[4], const double v[3], const double vd[3],
                   double out[3], double outd[3]);
void quat_rotate_b(const double q[4], double qb[4], const double v[3], double vb[3], double out[3],
                   double outb[3]);
XF_SIZES(7, 3)
XF_POINT(x)
{
    static const double p[7] = {0.9, 0.2, -0.3, 0.4, 1.0, -2.0, 0.5};
    for (int i = 0; i < 7; i++)
        x[i] = p[i];
}
XF_F(x, y)
{
    quat_rotate(x, x + 4, y);
}
XF_D(x, xd, y, yd)
{
    quat_rotate_d(x, xd, x + 4, xd + 4, y, yd);
}
XF_B(x, xb, yb)
{
    quat_rotate_b(x, xb, x + 4, xb + 4, (double[3]){0}, yb);
}
XF_MAIN
#endif

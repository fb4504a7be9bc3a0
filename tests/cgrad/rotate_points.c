/* cgrad: rotate_points --independent rot,pts --dependent out --extent rot=3,pts=3*n,out=3*n */
/* Rotates n points (3 each) by one angle-axis vector, calling a helper on
 * each point's row &pts[3*i] and writing &out[3*i]. */
#include <math.h>

static void
rotate_one(const double *rot, const double *pt, double *res)
{
    double t = sqrt(rot[0] * rot[0] + rot[1] * rot[1] + rot[2] * rot[2]);
    double k[3] = {rot[0] / t, rot[1] / t, rot[2] / t};
    double c = cos(t), s = sin(t);
    double kp = k[0] * pt[0] + k[1] * pt[1] + k[2] * pt[2];
    double kx[3] = {k[1] * pt[2] - k[2] * pt[1], k[2] * pt[0] - k[0] * pt[2],
                    k[0] * pt[1] - k[1] * pt[0]};
    for (int i = 0; i < 3; i++)
        res[i] = pt[i] * c + kx[i] * s + k[i] * kp * (1 - c);
}

void
rotate_points(int n, const double *rot, const double *pts, double *out)
{
    for (int i = 0; i < n; i++)
        rotate_one(rot, &pts[3 * i], &out[3 * i]);
}

#ifdef XF_CHECK
#include "check.h"
void rotate_points_d(int n, const double *rot, const double *rotd, const double *pts,
                     const double *ptsd, double *out, double *outd);
void rotate_points_b(int n, const double *rot, double *rotb, const double *pts, double *ptsb,
                     double *out, double *outb);
enum { N = 4 * XF_SCALE };
XF_SIZES(3 + 3 * N, 3 * N)
XF_POINT(x)
{
    for (int i = 0; i < 3 + 3 * N; i++)
        x[i] = 0.2 + 0.15 * i - 0.4 * (i % 2);
}
XF_F(x, y)
{
    rotate_points(N, x, x + 3, y);
}
XF_D(x, xd, y, yd)
{
    rotate_points_d(N, x, xd, x + 3, xd + 3, y, yd);
}
XF_B(x, xb, yb)
{
    rotate_points_b(N, x, xb, x + 3, xb + 3, (double[3 * N]){0}, yb);
}
XF_MAIN
#endif

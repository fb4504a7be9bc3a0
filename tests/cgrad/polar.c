/* cgrad: polar --independent xy --dependent out --extent xy=2*n,out=3*n */
/* Cartesian to polar coordinates of n points with hypot and atan2, and
 * the cube root of each radius (cbrt). */
#include <math.h>

void
polar(int n, const double *xy, double *out)
{
    for (int i = 0; i < n; i++) {
        double r = hypot(xy[2 * i], xy[2 * i + 1]);
        out[3 * i] = r;
        out[3 * i + 1] = atan2(xy[2 * i + 1], xy[2 * i]);
        out[3 * i + 2] = cbrt(r);
    }
}

#ifdef XF_CHECK
#include "check.h"
void polar_d(int n, const double *xy, const double *xyd, double *out, double *outd);
void polar_b(int n, const double *xy, double *xyb, double *out, double *outb);
enum { N = 3 };
XF_SIZES(2 * N, 3 * N)
XF_POINT(x)
{
    static const double v[2 * N] = {1.0, 0.5, -0.3, 2.0, -1.5, -0.4};
    for (int i = 0; i < 2 * N; i++)
        x[i] = v[i];
}
XF_F(x, y)
{
    polar(N, x, y);
}
XF_D(x, xd, y, yd)
{
    polar_d(N, x, xd, y, yd);
}
XF_B(x, xb, yb)
{
    polar_b(N, x, xb, (double[3 * N]){0}, yb);
}
XF_MAIN
#endif

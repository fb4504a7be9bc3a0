/* cgrad: euler_matrix --independent a --dependent r */
/* The rotation matrix Rz(a2) Ry(a1) Rx(a0), row-major 3x3, as the product
 * of three elementary rotations built in local 3x3 arrays. */
#include <math.h>

static void
mul3(const double a[3][3], const double b[3][3], double c[3][3])
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            c[i][j] = a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j];
}

void
euler_matrix(const double a[3], double r[9])
{
    double rx[3][3] = {{1, 0, 0}, {0, cos(a[0]), -sin(a[0])}, {0, sin(a[0]), cos(a[0])}};
    double ry[3][3] = {{cos(a[1]), 0, sin(a[1])}, {0, 1, 0}, {-sin(a[1]), 0, cos(a[1])}};
    double rz[3][3] = {{cos(a[2]), -sin(a[2]), 0}, {sin(a[2]), cos(a[2]), 0}, {0, 0, 1}};
    double t[3][3], u[3][3];
    mul3(ry, rx, t);
    mul3(rz, t, u);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            r[3 * i + j] = u[i][j];
}

#ifdef XF_CHECK
#include "check.h"
void euler_matrix_d(const double a[3], const double ad[3], double r[9], double rd[9]);
void euler_matrix_b(const double a[3], double ab[3], double r[9], double rb[9]);
XF_SIZES(3, 9)
XF_POINT(x)
{
    x[0] = 0.4, x[1] = -0.7, x[2] = 1.1;
}
XF_F(x, y)
{
    euler_matrix(x, y);
}
XF_D(x, xd, y, yd)
{
    euler_matrix_d(x, xd, y, yd);
}
XF_B(x, xb, yb)
{
    euler_matrix_b(x, xb, (double[9]){0}, yb);
}
XF_MAIN
#endif

/* cgrad: quat_chain --independent q --dependent out --extent q=4*n */
/* The Hamilton product of n quaternions q[4i..4i+3], left to right, with
 * a product helper that writes through a pointer. */
static void
quat_mul(const double *p, const double *q, double *r)
{
    r[0] = p[0] * q[0] - p[1] * q[1] - p[2] * q[2] - p[3] * q[3];
    r[1] = p[0] * q[1] + p[1] * q[0] + p[2] * q[3] - p[3] * q[2];
    r[2] = p[0] * q[2] - p[1] * q[3] + p[2] * q[0] + p[3] * q[1];
    r[3] = p[0] * q[3] + p[1] * q[2] - p[2] * q[1] + p[3] * q[0];
}

void
quat_chain(int n, const double *q, double out[4])
{
    double acc[4], tmp[4];
    for (int k = 0; k < 4; k++)
        acc[k] = q[k];
    for (int i = 1; i < n; i++) {
        quat_mul(acc, &q[4 * i], tmp);
        for (int k = 0; k < 4; k++)
            acc[k] = tmp[k];
    }
    for (int k = 0; k < 4; k++)
        out[k] = acc[k];
}

#ifdef XF_CHECK
#include "check.h"
void quat_chain_d(int n, const double *q, const double *qd, double out[4], double outd[4]);
void quat_chain_b(int n, const double *q, double *qb, double out[4], double outb[4]);
enum { N = 3 };
XF_SIZES(4 * N, 4)
XF_POINT(x)
{
    for (int i = 0; i < 4 * N; i++)
        x[i] = 0.5 - 0.15 * i + 0.05 * (i % 4);
}
XF_F(x, y)
{
    quat_chain(N, x, y);
}
XF_D(x, xd, y, yd)
{
    quat_chain_d(N, x, xd, y, yd);
}
XF_B(x, xb, yb)
{
    quat_chain_b(N, x, xb, (double[4]){0}, yb);
}
XF_MAIN
#endif

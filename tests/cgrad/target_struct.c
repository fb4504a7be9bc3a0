/* cgrad: target_loss --independent p,x --dependent target_loss */
/* A weighted squared distance whose targets come through a `const double *`
 * member of a struct passed by value, active with the weight: the extents
 * of x and p.t are found from the loop over p.n; the twin's member is a
 * plain `double *`. */
typedef struct {
    int n;
    const double *t;
    double s;
} target_t;

double
target_loss(target_t p, const double *x)
{
    double r = 0.0;
    for (int i = 0; i < p.n; i++)
        r += (x[i] - p.t[i]) * (x[i] - p.t[i]) * p.s;
    return r;
}

#ifdef XF_CHECK
#include "check.h"
typedef struct {
    double *t;
    double s;
} target_t_diff;
double target_loss_d(target_t p, target_t_diff pd, const double *x, const double *xd,
                     double *target_loss);
void target_loss_b(target_t p, target_t_diff *pb, const double *x, double *xb, double target_lossb);
enum { N = 4 };
XF_SIZES(2 * N + 1, 1)
XF_POINT(x)
{
    for (int i = 0; i < 2 * N + 1; i++)
        x[i] = 0.45 * i - 1.3;
}
XF_F(x, y)
{
    target_t p = {N, x + N, x[2 * N]};
    y[0] = target_loss(p, x);
}
XF_D(x, xd, y, yd)
{
    target_t p = {N, x + N, x[2 * N]};
    target_t_diff pd = {xd + N, xd[2 * N]};
    yd[0] = target_loss_d(p, pd, x, xd, &y[0]);
}
XF_B(x, xb, yb)
{
    target_t p = {N, x + N, x[2 * N]};
    target_t_diff pb = {xb + N, xb[2 * N]};
    target_loss_b(p, &pb, x, xb, yb[0]);
    xb[2 * N] = pb.s; /* the scalar member's adjoint, by value in the twin */
}
XF_MAIN
#endif

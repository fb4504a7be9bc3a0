/* cgrad: potential --independent p --dependent potential */
/* The potential at a point p of n bodies, each a nested struct (a sphere
 * with a centre and a radius, and a mass) in a passive array:
 * sum m / sqrt(|p - c|^2 + r^2). */
#include <math.h>

typedef struct {
    double center[3];
    double radius;
} sphere_t;

typedef struct {
    sphere_t shape;
    double mass;
} body_t;

double
potential(int n, const body_t *b, const double *p)
{
    double u = 0.0;
    for (int i = 0; i < n; i++) {
        const sphere_t *s = &b[i].shape;
        double d2 = s->radius * s->radius;
        for (int k = 0; k < 3; k++)
            d2 += (p[k] - s->center[k]) * (p[k] - s->center[k]);
        u += b[i].mass / sqrt(d2);
    }
    return u;
}

#ifdef XF_CHECK
#include "check.h"
double potential_d(int n, const body_t *b, const double *p, const double *pd, double *potential);
void potential_b(int n, const body_t *b, const double *p, double *pb, double potentialb);
static const body_t bs[3] = {
    {{{0, 0, 0}, 0.5}, 1.0}, {{{1, 2, 0}, 0.2}, 2.0}, {{{-1, 0.5, 1}, 1.0}, 0.7}};
XF_SIZES(3, 1)
XF_POINT(x)
{
    x[0] = 0.3, x[1] = 0.9, x[2] = -0.4;
}
XF_F(x, y)
{
    y[0] = potential(3, bs, x);
}
XF_D(x, xd, y, yd)
{
    yd[0] = potential_d(3, bs, x, xd, &y[0]);
}
XF_B(x, xb, yb)
{
    potential_b(3, bs, x, xb, yb[0]);
}
XF_MAIN
#endif

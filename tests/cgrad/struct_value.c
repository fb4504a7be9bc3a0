/* cgrad: field --independent b,p --dependent field */
/* The potential at p of a body given by value: a nested struct (a sphere
 * with a centre array and a radius) with a mass and a passive id, all
 * active but the id; a helper takes the sphere by pointer (&b.s), a local
 * sphere is set from an initializer list and another by assignment;
 * another helper takes the sphere by value and changes its copy. */
#include <math.h>

typedef struct {
    double c[3];
    double r;
} sphere_t;

typedef struct {
    sphere_t s;
    double mass;
    int id;
} body_t;

static double
dist2(const sphere_t *s, const double p[3])
{
    double d = s->r * s->r;
    for (int k = 0; k < 3; k++)
        d += (p[k] - s->c[k]) * (p[k] - s->c[k]);
    return d;
}

/* changes its own copy of the sphere, not the caller's */
static double
shifted(sphere_t s, double dx)
{
    s.c[0] += dx;
    return s.c[0] * s.c[0] + s.r;
}

double
field(body_t b, const double p[3])
{
    double g = 0.1 * shifted(b.s, 0.3);
    sphere_t u = {{p[0], p[1], p[2]}, 0.5};
    sphere_t t;
    t = b.s;
    t.r = t.r * (1.0 + 0.1 * b.id);
    return g + b.mass / sqrt(dist2(&t, p)) + 0.25 * b.mass / dist2(&u, b.s.c);
}

#ifdef XF_CHECK
#include "check.h"
typedef struct {
    double c[3];
    double r;
} sphere_t_diff;
typedef struct {
    sphere_t_diff s;
    double mass;
} body_t_diff;
double field_d(body_t b, body_t_diff bd, const double p[3], const double pd[3], double *field);
void field_b(body_t b, body_t_diff *bb, const double p[3], double pb[3], double fieldb);
XF_SIZES(8, 1)
XF_POINT(x)
{
    for (int i = 0; i < 8; i++)
        x[i] = 0.3 + 0.45 * i - 0.1 * (i % 3);
}
static body_t
body(const double *x)
{
    body_t b = {{{x[0], x[1], x[2]}, x[3]}, x[4], 2};
    return b;
}
XF_F(x, y)
{
    y[0] = field(body(x), x + 5);
}
XF_D(x, xd, y, yd)
{
    body_t_diff bd = {{{xd[0], xd[1], xd[2]}, xd[3]}, xd[4]};
    yd[0] = field_d(body(x), bd, x + 5, xd + 5, &y[0]);
}
XF_B(x, xb, yb)
{
    body_t_diff bb = {{{xb[0], xb[1], xb[2]}, xb[3]}, xb[4]};
    field_b(body(x), &bb, x + 5, xb + 5, yb[0]);
    for (int k = 0; k < 3; k++)
        xb[k] = bb.s.c[k];
    xb[3] = bb.s.r, xb[4] = bb.mass;
}
XF_MAIN
#endif

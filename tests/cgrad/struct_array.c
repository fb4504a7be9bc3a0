/* cgrad: potential --independent b,p --dependent potential */
/* The potential at p of n bodies given as an array of structs (a nested
 * sphere with a centre array and a radius, a mass, a passive id), all
 * active: sum m_i / sqrt(|p - c_i|^2 + r_i^2). A helper takes one body by
 * pointer (&b[i]), another a body array whole, a third a body by value;
 * the extent n comes from the loop over b[i]. */
#include <math.h>

typedef struct {
    double center[3];
    double radius;
} sphere_t;

typedef struct {
    sphere_t shape;
    double mass;
    int id;
} body_t;

static double
inv_dist(const body_t *b, const double p[3])
{
    double d2 = b->shape.radius * b->shape.radius;
    for (int k = 0; k < 3; k++)
        d2 += (p[k] - b->shape.center[k]) * (p[k] - b->shape.center[k]);
    return 1.0 / sqrt(d2);
}

static double
total_mass(int n, const body_t *b)
{
    double m = 0.0;
    for (int i = 0; i < n; i++)
        m += b[i].mass * (1 + b[i].id) + 0.1 * b[i].shape.radius * b[i].shape.center[2];
    return m;
}

static double
spread(body_t b)
{
    b.mass = b.mass * b.shape.radius;
    return b.mass + b.shape.center[1];
}

double
potential(int n, const body_t *b, const double p[3])
{
    double u = 0.0;
    for (int i = 0; i < n; i++)
        u += b[i].mass * inv_dist(&b[i], p) + 0.01 * spread(b[i]);
    return u * total_mass(n, b);
}

#ifdef XF_CHECK
#include "check.h"
typedef struct {
    double center[3];
    double radius;
} sphere_t_diff;
typedef struct {
    sphere_t_diff shape;
    double mass;
} body_t_diff;
double potential_d(int n, const body_t *b, const body_t_diff *bd, const double p[3],
                   const double pd[3], double *potential);
void potential_b(int n, const body_t *b, body_t_diff *bb, const double p[3], double pb[3],
                 double potentialb);
enum { N = 3, NX = 5 * N + 3 };
XF_SIZES(NX, 1)
XF_POINT(x)
{
    for (int i = 0; i < NX; i++)
        x[i] = 0.2 + 0.37 * i - 0.15 * (i % 4);
}
static void
bodies(const double *x, body_t *b)
{
    for (int i = 0; i < N; i++) {
        for (int k = 0; k < 3; k++)
            b[i].shape.center[k] = x[5 * i + k];
        b[i].shape.radius = x[5 * i + 3], b[i].mass = x[5 * i + 4], b[i].id = i;
    }
}
static void
dbodies(const double *x, body_t_diff *b)
{
    for (int i = 0; i < N; i++) {
        for (int k = 0; k < 3; k++)
            b[i].shape.center[k] = x[5 * i + k];
        b[i].shape.radius = x[5 * i + 3], b[i].mass = x[5 * i + 4];
    }
}
XF_F(x, y)
{
    body_t b[N];
    bodies(x, b);
    y[0] = potential(N, b, x + 5 * N);
}
XF_D(x, xd, y, yd)
{
    body_t b[N];
    body_t_diff bd[N];
    bodies(x, b);
    dbodies(xd, bd);
    yd[0] = potential_d(N, b, bd, x + 5 * N, xd + 5 * N, &y[0]);
}
XF_B(x, xb, yb)
{
    body_t b[N];
    body_t_diff bb[N];
    bodies(x, b);
    dbodies(xb, bb);
    potential_b(N, b, bb, x + 5 * N, xb + 5 * N, yb[0]);
    for (int i = 0; i < N; i++) {
        for (int k = 0; k < 3; k++)
            xb[5 * i + k] = bb[i].shape.center[k];
        xb[5 * i + 3] = bb[i].shape.radius, xb[5 * i + 4] = bb[i].mass;
    }
}
XF_MAIN
#endif

/* cgrad: cluster_energy --independent x,w --dependent e --extent x=3*n */
/* Local arrays of structs with active members: `particle ps[8]` filled
 * member by member in a loop (a nested struct with a member array among
 * the members, a passive int), one element copied into another
 * (last[i % 2] = ps[i]), an element passed by pointer (&ps[i]) and by value
 * (ps[i]), and the whole array passed to a helper that indexes it; a
 * second local array of structs, cleared from a struct initialized {0},
 * reduced into a scalar struct. */
#include <math.h>

typedef struct {
    double pos[3];
    double r;
} ball;

typedef struct {
    ball b;
    double m;
    int kind;
} particle;

static double
pair(const particle *p, const particle *q)
{
    double d2 = p->b.r * q->b.r;
    for (int k = 0; k < 3; k++)
        d2 += (p->b.pos[k] - q->b.pos[k]) * (p->b.pos[k] - q->b.pos[k]);
    return p->m * q->m / sqrt(d2);
}

static double
kinetic(particle p)
{
    p.m = p.m * (1 + p.kind);
    return 0.5 * p.m * p.b.r * p.b.r;
}

static double
all_pairs(int n, const particle *ps)
{
    double u = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            if (j > i)
                u += pair(&ps[i], &ps[j]);
    return u;
}

void
cluster_energy(int n, const double *x, const double w[2], double *e)
{
    particle ps[8], last[2], none = {0};
    last[0] = none;
    last[1] = none;
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < 3; k++)
            ps[i].b.pos[k] = x[3 * i + k];
        ps[i].b.r = 0.1 + w[0] * x[3 * i + 1] * x[3 * i];
        ps[i].m = 1 + w[1] * i;
        ps[i].kind = i % 2;
        last[i % 2] = ps[i];
    }
    last[1].m = last[1].m * w[0];
    double t = 0;
    for (int i = 0; i < n; i++)
        t += kinetic(ps[i]);
    ball c = {{0, 0, 0}, 0};
    for (int i = 0; i < 2; i++) {
        for (int k = 0; k < 3; k++)
            c.pos[k] += 0.5 * last[i].b.pos[k];
        c.r += last[i].m * last[i].b.r;
    }
    e[0] = all_pairs(n, ps) + t;
    e[1] = c.r * c.pos[0] + c.pos[1] * c.pos[2] + pair(&last[0], &last[1]);
}

#ifdef XF_CHECK
#include "check.h"
void cluster_energy_d(int n, const double *x, const double *xd, const double w[2],
                      const double wd[2], double *e, double *ed);
void cluster_energy_b(int n, const double *x, double *xb, const double w[2], double wb[2],
                      double *e, double *eb);
enum { N = 5, NX = 3 * N + 2 };
XF_SIZES(NX, 2)
XF_POINT(x)
{
    for (int i = 0; i < NX; i++)
        x[i] = 0.2 + 0.3 * i + 0.15 * (i % 3);
    x[3 * N] = 0.3, x[3 * N + 1] = 0.7;
}
XF_F(x, y)
{
    cluster_energy(N, x, x + 3 * N, y);
}
XF_D(x, xd, y, yd)
{
    cluster_energy_d(N, x, xd, x + 3 * N, xd + 3 * N, y, yd);
}
XF_B(x, xb, yb)
{
    cluster_energy_b(N, x, xb, x + 3 * N, xb + 3 * N, (double[2]){0}, yb);
}
XF_MAIN
#endif

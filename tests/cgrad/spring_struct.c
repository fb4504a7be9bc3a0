/* cgrad: spring_energy --independent s,x --dependent e --extent x=n */
/* The energy of n masses on a chain of springs whose stiffness and rest
 * length come in a struct with active members: e = sum k (x_{i+1} - x_i -
 * L)^2 / 2. Its derivative takes a twin struct, spring_t_diff in
 * Tapenade's naming. */
typedef struct {
    double k;
    double rest;
} spring_t;

void
spring_energy(const spring_t *s, int n, const double *x, double *e)
{
    double sum = 0.0;
    for (int i = 0; i + 1 < n; i++) {
        double d = x[i + 1] - x[i] - s->rest;
        sum += 0.5 * s->k * d * d;
    }
    *e = sum;
}

#ifdef XF_CHECK
#include "check.h"
typedef struct {
    double k;
    double rest;
} spring_t_diff;
void spring_energy_d(const spring_t *s, const spring_t_diff *sd, int n, const double *x,
                     const double *xd, double *e, double *ed);
void spring_energy_b(const spring_t *s, spring_t_diff *sb, int n, const double *x, double *xb,
                     double *e, double *eb);
enum { N = 5 };
XF_SIZES(2 + N, 1)
XF_POINT(x)
{
    x[0] = 2.0, x[1] = 0.7;
    for (int i = 0; i < N; i++)
        x[2 + i] = 0.9 * i + 0.1 * (i % 2);
}
XF_F(x, y)
{
    spring_t s = {x[0], x[1]};
    spring_energy(&s, N, x + 2, y);
}
XF_D(x, xd, y, yd)
{
    spring_t s = {x[0], x[1]};
    spring_t_diff sd = {xd[0], xd[1]};
    spring_energy_d(&s, &sd, N, x + 2, xd + 2, y, yd);
}
XF_B(x, xb, yb)
{
    spring_t s = {x[0], x[1]};
    spring_t_diff sb = {xb[0], xb[1]};
    double e;
    spring_energy_b(&s, &sb, N, x + 2, xb + 2, &e, yb);
    xb[0] = sb.k, xb[1] = sb.rest;
}
XF_MAIN
#endif

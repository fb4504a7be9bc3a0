/* cgrad: rk_step --independent in --dependent out */
/* One explicit midpoint step of a damped oscillator whose state is a
 * struct passed by pointer: position and velocity arrays, nested
 * parameters (stiffness and damping), written into another
 * struct through a pointer. The helper takes the state by pointer and
 * writes a local struct, which is copied out member by member. */
typedef struct {
    double k;
    double c;
} coef_t;

typedef struct {
    double q[2];
    double v[2];
    coef_t coef;
    int steps;
} state_t;

static void
rate(const state_t *s, state_t *ds)
{
    for (int i = 0; i < 2; i++) {
        ds->q[i] = s->v[i];
        ds->v[i] = -s->coef.k * s->q[i] - s->coef.c * s->v[i] * s->v[i];
    }
    ds->coef = s->coef;
    ds->steps = s->steps;
}

void
rk_step(const state_t *in, double h, state_t *out)
{
    state_t k1, mid;
    rate(in, &k1);
    mid = *in;
    for (int i = 0; i < 2; i++) {
        mid.q[i] = in->q[i] + 0.5 * h * k1.q[i];
        mid.v[i] = in->v[i] + 0.5 * h * k1.v[i];
    }
    state_t k2;
    rate(&mid, &k2);
    *out = *in;
    for (int i = 0; i < 2; i++) {
        out->q[i] = in->q[i] + h * k2.q[i];
        (*out).v[i] = in->v[i] + h * k2.v[i];
    }
    out->steps = in->steps + 1;
}

#ifdef XF_CHECK
#include "check.h"
typedef struct {
    double k;
    double c;
} coef_t_diff;
typedef struct {
    double q[2];
    double v[2];
    coef_t_diff coef;
} state_t_diff;
void rk_step_d(const state_t *in, const state_t_diff *ind, double h, state_t *out,
               state_t_diff *outd);
void rk_step_b(const state_t *in, state_t_diff *inb, double h, state_t *out, state_t_diff *outb);
XF_SIZES(6, 5)
XF_POINT(x)
{
    x[0] = 0.8, x[1] = -0.3, x[2] = 0.5, x[3] = 0.9, x[4] = 0.35, x[5] = 2.5;
}
static state_t
state(const double *x)
{
    state_t s = {{x[0], x[1]}, {x[2], x[3]}, {x[5], x[4]}, 0};
    return s;
}
static void
flat(const state_t *s, double *y)
{
    y[0] = s->q[0], y[1] = s->q[1], y[2] = s->v[0], y[3] = s->v[1], y[4] = s->coef.c;
}
XF_F(x, y)
{
    state_t in = state(x), out;
    rk_step(&in, 0.1, &out);
    flat(&out, y);
}
XF_D(x, xd, y, yd)
{
    state_t in = state(x), out;
    state_t_diff ind = {{xd[0], xd[1]}, {xd[2], xd[3]}, {xd[5], xd[4]}}, outd;
    rk_step_d(&in, &ind, 0.1, &out, &outd);
    flat(&out, y);
    yd[0] = outd.q[0], yd[1] = outd.q[1], yd[2] = outd.v[0], yd[3] = outd.v[1];
    yd[4] = outd.coef.c;
}
XF_B(x, xb, yb)
{
    state_t in = state(x), out;
    state_t_diff inb = {{xb[0], xb[1]}, {xb[2], xb[3]}, {xb[5], xb[4]}};
    state_t_diff outb = {{yb[0], yb[1]}, {yb[2], yb[3]}, {0, yb[4]}};
    rk_step_b(&in, &inb, 0.1, &out, &outb);
    xb[0] = inb.q[0], xb[1] = inb.q[1], xb[2] = inb.v[0], xb[3] = inb.v[1];
    xb[4] = inb.coef.c, xb[5] = inb.coef.k;
}
XF_MAIN
#endif

/* cgrad: model_loss --independent x --dependent model_loss */
/* A least-squares loss whose parameters (passive) come in a struct passed
 * by pointer: sum_i (a x_i^2 + b x_i + c - t_i)^2 / n, the targets and n
 * members too. */
typedef struct {
    double a, b, c;
    int n;
    const double *target;
} model_t;

double
model_loss(const model_t *m, const double *x)
{
    double s = 0.0;
    for (int i = 0; i < m->n; i++) {
        double r = m->a * x[i] * x[i] + m->b * x[i] + m->c - m->target[i];
        s += r * r;
    }
    return s / m->n;
}

#ifdef XF_CHECK
#include "check.h"
double model_loss_d(const model_t *m, const double *x, const double *xd, double *model_loss);
void model_loss_b(const model_t *m, const double *x, double *xb, double model_lossb);
enum { N = 6 };
static const double tg[N] = {1, 2, 0.5, -1, 3, 0};
static const model_t mod = {0.5, -1.0, 0.25, N, tg};
XF_SIZES(N, 1)
XF_POINT(x)
{
    for (int i = 0; i < N; i++)
        x[i] = 0.4 * i - 0.9;
}
XF_F(x, y)
{
    y[0] = model_loss(&mod, x);
}
XF_D(x, xd, y, yd)
{
    yd[0] = model_loss_d(&mod, x, xd, &y[0]);
}
XF_B(x, xb, yb)
{
    model_loss_b(&mod, x, xb, yb[0]);
}
XF_MAIN
#endif

/* cgrad: seq_loss --independent w --dependent loss --extent w=3*b,state=b,seq=c*b */
/* A sequence model's cross-entropy in the shape of the benchmarks' LSTM
 * loss: a passive state updated in place (s = tanh(w0 x + w1 s)), the
 * prediction's log-softmax, and a pointer that walks the sequence, the
 * input of each step being the previous target. */
#include <math.h>
#include <stdlib.h>

void
seq_loss(int c, int b, const double *w, double *state, const double *seq, double *loss)
{
    double *pred = malloc((size_t)b * sizeof *pred), total = 0.0;
    const double *input = seq;
    for (int t = 1; t < c; t++) {
        const double *gold = &seq[t * b];
        double m = -1e300, s = 0.0;
        for (int i = 0; i < b; i++) {
            state[i] = tanh(w[i] * input[i] + w[b + i] * state[i]);
            pred[i] = w[2 * b + i] * state[i];
            m = fmax(m, pred[i]);
        }
        for (int i = 0; i < b; i++)
            s += exp(pred[i] - m);
        for (int i = 0; i < b; i++)
            total += gold[i] * (pred[i] - m - log(s));
        input = gold;
    }
    *loss = -total / ((c - 1) * b);
    free(pred);
}

#ifdef XF_CHECK
#include "check.h"
/* state depends on w: it is active and has its derivative (zero on entry,
 * as no independent; its adjoint zero, as no dependent) */
void seq_loss_d(int c, int b, const double *w, const double *wd, double *state, double *stated,
                const double *seq, double *loss, double *lossd);
void seq_loss_b(int c, int b, const double *w, double *wb, double *state, double *stateb,
                const double *seq, double *loss, double *lossb);
enum { C = 4, B = 3 };
static const double sq[C * B] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0.5, 0.5, 0};
XF_SIZES(3 * B, 1)
XF_POINT(x)
{
    for (int i = 0; i < 3 * B; i++)
        x[i] = 0.7 * sin(1.0 + 1.3 * i);
}
XF_F(x, y)
{
    double st[B] = {0.1, -0.2, 0.3};
    seq_loss(C, B, x, st, sq, y);
}
XF_D(x, xd, y, yd)
{
    double st[B] = {0.1, -0.2, 0.3}, std[B] = {0};
    seq_loss_d(C, B, x, xd, st, std, sq, y, yd);
}
XF_B(x, xb, yb)
{
    double st[B] = {0.1, -0.2, 0.3}, stb[B] = {0}, l;
    seq_loss_b(C, B, x, xb, st, stb, sq, &l, yb);
}
XF_MAIN
#endif

/* cgrad: stacked_rnn --independent w,x --dependent y --extent w=2*nl*n,x=n,h=nl*n,layer:wl=2*n */
/* A stack of nl elementwise recurrent layers of n units, in the shape of
 * the benchmarks' LSTM: layer k maps its input v to h_k = tanh(a_k v +
 * b_k h_k + 1/10) (a_k, b_k the two rows of its weights, h_k its state,
 * updated in place); the input of layer 0 is x, that of layer k > 0 the
 * state of layer k - 1, so one pointer walks from x into the states.
 * The output is the square of the last layer's state. */
#include <math.h>

static void
layer(int n, const double *wl, const double *v, double *hk)
{
    for (int i = 0; i < n; i++)
        hk[i] = tanh(wl[i] * v[i] + wl[n + i] * hk[i] + 0.1);
}

void
stacked_rnn(int nl, int n, const double *w, const double *x, double *h, double *y)
{
    const double *in = x;
    for (int k = 0; k < nl; k++) {
        layer(n, &w[2 * k * n], in, &h[k * n]);
        in = &h[k * n];
    }
    for (int i = 0; i < n; i++)
        y[i] = in[i] * in[i];
}

#ifdef XF_CHECK
#include "check.h"
void stacked_rnn_d(int nl, int n, const double *w, const double *wd, const double *x,
                   const double *xd, double *h, double *hd, double *y, double *yd);
void stacked_rnn_b(int nl, int n, const double *w, double *wb, const double *x, double *xb,
                   double *h, double *hb, double *y, double *yb);
enum { NL = 3, N = 4 };
XF_SIZES(2 * NL * N + N, N)
XF_POINT(x)
{
    for (int i = 0; i < 2 * NL * N + N; i++)
        x[i] = 0.8 * sin(0.9 * i + 0.4);
}
static void
state(double *h)
{
    for (int i = 0; i < NL * N; i++)
        h[i] = 0.1 * (i % 5) - 0.2;
}
XF_F(x, y)
{
    double h[NL * N];
    state(h);
    stacked_rnn(NL, N, x, x + 2 * NL * N, h, y);
}
XF_D(x, xd, y, yd)
{
    double h[NL * N], hd[NL * N] = {0};
    state(h);
    stacked_rnn_d(NL, N, x, xd, x + 2 * NL * N, xd + 2 * NL * N, h, hd, y, yd);
}
XF_B(x, xb, yb)
{
    double h[NL * N], hb[NL * N] = {0}, y[N];
    state(h);
    stacked_rnn_b(NL, N, x, xb, x + 2 * NL * N, xb + 2 * NL * N, h, hb, y, yb);
}
XF_MAIN
#endif

/* cgrad: gru_step --independent w,b,h --dependent hnew --extent w=3*n,b=3*n,x=n,h=n,hnew=n */
/* One step of a gated recurrent cell of h units with elementwise weights
 * (as the LSTM of the benchmarks): z = sigmoid(w_z x + b_z), r =
 * sigmoid(w_r h + b_r), c = tanh(w_c (r h) + b_c), h' = (1 - z) h + z c;
 * w and b hold the three gates' rows one after the other, and the gates
 * live in one work array from malloc addressed by three pointers. */
#include <math.h>
#include <stdlib.h>

static double
sigmoid(double v)
{
    return 1.0 / (1.0 + exp(-v));
}

void
gru_step(int n, const double *w, const double *b, const double *x, const double *h, double *hnew)
{
    double *gates = malloc(3 * (size_t)n * sizeof *gates);
    double *z = gates, *r = gates + n, *c = gates + 2 * n;
    for (int i = 0; i < n; i++) {
        z[i] = sigmoid(w[i] * x[i] + b[i]);
        r[i] = sigmoid(w[n + i] * h[i] + b[n + i]);
    }
    for (int i = 0; i < n; i++)
        c[i] = tanh(w[2 * n + i] * r[i] * h[i] + b[2 * n + i]);
    for (int i = 0; i < n; i++)
        hnew[i] = (1.0 - z[i]) * h[i] + z[i] * c[i];
    free(gates);
}

#ifdef XF_CHECK
#include "check.h"
void gru_step_d(int n, const double *w, const double *wd, const double *b, const double *bd,
                const double *x, const double *h, const double *hd, double *hnew, double *hnewd);
void gru_step_b(int n, const double *w, double *wb, const double *b, double *bb, const double *x,
                const double *h, double *hb, double *hnew, double *hnewb);
enum { N = 4 };
static const double in[N] = {0.5, -1.0, 0.25, 2.0};
XF_SIZES(7 * N, N)
XF_POINT(x)
{
    for (int i = 0; i < 7 * N; i++)
        x[i] = 0.6 * sin(0.8 * i + 0.2);
}
XF_F(x, y)
{
    gru_step(N, x, x + 3 * N, in, x + 6 * N, y);
}
XF_D(x, xd, y, yd)
{
    gru_step_d(N, x, xd, x + 3 * N, xd + 3 * N, in, x + 6 * N, xd + 6 * N, y, yd);
}
XF_B(x, xb, yb)
{
    gru_step_b(N, x, xb, x + 3 * N, xb + 3 * N, in, x + 6 * N, xb + 6 * N, (double[N]){0}, yb);
}
XF_MAIN
#endif

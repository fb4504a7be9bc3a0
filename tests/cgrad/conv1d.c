/* cgrad: conv1d --independent x,w --dependent y --extent x=n,w=k,y=n-k+1 */
/* A valid 1-D convolution: y[i] = sum_j w[j] x[i+j], n - k + 1 outputs,
 * both sizes at run time (the conv_b overflow: made for one size,
 * called with another). */
void
conv1d(int n, int k, const double *x, const double *w, double *y)
{
    for (int i = 0; i + k <= n; i++) {
        double s = 0.0;
        for (int j = 0; j < k; j++)
            s += w[j] * x[i + j];
        y[i] = s;
    }
}

#ifdef XF_CHECK
#include "check.h"
void conv1d_d(int n, int k, const double *x, const double *xd, const double *w, const double *wd,
              double *y, double *yd);
void conv1d_b(int n, int k, const double *x, double *xb, const double *w, double *wb, double *y,
              double *yb);
enum { N = 6 * XF_SCALE, K = 3 * XF_SCALE };
XF_SIZES(N + K, N - K + 1)
XF_POINT(x)
{
    for (int i = 0; i < N + K; i++)
        x[i] = 0.2 * i - 0.6 * (i % 2);
}
XF_F(x, y)
{
    conv1d(N, K, x, x + N, y);
}
XF_D(x, xd, y, yd)
{
    conv1d_d(N, K, x, xd, x + N, xd + N, y, yd);
}
XF_B(x, xb, yb)
{
    conv1d_b(N, K, x, xb, x + N, xb + N, (double[N - K + 1]){0}, yb);
}
XF_MAIN
#endif

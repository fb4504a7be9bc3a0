/* cgrad: smooth --independent u0 --dependent u */
/* steps of a three-point smoothing, ping-ponging between two buffers
 * (one from malloc) by swapping pointers; the result copied into u. */
#include <stdlib.h>
#include <string.h>

void
smooth(int n, int steps, const double *u0, double *u)
{
    double *a = malloc((size_t)n * sizeof *a), *b = u;
    memcpy(a, u0, (size_t)n * sizeof *a);
    for (int s = 0; s < steps; s++) {
        b[0] = a[0];
        b[n - 1] = a[n - 1];
        for (int i = 1; i + 1 < n; i++)
            b[i] = 0.25 * a[i - 1] + 0.5 * a[i] + 0.25 * a[i + 1] * a[i + 1];
        double *t = a;
        a = b;
        b = t;
    }
    if (a != u)
        memcpy(u, a, (size_t)n * sizeof *u);
    free(a == u ? b : a);
}

#ifdef XF_CHECK
#include "check.h"
void smooth_d(int n, int steps, const double *u0, const double *u0d, double *u, double *ud);
void smooth_b(int n, int steps, const double *u0, double *u0b, double *u, double *ub);
enum { N = 6, S = 3 };
XF_SIZES(N, N)
XF_POINT(x)
{
    for (int i = 0; i < N; i++)
        x[i] = 0.3 + 0.2 * i - 0.1 * (i % 3);
}
XF_F(x, y)
{
    smooth(N, S, x, y);
}
XF_D(x, xd, y, yd)
{
    smooth_d(N, S, x, xd, y, yd);
}
XF_B(x, xb, yb)
{
    smooth_b(N, S, x, xb, (double[N]){0}, yb);
}
XF_MAIN
#endif

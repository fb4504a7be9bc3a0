/* cgrad: memcpy_work --independent x --dependent y --extent x=n,y=n */
/* A work array from malloc filled by memcpy, y cleared by memset and
 * refilled by memcpy at an offset (lowered to element loops). */
#include <stdlib.h>
#include <string.h>
void
memcpy_work(int n, const double *x, double *y)
{
    double *w = malloc((size_t)n * sizeof *w);
    memcpy(w, x, n * sizeof *w);
    for (int i = 0; i < n; i++)
        w[i] = w[i] * w[n - 1 - i] + w[i];
    memset(y, 0, n * sizeof(double));
    memcpy(y + 1, &w[1], sizeof(double) * (n - 1));
    y[0] = y[0] + w[0] * x[2];
    free(w);
}
#ifdef XF_CHECK
#include "check.h"
void memcpy_work_d(int n, const double *x, const double *xd, double *y, double *yd);
void memcpy_work_b(int n, const double *x, double *xb, double *y, double *yb);
enum { N = 6 };
XF_SIZES(N, N)
XF_POINT(x)
{
    for (int i = 0; i < N; i++)
        x[i] = 1.1 - 0.35 * i;
}
XF_F(x, y)
{
    memcpy_work(N, x, y);
}
XF_D(x, xd, y, yd)
{
    memcpy_work_d(N, x, xd, y, yd);
}
XF_B(x, xb, yb)
{
    memcpy_work_b(N, x, xb, (double[N]){0}, yb);
}
XF_MAIN
#endif

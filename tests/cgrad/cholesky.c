/* cgrad: cholesky --independent a --dependent l --extent a=n*n,l=n*n */
/* The Cholesky factor L (row-major, lower, zeros above) of a symmetric
 * positive definite n x n matrix A, of which only the lower part is read. */
#include <math.h>

void
cholesky(int n, const double *a, double *l)
{
    for (int i = 0; i < n * n; i++)
        l[i] = 0.0;
    for (int j = 0; j < n; j++) {
        double s = a[j * n + j];
        for (int k = 0; k < j; k++)
            s -= l[j * n + k] * l[j * n + k];
        l[j * n + j] = sqrt(s);
        for (int i = j + 1; i < n; i++) {
            double t = a[i * n + j];
            for (int k = 0; k < j; k++)
                t -= l[i * n + k] * l[j * n + k];
            l[i * n + j] = t / l[j * n + j];
        }
    }
}

#ifdef XF_CHECK
#include "check.h"
void cholesky_d(int n, const double *a, const double *ad, double *l, double *ld);
void cholesky_b(int n, const double *a, double *ab, double *l, double *lb);
enum { N = 4 * XF_SCALE };
XF_SIZES(N *N, N *N)
XF_POINT(x)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            x[i * N + j] = (i == j ? 4.0 + i : 0.0) + 1.0 / (1 + i + j);
}
XF_F(x, y)
{
    cholesky(N, x, y);
}
XF_D(x, xd, y, yd)
{
    cholesky_d(N, x, xd, y, yd);
}
XF_B(x, xb, yb)
{
    cholesky_b(N, x, xb, (double[N * N]){0}, yb);
}
XF_MAIN
#endif

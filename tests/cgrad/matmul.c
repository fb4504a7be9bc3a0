/* cgrad: matmul --independent a,b --dependent c --extent a=n*k,b=k*m,c=n*m */
/* C = A B for an n x k A and a k x m B, row-major, all sizes at run time. */
void
matmul(int n, int k, int m, const double *a, const double *b, double *c)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            double s = 0.0;
            for (int l = 0; l < k; l++)
                s += a[i * k + l] * b[l * m + j];
            c[i * m + j] = s;
        }
}

#ifdef XF_CHECK
#include "check.h"
void matmul_d(int n, int k, int m, const double *a, const double *ad, const double *b,
              const double *bd, double *c, double *cd);
void matmul_b(int n, int k, int m, const double *a, double *ab, const double *b, double *bb,
              double *c, double *cb);
enum { N = 3 * XF_SCALE, K = 4 * XF_SCALE, M = 2 * XF_SCALE };
XF_SIZES(N *K + K * M, N *M)
XF_POINT(x)
{
    for (int i = 0; i < N * K + K * M; i++)
        x[i] = 1.0 / (1 + i) - 0.2;
}
XF_F(x, y)
{
    matmul(N, K, M, x, x + N * K, y);
}
XF_D(x, xd, y, yd)
{
    matmul_d(N, K, M, x, xd, x + N * K, xd + N * K, y, yd);
}
XF_B(x, xb, yb)
{
    matmul_b(N, K, M, x, xb, x + N * K, xb + N * K, (double[N * M]){0}, yb);
}
XF_MAIN
#endif

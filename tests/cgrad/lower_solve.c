/* cgrad: lower_solve --independent l,b --dependent x --extent l=n*n,b=n,x=n */
/* Forward substitution: solves L x = b for a lower-triangular n x n L
 * (row-major). */
void
lower_solve(int n, const double *l, const double *b, double *x)
{
    for (int i = 0; i < n; i++) {
        double s = b[i];
        for (int k = 0; k < i; k++)
            s -= l[i * n + k] * x[k];
        x[i] = s / l[i * n + i];
    }
}

#ifdef XF_CHECK
#include "check.h"
void lower_solve_d(int n, const double *l, const double *ld, const double *b, const double *bd,
                   double *x, double *xd);
void lower_solve_b(int n, const double *l, double *lb, const double *b, double *bb, double *x,
                   double *xb);
enum { N = 4 * XF_SCALE };
XF_SIZES(N *N + N, N)
XF_POINT(x)
{
    for (int i = 0; i < N * N + N; i++)
        x[i] = 0.3 * ((i * 7) % 5) - 0.5;
    for (int i = 0; i < N; i++)
        x[i * N + i] = 2.0 + 0.5 * i;
}
XF_F(x, y)
{
    lower_solve(N, x, x + N * N, y);
}
XF_D(x, xd, y, yd)
{
    lower_solve_d(N, x, xd, x + N * N, xd + N * N, y, yd);
}
XF_B(x, xb, yb)
{
    lower_solve_b(N, x, xb, x + N * N, xb + N * N, (double[N]){0}, yb);
}
XF_MAIN
#endif

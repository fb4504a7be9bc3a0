/* cgrad: row_lse --independent a --dependent out */
/* The log-sum-exp of each row of an n x 4 array passed as double a[][4]. */
#include <math.h>

void
row_lse(int n, const double a[][4], double *out)
{
    for (int i = 0; i < n; i++) {
        double m = a[i][0], s = 0.0;
        for (int j = 1; j < 4; j++)
            m = fmax(m, a[i][j]);
        for (int j = 0; j < 4; j++)
            s += exp(a[i][j] - m);
        out[i] = m + log(s);
    }
}

#ifdef XF_CHECK
#include "check.h"
void row_lse_d(int n, const double a[][4], const double ad[][4], double *out, double *outd);
void row_lse_b(int n, const double a[][4], double ab[][4], double *out, double *outb);
enum { N = 3 };
XF_SIZES(4 * N, N)
XF_POINT(x)
{
    for (int i = 0; i < 4 * N; i++)
        x[i] = 0.35 * i - 0.8 * (i % 3);
}
XF_F(x, y)
{
    row_lse(N, (const double(*)[4])x, y);
}
XF_D(x, xd, y, yd)
{
    row_lse_d(N, (const double(*)[4])x, (const double(*)[4])xd, y, yd);
}
XF_B(x, xb, yb)
{
    row_lse_b(N, (const double(*)[4])x, (double(*)[4])xb, (double[N]){0}, yb);
}
XF_MAIN
#endif

/* cgrad: pingpong --independent u0,k --dependent u --extent u0=n,u=n,k=2 */
/* Explicit steps of the reaction-diffusion equation u' = k0 (u[i-1] - 2
 * u[i] + u[i+1]) - k1 u^3 on n points with fixed ends: each step reads
 * one buffer and writes the other, and the two pointers are swapped after
 * it, the buffers two work arrays from malloc. */
#include <stdlib.h>

void
pingpong(int n, int steps, const double *u0, const double *k, double *u)
{
    double *a = malloc((size_t)n * sizeof *a), *b = malloc((size_t)n * sizeof *b);
    double *cur = a, *nxt = b;
    for (int i = 0; i < n; i++)
        cur[i] = u0[i];
    for (int s = 0; s < steps; s++) {
        nxt[0] = cur[0];
        nxt[n - 1] = cur[n - 1];
        for (int i = 1; i < n - 1; i++)
            nxt[i] = cur[i] + k[0] * (cur[i - 1] - 2.0 * cur[i] + cur[i + 1]) -
                     k[1] * cur[i] * cur[i] * cur[i];
        double *t = cur;
        cur = nxt;
        nxt = t;
    }
    for (int i = 0; i < n; i++)
        u[i] = cur[i];
    free(a);
    free(b);
}

#ifdef XF_CHECK
#include "check.h"
void pingpong_d(int n, int steps, const double *u0, const double *u0d, const double *k,
                const double *kd, double *u, double *ud);
void pingpong_b(int n, int steps, const double *u0, double *u0b, const double *k, double *kb,
                double *u, double *ub);
enum { N = 6, S = 3 };
XF_SIZES(N + 2, N)
XF_POINT(x)
{
    for (int i = 0; i < N; i++)
        x[i] = 0.4 + 0.3 * (i % 3) - 0.05 * i;
    x[N] = 0.2;
    x[N + 1] = 0.3;
}
XF_F(x, y)
{
    pingpong(N, S, x, x + N, y);
}
XF_D(x, xd, y, yd)
{
    pingpong_d(N, S, x, xd, x + N, xd + N, y, yd);
}
XF_B(x, xb, yb)
{
    double y[N];
    pingpong_b(N, S, x, xb, x + N, xb + N, y, yb);
}
XF_MAIN
#endif

/* c2xaif-test: gather 5 5 */
/* An unstructured-mesh kernel in miniature: integer connectivity arrays
 * (initializer lists), a gather from vertices, a flux with intrinsics, an
 * additive scatter back; a matrix parameter of a callee. */
#include <math.h>

#define NV 5
#define NE 4

static void
fluxes(const double u[NV], const int conn[NE][2], double f[NE][2])
{
    for (int e = 0; e < NE; e++) {
        double a = u[conn[e][0]], b = u[conn[e][1]];
        double d = b - a;
        f[e][0] = d * exp(-0.5 * a) + sin(b);
        f[e][1] = -d * sqrt(1.0 + a * a);
    }
}

void
gather(const double x[NV], double y[NV])
{
    int from[NE] = {0, 1, 2, 3}, to[NE] = {1, 2, 3, 4};
    int conn[NE][2];
    double f[NE][2];
    for (int e = 0; e < NE; e++) {
        conn[e][0] = from[e];
        conn[e][1] = to[(e + 1) % NE];
    }
    fluxes(x, conn, f);
    for (int v = 0; v < NV; v++)
        y[v] = x[v];
    for (int e = 0; e < NE; e++) {
        y[conn[e][0]] = y[conn[e][0]] + f[e][0];
        y[conn[e][1]] = y[conn[e][1]] + f[e][1];
    }
}

/* cgrad: polygon --independent v --dependent out --extent v=n */
/* A polygon's vertices as rows of an n x 2 array, passed as pointers to
 * rows, double (*v)[2], to the function and to a helper that takes the
 * number of rows as a parameter; a local 2-D array passed to the same
 * helper. out[0]: the shoelace area; out[1], out[2]: the centroid of the
 * vertices; out[3]: the centroid's x of the squared first four vertices. */
static void
centroid(int n, const double (*p)[2], double *c)
{
    c[0] = 0.0;
    c[1] = 0.0;
    for (int i = 0; i < n; i++) {
        c[0] += p[i][0] / n;
        c[1] += p[i][1] / n;
    }
}

void
polygon(int n, const double (*v)[2], double *out)
{
    double a = 0.0, sq[4][2], c[2];
    for (int i = 0; i < n; i++) {
        int j = (i + 1) % n;
        a += v[i][0] * v[j][1] - v[j][0] * v[i][1];
    }
    out[0] = 0.5 * a;
    centroid(n, v, c);
    out[1] = c[0];
    out[2] = c[1];
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < 2; k++)
            sq[i][k] = v[i][k] * v[i][k];
    centroid(4, sq, c);
    out[3] = c[0];
}

#ifdef XF_CHECK
#include "check.h"
void polygon_d(int n, const double (*v)[2], const double (*vd)[2], double *out, double *outd);
void polygon_b(int n, const double (*v)[2], double (*vb)[2], double *out, double *outb);
enum { N = 5 };
XF_SIZES(2 * N, 4)
XF_POINT(x)
{
    for (int i = 0; i < N; i++) {
        x[2 * i] = (1.0 + 0.1 * i) * (i % 2 ? 0.8 : 1.1) - 0.3 * i;
        x[2 * i + 1] = 0.2 * i * i - 0.6 * i + 0.4;
    }
}
XF_F(x, y)
{
    polygon(N, (const double(*)[2])x, y);
}
XF_D(x, xd, y, yd)
{
    polygon_d(N, (const double(*)[2])x, (const double(*)[2])xd, y, yd);
}
XF_B(x, xb, yb)
{
    polygon_b(N, (const double(*)[2])x, (double(*)[2])xb, (double[4]){0}, yb);
}
XF_MAIN
#endif

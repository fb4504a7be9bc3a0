/* cgrad: pairs_cost --independent x --dependent pairs_cost --extent x=2*n */
/* A function of the file that mallocs and returns an array of structs
 * (here of pairs with a pointer member each) is not a constructor of one
 * struct: refused with a message that says so (the next construct of
 * ADBench's hand objective, its get_matrix_array). */
#include <stdlib.h>

typedef struct {
    int len;
    double *v;
} pair_t;

static pair_t *
pairs_new(int count)
{
    pair_t *r = (pair_t *)malloc(count * sizeof(pair_t));
    for (int i = 0; i < count; i++) {
        r[i].len = 2;
        r[i].v = NULL;
    }
    return r;
}

double
pairs_cost(const double *x, int n)
{
    pair_t *ps = pairs_new(n);
    double s = 0.0;
    for (int i = 0; i < n; i++) {
        ps[i].v = (double *)malloc(2 * sizeof(double));
        ps[i].v[0] = x[2 * i] * x[2 * i + 1];
        ps[i].v[1] = x[2 * i] + x[2 * i + 1];
        s += ps[i].v[0] * ps[i].v[1];
        free(ps[i].v);
    }
    free(ps);
    return s;
}

#ifdef XF_CHECK
#include "check.h"
double pairs_cost_d(const double *x, const double *xd, int n, double *pairs_cost);
void pairs_cost_b(const double *x, double *xb, int n, double pairs_costb);
enum { N = 3 };
XF_SIZES(2 * N, 1)
XF_POINT(x)
{
    for (int i = 0; i < 2 * N; i++)
        x[i] = 0.3 * i - 0.5;
}
XF_F(x, y)
{
    y[0] = pairs_cost(x, N);
}
XF_D(x, xd, y, yd)
{
    yd[0] = pairs_cost_d(x, xd, N, &y[0]);
}
XF_B(x, xb, yb)
{
    pairs_cost_b(x, xb, N, yb[0]);
}
XF_MAIN
#endif

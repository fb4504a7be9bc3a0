/* cgrad: pairs_cost --independent x --dependent pairs_cost --extent x=2*n --extent pairs_cost:ps->v=2 --extent pairs_sum:ps->v=2 */
/* A function of the file that mallocs an array of structs, zeroes its
 * elements' members and returns it (an array constructor), and one that
 * frees the elements' blocks and the array (its destructor): the array is
 * a local array of structs of n elements, each element's pointer member a
 * block of the --extent given. The blocks are malloc'ed and freed in the
 * caller, an int member set there bounds a helper's loop, one element is
 * passed by pointer and the whole array to a helper. */
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
        r[i].len = 0;
        r[i].v = NULL;
    }
    return r;
}

static void
pairs_free(pair_t *ps, int count)
{
    for (int i = 0; i < count; i++)
        if (ps[i].v != NULL)
            free(ps[i].v);
    free(ps);
}

/* one element: its product and sum, over its own length */
static void
pair_set(pair_t *p, double a, double b)
{
    p->v[0] = a * b;
    p->v[1] = a + b;
    for (int k = 0; k < p->len; k++)
        p->v[k] = p->v[k] * p->v[k];
}

/* the whole array: sum of v[0] * v[1] */
static double
pairs_sum(const pair_t *ps, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += ps[i].v[0] * ps[i].v[1];
    return s;
}

double
pairs_cost(const double *x, int n)
{
    pair_t *ps = pairs_new(n);
    for (int i = 0; i < n; i++) {
        ps[i].v = (double *)malloc(2 * sizeof(double));
        ps[i].len = i % 2 + 1;
        pair_set(&ps[i], x[2 * i], x[2 * i + 1]);
    }
    double s = pairs_sum(ps, n);
    pairs_free(ps, n);
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

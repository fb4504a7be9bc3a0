/* cgrad: grid_cost --independent x --dependent grid_cost --extent x=n --extent grid_cost:t->vals=2*n --extent grid_dup:to->vals=from->len --extent grid_dup:from->vals=from->len --extent grid_stretch:g->vals=g->len --extent grid_stretch:out->vals=2*g->len */
/* Structs with a pointer member that helpers reallocate:
 * - grid_dup frees and mallocs its destination's block, then fills it (a
 *   resize inside a longer function): the free and the malloc are no
 *   statements, the block's extent is given (--extent grid_dup:to->vals),
 *   since the malloc's size names the members the function writes;
 * - grid_square, one argument and no free, called on a constructor's
 *   struct, is an ordinary call (no destructor);
 * - grid_stretch resizes its output to twice its input's length, a size
 *   the caller cannot know when the code is written: the caller's local
 *   gets its block's extent from --extent grid_cost:t->vals=2*n. */
#include <stdlib.h>

typedef struct {
    int len;
    double *vals;
} grid_t;

static grid_t *
grid_new(int len)
{
    grid_t *g = (grid_t *)malloc(sizeof(grid_t));
    g->len = len;
    g->vals = (double *)malloc(len * sizeof(double));
    return g;
}

static grid_t *
grid_empty(void)
{
    grid_t *g = (grid_t *)malloc(sizeof(grid_t));
    g->len = 0;
    g->vals = NULL;
    return g;
}

static void
grid_del(grid_t *g)
{
    if (g->vals != NULL)
        free(g->vals);
    free(g);
}

static void
grid_dup(grid_t *to, const grid_t *from)
{
    if (to->vals != NULL)
        free(to->vals);
    to->len = from->len;
    to->vals = (double *)malloc(to->len * sizeof(double));
    for (int i = 0; i < to->len; i++)
        to->vals[i] = from->vals[i];
}

static void
grid_square(grid_t *g)
{
    for (int i = 0; i < g->len; i++)
        g->vals[i] = g->vals[i] * g->vals[i];
}

static void
grid_stretch(const grid_t *g, grid_t *out)
{
    if (out->vals != NULL)
        free(out->vals);
    out->vals = (double *)malloc(2 * g->len * sizeof(double));
    out->len = 2 * g->len;
    for (int i = 0; i < g->len; i++) {
        out->vals[2 * i] = g->vals[i];
        out->vals[2 * i + 1] = 0.5 * g->vals[i];
    }
}

double
grid_cost(const double *x, int n)
{
    grid_t *g = grid_new(n);
    for (int i = 0; i < n; i++)
        g->vals[i] = x[i] + 0.25 * i;
    grid_t *h = grid_new(n);
    grid_dup(h, g);
    grid_square(h);
    grid_t *t = grid_empty();
    grid_stretch(h, t);
    double s = 0.0;
    for (int i = 0; i < t->len; i++)
        s += t->vals[i] * g->vals[i / 2];
    grid_del(g);
    grid_del(h);
    grid_del(t);
    return s;
}

#ifdef XF_CHECK
#include "check.h"
double grid_cost_d(const double *x, const double *xd, int n, double *grid_cost);
void grid_cost_b(const double *x, double *xb, int n, double grid_costb);
enum { N = 5 };
XF_SIZES(N, 1)
XF_POINT(x)
{
    for (int i = 0; i < N; i++)
        x[i] = 0.4 * i - 0.7;
}
XF_F(x, y)
{
    y[0] = grid_cost(x, N);
}
XF_D(x, xd, y, yd)
{
    yd[0] = grid_cost_d(x, xd, N, &y[0]);
}
XF_B(x, xb, yb)
{
    grid_cost_b(x, xb, N, yb[0]);
}
XF_MAIN
#endif

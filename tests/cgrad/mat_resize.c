/* cgrad: resized_norm --independent x --dependent resized_norm --extent x=n */
/* A helper of the file frees and mallocs a struct's pointer member when
 * the size changes and sets its sizes (a resize), called on a matrix that
 * a constructor made empty: the work array takes the size the helper's
 * malloc gives for the call's arguments, and the size members are set. */
#include <math.h>
#include <stdlib.h>

typedef struct {
    int rows, cols;
    double *vals;
} grid_t;

static grid_t *
grid_empty(void)
{
    grid_t *g = (grid_t *)malloc(sizeof(grid_t));
    g->rows = 0;
    g->cols = 0;
    g->vals = NULL;
    return g;
}

static void
grid_resize(grid_t *g, int rows, int cols)
{
    if (g->rows * g->cols != rows * cols) {
        if (g->vals != NULL)
            free(g->vals);
        if (rows * cols > 0)
            g->vals = (double *)malloc(rows * cols * sizeof(double));
        else
            g->vals = NULL;
    }
    g->rows = rows;
    g->cols = cols;
}

static void
grid_free(grid_t *g)
{
    if (g->vals != NULL)
        free(g->vals);
    free(g);
}

double
resized_norm(const double *x, int n)
{
    grid_t *g = grid_empty();
    grid_resize(g, 2, n);
    for (int j = 0; j < g->cols; j++) {
        g->vals[0 + j * g->rows] = cos(x[j]);
        g->vals[1 + j * g->rows] = x[j] * x[(j + 1) % n];
    }
    grid_resize(g, 2, n); /* the same size: the elements stay */
    double s = 0.0;
    for (int i = 0; i < g->rows * g->cols; i++)
        s += g->vals[i] * g->vals[i] * (i + 1);
    grid_free(g);
    return sqrt(s);
}

#ifdef XF_CHECK
#include "check.h"
double resized_norm_d(const double *x, const double *xd, int n, double *resized_norm);
void resized_norm_b(const double *x, double *xb, int n, double resized_normb);
enum { N = 5 };
XF_SIZES(N, 1)
XF_POINT(x)
{
    for (int i = 0; i < N; i++)
        x[i] = 0.3 * i - 0.5;
}
XF_F(x, y)
{
    y[0] = resized_norm(x, N);
}
XF_D(x, xd, y, yd)
{
    yd[0] = resized_norm_d(x, xd, N, &y[0]);
}
XF_B(x, xb, yb)
{
    resized_norm_b(x, xb, N, yb[0]);
}
XF_MAIN
#endif

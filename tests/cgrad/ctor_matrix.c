/* cgrad: weighted_sq --independent x --dependent weighted_sq --extent x=n,outer:out->data=out->rows*out->cols */
/* A constructor of the file returns a malloc'ed matrix struct whose data
 * it mallocs too, and a destructor frees both: a pointer local set by the
 * constructor is that struct, its data a work array of the size the
 * constructor's malloc gives for the call's arguments; one that sets the
 * data NULL leaves it to a malloc in the caller. */
#include <math.h>
#include <stdlib.h>

typedef struct {
    int rows, cols;
    double *data;
} Mat;

static Mat *
mat_new(int rows, int cols)
{
    Mat *m = (Mat *)malloc(sizeof(Mat));
    m->rows = rows;
    m->cols = cols;
    m->data = (double *)malloc(rows * cols * sizeof(double));
    return m;
}

static Mat *
mat_empty(void)
{
    Mat *m = (Mat *)malloc(sizeof(Mat));
    m->rows = 0;
    m->cols = 0;
    m->data = NULL;
    return m;
}

static void
mat_free(Mat *m)
{
    if (m->data != NULL)
        free(m->data);
    free(m);
}

static void
outer(const double *v, int n, Mat *out)
{
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            out->data[i + j * out->rows] = v[i] * sin(v[j]);
}

double
weighted_sq(const double *x, int n)
{
    Mat *a = mat_new(n, n);
    Mat *w = mat_new(n, 1);
    Mat *t = mat_empty();
    t->rows = n;
    t->data = (double *)malloc(n * sizeof(double));
    for (int i = 0; i < n; i++) {
        t->data[i] = 0.1 * x[i];
        w->data[i] = exp(t->data[i]);
    }
    mat_free(t);
    outer(x, n, a);
    double s = 0.0;
    for (int j = 0; j < a->cols; j++)
        for (int i = 0; i < a->rows; i++)
            s += a->data[i + j * a->rows] * a->data[i + j * a->rows] * w->data[j];
    mat_free(a);
    free(w->data);
    free(w);
    return s;
}

#ifdef XF_CHECK
#include "check.h"
double weighted_sq_d(const double *x, const double *xd, int n, double *weighted_sq);
void weighted_sq_b(const double *x, double *xb, int n, double weighted_sqb);
enum { N = 4 };
XF_SIZES(N, 1)
XF_POINT(x)
{
    for (int i = 0; i < N; i++)
        x[i] = 0.3 * i - 0.5;
}
XF_F(x, y)
{
    y[0] = weighted_sq(x, N);
}
XF_D(x, xd, y, yd)
{
    yd[0] = weighted_sq_d(x, xd, N, &y[0]);
}
XF_B(x, xb, yb)
{
    weighted_sq_b(x, xb, N, yb[0]);
}
XF_MAIN
#endif

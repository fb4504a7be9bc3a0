/* cgrad: mat_apply --independent x --dependent y --extent a->data=a->rows*a->cols */
/* y = A x with A a matrix struct of the benchmarks' kind ({rows, cols,
 * column-major data}), passive, passed by pointer; x active. */
typedef struct {
    int rows, cols;
    double *data;
} matrix_t;

void
mat_apply(const matrix_t *a, const double *x, double *y)
{
    for (int i = 0; i < a->rows; i++) {
        y[i] = 0.0;
        for (int j = 0; j < a->cols; j++)
            y[i] += a->data[i + j * a->rows] * x[j] * x[j];
    }
}

#ifdef XF_CHECK
#include "check.h"
void mat_apply_d(const matrix_t *a, const double *x, const double *xd, double *y, double *yd);
void mat_apply_b(const matrix_t *a, const double *x, double *xb, double *y, double *yb);
enum { R = 3, C = 4 };
static double ad[R * C] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
static const matrix_t am = {R, C, ad};
XF_SIZES(C, R)
XF_POINT(x)
{
    for (int i = 0; i < C; i++)
        x[i] = 0.5 * i - 0.7;
}
XF_F(x, y)
{
    mat_apply(&am, x, y);
}
XF_D(x, xd, y, yd)
{
    mat_apply_d(&am, x, xd, y, yd);
}
XF_B(x, xb, yb)
{
    mat_apply_b(&am, x, xb, (double[R]){0}, yb);
}
XF_MAIN
#endif

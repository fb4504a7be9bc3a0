/* cgrad: mat_frob --independent a --dependent mat_frob --extent a->data=a->rows*a->cols */
/* The squared Frobenius norm of A^T A for a matrix struct whose data are
 * active, passed by pointer; the derivative takes a twin {data}, Tapenade's
 * matrix_t_diff. */
typedef struct {
    int rows, cols;
    double *data;
} matrix_t;

double
mat_frob(const matrix_t *a)
{
    double s = 0.0;
    for (int i = 0; i < a->cols; i++)
        for (int j = 0; j < a->cols; j++) {
            double g = 0.0;
            for (int k = 0; k < a->rows; k++)
                g += a->data[k + i * a->rows] * a->data[k + j * a->rows];
            s += g * g;
        }
    return s;
}

#ifdef XF_CHECK
#include "check.h"
typedef struct {
    double *data;
} matrix_t_diff;
double mat_frob_d(const matrix_t *a, const matrix_t_diff *ad, double *mat_frob);
void mat_frob_b(const matrix_t *a, matrix_t_diff *ab, double mat_frobb);
enum { R = 3, C = 2 };
XF_SIZES(R *C, 1)
XF_POINT(x)
{
    for (int i = 0; i < R * C; i++)
        x[i] = 0.3 * i - 0.5;
}
XF_F(x, y)
{
    matrix_t a = {R, C, x};
    y[0] = mat_frob(&a);
}
XF_D(x, xd, y, yd)
{
    matrix_t a = {R, C, x};
    matrix_t_diff ad = {xd};
    yd[0] = mat_frob_d(&a, &ad, &y[0]);
}
XF_B(x, xb, yb)
{
    matrix_t a = {R, C, x};
    matrix_t_diff ab = {xb};
    mat_frob_b(&a, &ab, yb[0]);
}
XF_MAIN
#endif

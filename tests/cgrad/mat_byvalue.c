/* cgrad: mat_affine --independent m,x --dependent y --extent m.data=m.nrows*m.ncols,x=n,y=n */
/* y = M x + x .* x with M a matrix struct passed by value (its data
 * active, shared with the caller through the pointer), n = M's columns =
 * M's rows; the derivative twin comes by value in tangent and by pointer
 * in adjoint, and its data member points to the derivative array. */
typedef struct {
    int nrows, ncols;
    double *data;
} Matrix;

void
mat_affine(Matrix m, const double *x, int n, double *y)
{
    for (int i = 0; i < n; i++) {
        y[i] = x[i] * x[i];
        for (int j = 0; j < m.ncols; j++)
            y[i] += m.data[i + j * m.nrows] * x[j];
    }
}

#ifdef XF_CHECK
#include "check.h"
typedef struct {
    double *data;
} Matrix_diff;
void mat_affine_d(Matrix m, Matrix_diff md, const double *x, const double *xd, int n, double *y,
                  double *yd);
void mat_affine_b(Matrix m, Matrix_diff *mb, const double *x, double *xb, int n, double *y,
                  double *yb);
enum { N = 3 };
XF_SIZES(N *N + N, N)
XF_POINT(x)
{
    for (int i = 0; i < N * N + N; i++)
        x[i] = 0.3 * i - 0.8;
}
XF_F(x, y)
{
    Matrix m = {N, N, x};
    mat_affine(m, x + N * N, N, y);
}
XF_D(x, xd, y, yd)
{
    Matrix m = {N, N, x};
    Matrix_diff md = {xd};
    mat_affine_d(m, md, x + N * N, xd + N * N, N, y, yd);
}
XF_B(x, xb, yb)
{
    Matrix m = {N, N, x};
    Matrix_diff mb = {xb};
    double y[N];
    mat_affine_b(m, &mb, x + N * N, xb + N * N, N, y, yb);
}
XF_MAIN
#endif

/* cgrad: frob_prod --independent a,b --dependent frob_prod --extent a->data=a->nrows*a->ncols,b->data=b->nrows*b->ncols,entry_prod:l->data=l->nrows*l->ncols,entry_prod:r->data=r->nrows*r->ncols */
/* ||A B||_F^2 for two column-major matrix structs of the benchmarks' kind
 * ({nrows, ncols, double *data}), both active, with a helper that takes
 * the structs by pointer and whose pointer members' extents are its own
 * members (--extent entry_prod:l->data=...). */
typedef struct {
    int nrows, ncols;
    double *data;
} Matrix;

static double
entry_prod(const Matrix *l, const Matrix *r, int i, int k)
{
    double s = 0.0;
    for (int j = 0; j < l->ncols; j++)
        s += l->data[i + j * l->nrows] * r->data[j + k * r->nrows];
    return s;
}

double
frob_prod(const Matrix *a, const Matrix *b)
{
    double s = 0.0;
    for (int i = 0; i < a->nrows; i++)
        for (int k = 0; k < b->ncols; k++) {
            double e = entry_prod(a, b, i, k);
            s += e * e;
        }
    return s;
}

#ifdef XF_CHECK
#include "check.h"
typedef struct {
    double *data;
} Matrix_diff;
double frob_prod_d(const Matrix *a, const Matrix_diff *ad, const Matrix *b, const Matrix_diff *bd,
                   double *frob_prod);
void frob_prod_b(const Matrix *a, Matrix_diff *ab, const Matrix *b, Matrix_diff *bb,
                 double frob_prodb);
enum { R = 3, K = 2, C = 4 };
XF_SIZES(R *K + K * C, 1)
XF_POINT(x)
{
    for (int i = 0; i < R * K + K * C; i++)
        x[i] = 0.25 * i - 1.1;
}
XF_F(x, y)
{
    Matrix a = {R, K, x}, b = {K, C, x + R * K};
    y[0] = frob_prod(&a, &b);
}
XF_D(x, xd, y, yd)
{
    Matrix a = {R, K, x}, b = {K, C, x + R * K};
    Matrix_diff ad = {xd}, bd = {xd + R * K};
    yd[0] = frob_prod_d(&a, &ad, &b, &bd, &y[0]);
}
XF_B(x, xb, yb)
{
    Matrix a = {R, K, x}, b = {K, C, x + R * K};
    Matrix_diff ab = {xb}, bb = {xb + R * K};
    frob_prod_b(&a, &ab, &b, &bb, yb[0]);
}
XF_MAIN
#endif

/* cgrad: mat_mult_sq --independent a,b --dependent out --extent a->data=a->nrows*a->ncols,b->data=b->nrows*b->ncols,out->data=out->nrows*out->ncols,mat_mult:l->data=l->nrows*l->ncols,mat_mult:r->data=r->nrows*r->ncols,mat_mult:o->data=o->nrows*o->ncols,col_sq:v=n */
/* out = A B, then each column of out squared in place by a helper that
 * takes a column as out->data + k * out->nrows (ADBench's hand passes
 * rows of a Matrix's data so): an active Matrix* output written through
 * its pointer member, helpers taking Matrix*. */
typedef struct {
    int nrows, ncols;
    double *data;
} Matrix;

static void
mat_mult(const Matrix *l, const Matrix *r, Matrix *o)
{
    for (int i = 0; i < l->nrows; i++)
        for (int k = 0; k < r->ncols; k++) {
            o->data[i + k * o->nrows] = l->data[i] * r->data[k * r->nrows];
            for (int j = 1; j < l->ncols; j++)
                o->data[i + k * o->nrows] += l->data[i + j * l->nrows] * r->data[j + k * r->nrows];
        }
}

static void
col_sq(double *v, int n)
{
    for (int i = 0; i < n; i++)
        v[i] = v[i] * v[i];
}

void
mat_mult_sq(const Matrix *a, const Matrix *b, Matrix *out)
{
    mat_mult(a, b, out);
    for (int k = 0; k < out->ncols; k++)
        col_sq(out->data + k * out->nrows, out->nrows);
}

#ifdef XF_CHECK
#include "check.h"
typedef struct {
    double *data;
} Matrix_diff;
void mat_mult_sq_d(const Matrix *a, const Matrix_diff *ad, const Matrix *b, const Matrix_diff *bd,
                   Matrix *out, Matrix_diff *outd);
void mat_mult_sq_b(const Matrix *a, Matrix_diff *ab, const Matrix *b, Matrix_diff *bb,
                   Matrix *out, Matrix_diff *outb);
enum { R = 3, K = 2, C = 2 };
XF_SIZES(R *K + K * C, R *C)
XF_POINT(x)
{
    for (int i = 0; i < R * K + K * C; i++)
        x[i] = 0.2 * i - 0.7;
}
XF_F(x, y)
{
    Matrix a = {R, K, x}, b = {K, C, x + R * K}, o = {R, C, y};
    mat_mult_sq(&a, &b, &o);
}
XF_D(x, xd, y, yd)
{
    Matrix a = {R, K, x}, b = {K, C, x + R * K}, o = {R, C, y};
    Matrix_diff ad = {xd}, bd = {xd + R * K}, od = {yd};
    mat_mult_sq_d(&a, &ad, &b, &bd, &o, &od);
}
XF_B(x, xb, yb)
{
    double y[R * C];
    Matrix a = {R, K, x}, b = {K, C, x + R * K}, o = {R, C, y};
    Matrix_diff ab = {xb}, bb = {xb + R * K}, ob = {yb};
    mat_mult_sq_b(&a, &ab, &b, &bb, &o, &ob);
}
XF_MAIN
#endif

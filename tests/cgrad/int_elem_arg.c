/* cgrad: seg_norms --independent x --dependent y --extent x=15,y=3,segs:x=15,segs:y=3,sq_sum:v=g->n*g->stride */
/* Each y[k] is the sum of squares of a strided segment of x, times x[k].
 * The lengths and strides are int members of segs's local array of
 * structs, whose elements are passed to a helper whose adjoint reads them
 * as loop bounds and subscripts (ADBench's hand passes its local Matrix
 * arrays' elements to mat_mult so). Under split reversal the adjoint sweep
 * of segs (a callee of the top routine) makes its locals anew: the
 * members' values must come from the forward sweep (adjoin.c, int_elem). */
typedef struct {
    int n, stride;
} Seg;

static void
sq_sum(const double *v, const Seg *g, double *s)
{
    *s = 0.0;
    for (int i = 0; i < g->n; i++)
        *s += v[i * g->stride] * v[i * g->stride];
}

static void
segs(const double *x, double *y)
{
    Seg g[3];
    for (int k = 0; k < 3; k++) {
        g[k].n = k + 2;
        g[k].stride = 3 - k;
    }
    for (int k = 0; k < 3; k++)
        sq_sum(x + 5 * k, &g[k], &y[k]);
}

void
seg_norms(const double *x, double *y)
{
    segs(x, y);
    for (int k = 0; k < 3; k++)
        y[k] = y[k] * x[k];
}

#ifdef XF_CHECK
#include "check.h"
void seg_norms_d(const double *x, const double *xd, double *y, double *yd);
void seg_norms_b(const double *x, double *xb, double *y, double *yb);
XF_SIZES(15, 3)
XF_POINT(x)
{
    for (int i = 0; i < 15; i++)
        x[i] = 0.2 + 0.05 * i;
}
XF_F(x, y)
{
    seg_norms(x, y);
}
XF_D(x, xd, y, yd)
{
    seg_norms_d(x, xd, y, yd);
}
XF_B(x, xb, yb)
{
    double y[3];
    seg_norms_b(x, xb, y, yb);
}
XF_MAIN
#endif

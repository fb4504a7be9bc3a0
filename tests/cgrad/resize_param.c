/* cgrad: stacked_energy --independent x --dependent stacked_energy --extent x=n,stack_rows:x=n */
/* A helper of the file resizes the matrix struct it is given (a call of a
 * resizer on its own parameter) and fills it; the caller passes it a
 * matrix a constructor made empty. The helper's work follows the resize
 * (the sizes it sets, the extent its malloc gives); the caller's work
 * array is sized by the helper's resize for the call's arguments. */
#include <math.h>
#include <stdlib.h>

typedef struct {
    int nr, nc;
    double *v;
} dmat;

static dmat *
dmat_empty(void)
{
    dmat *m = (dmat *)malloc(sizeof(dmat));
    m->nr = 0;
    m->nc = 0;
    m->v = NULL;
    return m;
}

static void
dmat_resize(dmat *m, int nr, int nc)
{
    if (m->nr * m->nc != nr * nc) {
        if (m->v != NULL)
            free(m->v);
        if (nr * nc > 0)
            m->v = (double *)malloc(nr * nc * sizeof(double));
        else
            m->v = NULL;
    }
    m->nr = nr;
    m->nc = nc;
}

static void
dmat_delete(dmat *m)
{
    if (m->v != NULL)
        free(m->v);
    free(m);
}

/* rows: x, sin(x) and x * the next x, one column an element */
static void
stack_rows(int n, const double *x, dmat *out)
{
    dmat_resize(out, 3, n);
    for (int j = 0; j < out->nc; j++) {
        out->v[0 + j * out->nr] = x[j];
        out->v[1 + j * out->nr] = sin(x[j]);
        out->v[2 + j * out->nr] = x[j] * x[(j + 1) % n];
    }
}

double
stacked_energy(const double *x, int n)
{
    dmat *s = dmat_empty();
    stack_rows(n, x, s);
    double e = 0.0;
    for (int j = 0; j < s->nc; j++)
        for (int i = 0; i < s->nr; i++)
            e += (i + 1) * s->v[i + j * s->nr] * s->v[i + j * s->nr];
    dmat_delete(s);
    return e;
}

#ifdef XF_CHECK
#include "check.h"
double stacked_energy_d(const double *x, const double *xd, int n, double *stacked_energy);
void stacked_energy_b(const double *x, double *xb, int n, double stacked_energyb);
enum { N = 4 };
XF_SIZES(N, 1)
XF_POINT(x)
{
    for (int i = 0; i < N; i++)
        x[i] = 0.4 * i - 0.7;
}
XF_F(x, y)
{
    y[0] = stacked_energy(x, N);
}
XF_D(x, xd, y, yd)
{
    yd[0] = stacked_energy_d(x, xd, N, &y[0]);
}
XF_B(x, xb, yb)
{
    stacked_energy_b(x, xb, N, yb[0]);
}
XF_MAIN
#endif

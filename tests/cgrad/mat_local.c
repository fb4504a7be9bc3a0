/* cgrad: rot_energy --independent theta,p --dependent rot_energy --extent theta=n,p=2*n,mat_vec:m->data=m->nrows*m->ncols */
/* A local matrix struct whose data is malloc'ed (and freed), filled by one
 * helper and applied by another, both taking Matrix*: the work array and
 * its derivative are allocated at run time from the malloc's size. */
#include <math.h>
#include <stdlib.h>

typedef struct {
    int nrows, ncols;
    double *data;
} Matrix;

static void
set_rotation(double t, Matrix *r)
{
    r->data[0] = cos(t);
    r->data[1] = sin(t);
    r->data[2] = -sin(t);
    r->data[3] = cos(t);
}

static void
mat_vec(const Matrix *m, const double *v, double *out)
{
    for (int i = 0; i < m->nrows; i++) {
        out[i] = 0.0;
        for (int j = 0; j < m->ncols; j++)
            out[i] += m->data[i + j * m->nrows] * v[j];
    }
}

double
rot_energy(const double *theta, const double *p, int n)
{
    Matrix r = {2, 2, NULL};
    r.data = malloc(4 * sizeof(double));
    double e = 0.0;
    for (int k = 0; k < n; k++) {
        double q[2];
        set_rotation(theta[k], &r);
        mat_vec(&r, &p[2 * k], q);
        e += q[0] * q[0] * p[2 * k] + q[1] * theta[k];
    }
    free(r.data);
    return e;
}

#ifdef XF_CHECK
#include "check.h"
double rot_energy_d(const double *theta, const double *thetad, const double *p, const double *pd,
                    int n, double *rot_energy);
void rot_energy_b(const double *theta, double *thetab, const double *p, double *pb, int n,
                  double rot_energyb);
enum { N = 3 };
XF_SIZES(3 * N, 1)
XF_POINT(x)
{
    for (int i = 0; i < 3 * N; i++)
        x[i] = 0.35 * i - 0.9;
}
XF_F(x, y)
{
    y[0] = rot_energy(x, x + N, N);
}
XF_D(x, xd, y, yd)
{
    yd[0] = rot_energy_d(x, xd, x + N, xd + N, N, &y[0]);
}
XF_B(x, xb, yb)
{
    rot_energy_b(x, xb, x + N, xb + N, N, yb[0]);
}
XF_MAIN
#endif

/* cgrad: mats_energy --independent ms --dependent mats_energy --extent ms=k,ms->data=n*n,trace_sq:m->data=n*n */
/* An array of matrix structs whose data pointers are separate blocks (a
 * jagged layout: ms[i].data its own malloc'ed n*n block, not one array of
 * k*n*n), active, read through ms[i].data[j] and through a pointer to one
 * element passed to a helper. The derivative takes an array of twins
 * {data}, each pointing to its own block. */
#include <math.h>

typedef struct {
    int rows, cols;
    double *data;
} mat_t;

static double
trace_sq(const mat_t *m, int n)
{
    double t = 0.0;
    for (int j = 0; j < n; j++)
        t += m->data[j + j * n];
    return t * t;
}

double
mats_energy(const mat_t *ms, int k, int n)
{
    double s = 0.0;
    for (int i = 0; i < k; i++) {
        for (int j = 0; j < n * n; j++)
            s += sin(ms[i].data[j]) * (i + 1);
        s += trace_sq(&ms[i], n);
    }
    return s;
}

#ifdef XF_CHECK
#include "check.h"
#include <stdlib.h>
typedef struct {
    double *data;
} mat_t_diff;
double mats_energy_d(const mat_t *ms, const mat_t_diff *msd, int k, int n, double *mats_energy);
void mats_energy_b(const mat_t *ms, mat_t_diff *msb, int k, int n, double mats_energyb);
enum { K = 3, N = 2 };
XF_SIZES(K *N *N, 1)
XF_POINT(x)
{
    for (int i = 0; i < K * N * N; i++)
        x[i] = 0.3 * i - 0.5;
}
/* the jagged copies: each block malloc'ed on its own, filled from v */
static void
split(mat_t *ms, mat_t_diff *md, const double *v, const double *dv)
{
    for (int i = 0; i < K; i++) {
        ms[i].rows = ms[i].cols = N;
        ms[i].data = malloc(N * N * sizeof(double));
        md[i].data = malloc(N * N * sizeof(double));
        for (int j = 0; j < N * N; j++) {
            ms[i].data[j] = v[i * N * N + j];
            md[i].data[j] = dv ? dv[i * N * N + j] : 0.0;
        }
    }
}
static void
join(mat_t *ms, mat_t_diff *md, double *dv)
{
    for (int i = 0; i < K; i++) {
        for (int j = 0; j < N * N && dv; j++)
            dv[i * N * N + j] = md[i].data[j];
        free(ms[i].data);
        free(md[i].data);
    }
}
XF_F(x, y)
{
    mat_t ms[K];
    mat_t_diff md[K];
    split(ms, md, x, NULL);
    y[0] = mats_energy(ms, K, N);
    join(ms, md, NULL);
}
XF_D(x, xd, y, yd)
{
    mat_t ms[K];
    mat_t_diff md[K];
    split(ms, md, x, xd);
    yd[0] = mats_energy_d(ms, md, K, N, &y[0]);
    join(ms, md, NULL);
}
XF_B(x, xb, yb)
{
    mat_t ms[K];
    mat_t_diff md[K];
    split(ms, md, x, xb);
    mats_energy_b(ms, md, K, N, yb[0]);
    join(ms, md, xb);
}
XF_MAIN
#endif

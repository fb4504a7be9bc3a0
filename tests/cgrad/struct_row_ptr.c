/* cgrad: tri_areas --independent xy,wt --dependent tri_areas --extent xy=2*nv,tris=nt,wt=nt */
/* A pointer local to a member array of one element of an array of
 * structs, const int *v = tris[t].v (and const double *c = tris[t].c, a
 * member array of reals): it reads that element's row of the flattened
 * member, v[k] being tris_v[t][k]. */
#include <math.h>

typedef struct {
    int v[3];
    double c[2];
} tri_t;

double
tri_areas(const double *xy, int nv, const tri_t *tris, int nt, const double *wt)
{
    double s = 0.0;
    for (int t = 0; t < nt; t++) {
        const int *v = tris[t].v;
        const double *c = tris[t].c;
        double ax = xy[2 * v[1]] - xy[2 * v[0]], ay = xy[2 * v[1] + 1] - xy[2 * v[0] + 1];
        double bx = xy[2 * v[2]] - xy[2 * v[0]], by = xy[2 * v[2] + 1] - xy[2 * v[0] + 1];
        double a = 0.5 * (ax * by - ay * bx);
        s += wt[t] * a * a + c[0] * sin(a) + c[1] * a;
    }
    return s + 0.0 * nv;
}

#ifdef XF_CHECK
#include "check.h"
double tri_areas_d(const double *xy, const double *xyd, int nv, const tri_t *tris, int nt,
                   const double *wt, const double *wtd, double *tri_areas);
void tri_areas_b(const double *xy, double *xyb, int nv, const tri_t *tris, int nt,
                 const double *wt, double *wtb, double tri_areasb);
enum { NV = 5, NT = 3 };
static const tri_t tris[NT] = {{{0, 1, 2}, {0.5, -1.0}}, {{1, 3, 2}, {2.0, 0.25}},
                               {{4, 0, 3}, {-0.75, 1.5}}};
XF_SIZES(2 * NV + NT, 1)
XF_POINT(x)
{
    for (int i = 0; i < 2 * NV + NT; i++)
        x[i] = 0.3 * i - 0.5 + 0.05 * i * i;
}
XF_F(x, y)
{
    y[0] = tri_areas(x, NV, tris, NT, x + 2 * NV);
}
XF_D(x, xd, y, yd)
{
    yd[0] = tri_areas_d(x, xd, NV, tris, NT, x + 2 * NV, xd + 2 * NV, &y[0]);
}
XF_B(x, xb, yb)
{
    tri_areas_b(x, xb, NV, tris, NT, x + 2 * NV, xb + 2 * NV, yb[0]);
}
XF_MAIN
#endif

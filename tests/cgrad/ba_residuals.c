/* cgrad: ba_residuals --independent cams,pts --dependent err --extent cams=6*nc,pts=3*np,obs=2*p,feats=2*p,err=2*p */
/* Bundle-adjustment residuals: for each of p observations (camera index,
 * point index in obs), the projection of point X[j] by camera c[i] (6
 * numbers: angle-axis rotation by its first-order approximation
 * X + r x X, translation; focal length fixed at 1) minus the feature,
 * through a helper given rows of the arrays. */
static void
project(const double *cam, const double *x, double *p)
{
    double xc[3];
    xc[0] = x[0] + cam[1] * x[2] - cam[2] * x[1] + cam[3];
    xc[1] = x[1] + cam[2] * x[0] - cam[0] * x[2] + cam[4];
    xc[2] = x[2] + cam[0] * x[1] - cam[1] * x[0] + cam[5];
    p[0] = xc[0] / xc[2];
    p[1] = xc[1] / xc[2];
}

void
ba_residuals(int nc, int np, int p, const double *cams, const double *pts, const int *obs,
             const double *feats, double *err)
{
    (void)nc;
    (void)np;
    for (int i = 0; i < p; i++) {
        double proj[2];
        project(&cams[6 * obs[2 * i]], &pts[3 * obs[2 * i + 1]], proj);
        err[2 * i] = proj[0] - feats[2 * i];
        err[2 * i + 1] = proj[1] - feats[2 * i + 1];
    }
}

#ifdef XF_CHECK
#include "check.h"
void ba_residuals_d(int nc, int np, int p, const double *cams, const double *camsd,
                    const double *pts, const double *ptsd, const int *obs, const double *feats,
                    double *err, double *errd);
void ba_residuals_b(int nc, int np, int p, const double *cams, double *camsb, const double *pts,
                    double *ptsb, const int *obs, const double *feats, double *err, double *errb);
enum { NC = 2, NP = 3, P = 5 };
static const int obs[2 * P] = {0, 0, 0, 1, 1, 1, 1, 2, 0, 2};
static const double feats[2 * P] = {0.1, 0.2, -0.1, 0.3, 0.0, 0.1, 0.2, -0.2, 0.05, 0.05};
XF_SIZES(6 * NC + 3 * NP, 2 * P)
XF_POINT(x)
{
    for (int i = 0; i < 6 * NC; i++)
        x[i] = 0.05 * (i % 5) - 0.1 + (i % 6 == 5 ? 4.0 : 0.0);
    for (int i = 0; i < 3 * NP; i++)
        x[6 * NC + i] = 0.3 * (i % 3) - 0.2 * (i / 3);
}
XF_F(x, y)
{
    ba_residuals(NC, NP, P, x, x + 6 * NC, obs, feats, y);
}
XF_D(x, xd, y, yd)
{
    ba_residuals_d(NC, NP, P, x, xd, x + 6 * NC, xd + 6 * NC, obs, feats, y, yd);
}
XF_B(x, xb, yb)
{
    ba_residuals_b(NC, NP, P, x, xb, x + 6 * NC, xb + 6 * NC, obs, feats, (double[2 * P]){0}, yb);
}
XF_MAIN
#endif

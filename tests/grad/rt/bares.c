/* rt-test: --function bares --independent cams --dependent err --extent cams=n*11,err=4*p */
/* A reprojection-like residual in the way bundle-adjustment objectives
 * are written: each of p observations passes a row of the n cameras
 * (&cams[c * 11]) and an element of it (&cams[c * 11 + 10]) to helpers
 * that read *w and a[0..2]; cross() is given arrays of 3 and 11 elements. */
#include <math.h>

static void
cross(const double *a, const double *b, double *out)
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

static void
weight_error(const double *w, double *err)
{
    *err = 1 - (*w) * (*w);
}

static void
project(const double *cam, const double *x, double *proj)
{
    double r[3];
    cross(cam, x, r);
    for (int k = 0; k < 3; k++)
        proj[k] = cam[3 + k] + r[k] / (1.0 + cam[6] * cam[6]);
}

void
bares(const double *cams, double *err, int n, int p)
{
    double x[3] = {0.3, -0.2, 0.7};
    for (int i = 0; i < p; i++) {
        int c = i % n;
        double e[3];
        project(&cams[c * 11], x, e);
        cross(e, cams + c * 11 + 7, &err[3 * i]);
        weight_error(&cams[c * 11 + 10], &err[3 * p + i]);
    }
}

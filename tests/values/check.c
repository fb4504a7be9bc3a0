/* check.c: checks the derivatives `xaiform grad` wrote of the functions of
 * tests/values/ through the user's own signatures, declared by the headers
 * that `grad --header` wrote (NAME_d.h: tangents, NAME_b.h: adjoints).
 * Each function is seen through three adaptors over one vector v of its
 * inputs and one vector of its outputs: f (the compiled original), t (its
 * tangent), b (its adjoint). For each:
 *   value    the tangent's value of the outputs equals f's, exactly
 *   tangent  every column of J by t equals central differences of f
 *   dot      <ob, J vd> = <vb, vd> for 5 random pairs, where vb is what b
 *            adds to an adjoint vector that starts at 1 (so b must add, not
 *            overwrite, and must not take the incoming adjoint of a by-value
 *            parameter as its final value's)
 *   again    a second call of t and of b in a row gives the same numbers (a
 *            parameter the function counts down stays the caller's)
 * Exit status 0 when all hold; one line per function. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "clampsum_b.h"
#include "clampsum_d.h"
#include "damp_b.h"
#include "damp_d.h"
#include "fscale_b.h"
#include "fscale_d.h"
#include "mix_b.h"
#include "mix_d.h"
#include "static_a_b.h"
#include "static_a_d.h"
#include "static_b_b.h"
#include "static_b_d.h"
#include "tailsum_b.h"
#include "tailsum_d.h"

/* the originals */
double damp(double x, double c);
double tailsum(const double *x, int n);
void mix(const double *a, double *y, double s, int n);
float fscale(float x, const float *w, int n);
int clampsum(const double *x, double *y, int n);
double fsa(double x);
double fsb(double x, double z);

enum { MAXV = 16 };

typedef struct fn {
    const char *name;
    int n, m; /* inputs, outputs */
    double v0[MAXV];
    double h, tol; /* central-difference step (relative), tolerance */
    double dtol;   /* dot-product tolerance */
    void (*f)(const double *v, double *o);
    void (*t)(const double *v, const double *vd, double *o, double *od);
    void (*b)(const double *v, double *vb, const double *ob);
} fn;

/* ---- damp(x, c) */
static void
damp_f(const double *v, double *o)
{
    o[0] = damp(v[0], v[1]);
}
static void
damp_t(const double *v, const double *vd, double *o, double *od)
{
    od[0] = damp_d(v[0], vd[0], v[1], vd[1], &o[0]);
}
static void
damp_bw(const double *v, double *vb, const double *ob)
{
    damp_b(v[0], &vb[0], v[1], &vb[1], ob[0]);
}

/* ---- tailsum(x[4], n): n is the caller's and stays 4 */
static int tail_n = 4;
static void
tail_f(const double *v, double *o)
{
    o[0] = tailsum(v, tail_n);
}
static void
tail_t(const double *v, const double *vd, double *o, double *od)
{
    od[0] = tailsum_d(v, vd, tail_n, &o[0]);
}
static void
tail_b(const double *v, double *vb, const double *ob)
{
    tailsum_b(v, vb, tail_n, ob[0]);
}

/* ---- mix(a[3], y[3], s, n): v = a, y, s; o = y */
static void
mix_f(const double *v, double *o)
{
    memcpy(o, v + 3, 3 * sizeof *o);
    mix(v, o, v[6], 3);
}
static void
mix_t(const double *v, const double *vd, double *o, double *od)
{
    memcpy(o, v + 3, 3 * sizeof *o);
    memcpy(od, vd + 3, 3 * sizeof *od);
    mix_d(v, vd, o, od, v[6], vd[6], 3);
}
static void
mix_bw(const double *v, double *vb, const double *ob)
{
    double y[3], yb[3];
    memcpy(y, v + 3, sizeof y);
    memcpy(yb, ob, sizeof yb);
    mix_b(v, vb, y, yb, v[6], &vb[6], 3); /* yb: the adjoint of y's input */
    for (int i = 0; i < 3; i++)
        vb[3 + i] += yb[i];
}

/* ---- fscale(x, w[3], n) in float */
static void
fs_f(const double *v, double *o)
{
    float w[3] = {(float)v[1], (float)v[2], (float)v[3]};
    o[0] = fscale((float)v[0], w, 3);
}
static void
fs_t(const double *v, const double *vd, double *o, double *od)
{
    float w[3] = {(float)v[1], (float)v[2], (float)v[3]};
    float wd[3] = {(float)vd[1], (float)vd[2], (float)vd[3]};
    float r;
    od[0] = fscale_d((float)v[0], (float)vd[0], w, wd, 3, &r);
    o[0] = r;
}
static void
fs_b(const double *v, double *vb, const double *ob)
{
    float w[3] = {(float)v[1], (float)v[2], (float)v[3]};
    float xb = 0, wb[3] = {0, 0, 0};
    fscale_b((float)v[0], &xb, w, wb, 3, (float)ob[0]);
    vb[0] += xb;
    for (int i = 0; i < 3; i++)
        vb[1 + i] += wb[i];
}

/* ---- clampsum(x[4], y[4], n): its int result is passive */
static int clamp_k;
static void
cl_f(const double *v, double *o)
{
    clamp_k = clampsum(v, o, 4);
}
static void
cl_t(const double *v, const double *vd, double *o, double *od)
{
    int k = clampsum_d(v, vd, o, od, 4);
    if (k != clamp_k)
        printf("clampsum: the tangent returns %d, the function %d\n", k, clamp_k);
}
static void
cl_b(const double *v, double *vb, const double *ob)
{
    double y[4], yb[4];
    memcpy(yb, ob, sizeof yb);
    clampsum_b(v, vb, y, yb, 4);
}

/* ---- fsa, fsb: two files with the same static helper */
static void
st_f(const double *v, double *o)
{
    o[0] = fsa(v[0]);
    o[1] = fsb(v[0], v[1]);
}
static void
st_t(const double *v, const double *vd, double *o, double *od)
{
    od[0] = fsa_d(v[0], vd[0], &o[0]);
    od[1] = fsb_d(v[0], vd[0], v[1], vd[1], &o[1]);
}
static void
st_b(const double *v, double *vb, const double *ob)
{
    fsa_b(v[0], &vb[0], ob[0]);
    fsb_b(v[0], &vb[0], v[1], &vb[1], ob[1]);
}

static const fn fns[] = {
    {"damp", 2, 1, {1.3, 0.7}, 1e-6, 1e-7, 1e-12, damp_f, damp_t, damp_bw},
    {"tailsum", 4, 1, {0.5, -1.25, 2.0, 0.75}, 1e-6, 1e-7, 1e-12, tail_f, tail_t, tail_b},
    {"mix", 7, 3, {0.3, -0.8, 1.1, 2.0, -1.0, 0.5, 1.7}, 1e-6, 1e-7, 1e-12, mix_f, mix_t, mix_bw},
    {"fscale", 4, 1, {0.8, 1.25, -0.5, 0.75}, 1e-2, 1e-4, 1e-6, fs_f, fs_t, fs_b},
    {"clampsum", 4, 4, {0.5, 1.5, -0.25, 2.5}, 1e-6, 1e-7, 1e-12, cl_f, cl_t, cl_b},
    {"static", 2, 2, {1.1, -0.6}, 1e-6, 1e-7, 1e-12, st_f, st_t, st_b},
};

static unsigned long long state = 88172645463325252ULL;

static double
uniform(void)
{
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(state >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

static int
check(const fn *F)
{
    int n = F->n, m = F->m, bad = 0;
    double v[MAXV], vd[MAXV], vb[MAXV], vb2[MAXV], vp[MAXV];
    double o[MAXV], od[MAXV], o2[MAXV], od2[MAXV], of[MAXV], oa[MAXV], oc[MAXV], ob[MAXV];
    double terr = 0, derr = 0;
    memcpy(v, F->v0, sizeof v);
    F->f(v, of);
    for (int j = 0; j < n; j++) {
        for (int i = 0; i < n; i++)
            vd[i] = i == j;
        F->t(v, vd, o, od);
        F->t(v, vd, o2, od2);
        for (int k = 0; k < m; k++) {
            if (o[k] != of[k]) {
                printf("%s: value: the tangent's output %d is %.17g, the function's %.17g\n",
                       F->name, k, o[k], of[k]);
                bad = 1;
            }
            if (od[k] != od2[k]) {
                printf("%s: again: a second tangent call gives %.17g, not %.17g\n", F->name, od2[k],
                       od[k]);
                bad = 1;
            }
        }
        double h = F->h * fabs(v[j] != 0 ? v[j] : 1);
        memcpy(vp, v, sizeof vp);
        vp[j] = v[j] + h;
        F->f(vp, oa);
        vp[j] = v[j] - h;
        F->f(vp, oc);
        double scale = 1e-300;
        for (int k = 0; k < m; k++)
            scale = fmax(scale, fabs(od[k]));
        for (int k = 0; k < m; k++) {
            double cd = (oa[k] - oc[k]) / (2 * h);
            terr = fmax(terr, fabs(cd - od[k]) / scale);
        }
    }
    if (terr > F->tol) {
        printf("%s: tangent: central differences differ by %.3g relative\n", F->name, terr);
        bad = 1;
    }
    for (int s = 0; s < 5; s++) {
        for (int i = 0; i < n; i++)
            vd[i] = uniform(), vb[i] = vb2[i] = 1.0;
        for (int k = 0; k < m; k++)
            ob[k] = uniform();
        F->t(v, vd, o, od);
        F->b(v, vb, ob);
        F->b(v, vb2, ob);
        double lhs = 0, rhs = 0, mag = 0;
        for (int k = 0; k < m; k++)
            lhs += ob[k] * od[k], mag += fabs(ob[k] * od[k]);
        for (int i = 0; i < n; i++) {
            rhs += (vb[i] - 1.0) * vd[i], mag += fabs((vb[i] - 1.0) * vd[i]);
            if (vb[i] != vb2[i]) {
                printf("%s: again: a second adjoint call adds %.17g, not %.17g\n", F->name,
                       vb2[i] - 1.0, vb[i] - 1.0);
                bad = 1;
            }
        }
        derr = fmax(derr, fabs(lhs - rhs) / fmax(mag, 1e-300));
    }
    if (derr > F->dtol) {
        printf("%s: dot: <ob, J vd> and <J^T ob, vd> differ by %.3g relative\n", F->name, derr);
        bad = 1;
    }
    if (tail_n != 4) {
        printf("%s: the caller's n is %d after the calls, not 4\n", F->name, tail_n);
        bad = 1;
    }
    printf("%s %s: tangent %.2g, dot %.2g\n", bad ? "FAIL" : "pass", F->name, terr, derr);
    return bad;
}

int
main(void)
{
    int bad = 0;
    for (size_t i = 0; i < sizeof fns / sizeof *fns; i++)
        bad |= check(&fns[i]);
    return bad;
}

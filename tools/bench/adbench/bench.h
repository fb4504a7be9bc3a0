/* bench.h: the part of tools/bench/adbench.sh's drivers that every
 * objective shares. A driver fills an adb_problem with its sizes and with
 * functions over flat vectors (x: the active inputs, one after the other;
 * y: the outputs), then calls adb_main. Written for this project from the
 * objectives' definitions; nothing of ADBench's drivers is used.
 *
 * With the reference derivative (Tapenade's, renamed tap_*), adb_main
 *  1. builds the reference Jacobian J (m x n): rows from an adjoint
 *     (w = e_i), or columns from a tangent (v = e_j);
 *  2. checks J against central differences of f along 3 random directions
 *     (1e-5 relative: a check of the driver's wiring, not of Tapenade);
 *  3. with our derivative (OURS = 1 tangent, 2 adjoint), compares
 *     J v (tangent) or J^T w (adjoint) for 3 random v or w with ours, the
 *     error being max |ours - ref| / max |ref|;
 *  4. times f, the reference derivative and ours in process CPU time,
 *     repeating each until it has taken ADB_MIN_CPU seconds in total.
 * It prints one line: key=value pairs that adbench.sh reads. Exit status
 * 0, or 1 when a check fails.
 * ADB_CALLS in the environment (adbench.sh -i): 0 checks without timing
 * (the times printed are -1); N > 0 neither checks nor times, but calls
 * ours N times (built with OURS = 1 or 2), or else f and the reference N
 * times each, for callgrind to count. */
#ifndef XF_ADB_BENCH_H
#define XF_ADB_BENCH_H

#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* clock_gettime under -std=c99 */
#endif

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef OURS
#define OURS 0
#endif
#define ADB_MIN_CPU 0.3

typedef struct adb_problem {
    const char *name;
    int n, m;  /* active inputs, outputs */
    double *x; /* n inputs: the driver's data, set by the driver */
    /* y = f(x) */
    void (*f)(const double *x, double *y);
    /* reference: tangent t = J v, or adjoint g = J^T w (g overwritten) */
    void (*ref_d)(const double *x, const double *v, double *y, double *t);
    void (*ref_b)(const double *x, const double *w, double *y, double *g);
    /* ours, the same; y is never read after either adjoint (Tapenade's
     * _b and ours with grad --no-value compute no value) */
    void (*our_d)(const double *x, const double *v, double *y, double *t);
    void (*our_b)(const double *x, const double *w, double *y, double *g);
} adb_problem;

static unsigned long long adb_state = 0x9E3779B97F4A7C15ULL;

/* uniform in [-1, 1) */
static double
adb_uniform(void)
{
    adb_state = adb_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(adb_state >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

static double
adb_cpu(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void *
adb_alloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    return p;
}

/* max |a - b| / max |b| over k entries */
static double
adb_relerr(const double *a, const double *b, int k)
{
    double d = 0, s = 0;
    for (int i = 0; i < k; i++) {
        d = fmax(d, fabs(a[i] - b[i]));
        s = fmax(s, fabs(b[i]));
    }
    return s > 0 ? d / s : d;
}

/* One call of f (kind 0), the reference (1 tangent, 2 adjoint) or ours
 * (3, 4) */
static void
adb_call(const adb_problem *p, int kind, double *y, double *v, double *out)
{
    switch (kind) {
    case 0:
        p->f(p->x, y);
        break;
    case 1:
        p->ref_d(p->x, v, y, out);
        break;
    case 2:
        p->ref_b(p->x, v, y, out);
        break;
    case 3:
        p->our_d(p->x, v, y, out);
        break;
    default:
        p->our_b(p->x, v, y, out);
        break;
    }
}

/* CPU seconds per call of @kind (adb_call), repeated in doubling rounds
 * to ADB_MIN_CPU */
static double
adb_time(const adb_problem *p, int kind, double *y, double *v, double *out)
{
    long calls = 0, round = 1;
    double t0 = adb_cpu(), t = 0;
    do {
        for (long i = 0; i < round; i++)
            adb_call(p, kind, y, v, out);
        calls += round, round *= 2;
        t = adb_cpu() - t0;
    } while (t < ADB_MIN_CPU);
    return t / (double)calls;
}

/* ADB_CALLS=N > 0: ours, or else f and the reference, N times each */
static int
adb_count(const adb_problem *p, long calls)
{
    size_t n = (size_t)p->n, m = (size_t)p->m, k = n > m ? n : m;
    double *v = adb_alloc(k, sizeof *v), *y = adb_alloc(m, sizeof *y);
    double *out = adb_alloc(k, sizeof *out);
    for (size_t j = 0; j < k; j++)
        v[j] = adb_uniform();
    /* built with ours, ours alone; else f and the reference */
    int ref = p->ref_b ? 2 : 1, ours = p->our_b ? 4 : p->our_d ? 3 : -1;
    for (int kind = 0; kind <= 4; kind++)
        for (long i = 0; (ours < 0 ? kind == 0 || kind == ref : kind == ours) && i < calls; i++)
            adb_call(p, kind, y, v, out);
    printf("name=%s n=%d m=%d calls=%ld\n", p->name, p->n, p->m, calls);
    free(v), free(y), free(out);
    return 0;
}

static int
adb_main(const adb_problem *p)
{
    const char *env = getenv("ADB_CALLS");
    long calls = env && *env ? strtol(env, NULL, 10) : -1; /* empty: unset */
    if (calls > 0)
        return adb_count(p, calls);
    int n = p->n, m = p->m, bad = 0;
    double *J = adb_alloc((size_t)n * (size_t)m, sizeof *J);
    double *v = adb_alloc((size_t)n, sizeof *v), *g = adb_alloc((size_t)n, sizeof *g);
    double *w = adb_alloc((size_t)m, sizeof *w), *t = adb_alloc((size_t)m, sizeof *t);
    double *y = adb_alloc((size_t)m, sizeof *y), *y2 = adb_alloc((size_t)m, sizeof *y2);
    double *r = adb_alloc((size_t)(n > m ? n : m), sizeof *r);
    double *xs = adb_alloc((size_t)n, sizeof *xs);
    memcpy(xs, p->x, (size_t)n * sizeof *xs);
    /* 1. the reference Jacobian */
    if (p->ref_b) {
        for (int i = 0; i < m; i++) {
            for (int k = 0; k < m; k++)
                w[k] = k == i;
            memset(g, 0, (size_t)n * sizeof *g);
            p->ref_b(p->x, w, y, g);
            for (int j = 0; j < n; j++)
                J[(size_t)i * (size_t)n + (size_t)j] = g[j];
        }
    } else {
        for (int j = 0; j < n; j++) {
            for (int k = 0; k < n; k++)
                v[k] = k == j;
            p->ref_d(p->x, v, y, t);
            for (int i = 0; i < m; i++)
                J[(size_t)i * (size_t)n + (size_t)j] = t[i];
        }
    }
    if (memcmp(xs, p->x, (size_t)n * sizeof *xs) != 0) {
        printf("error=the-reference-changed-x\n");
        return 1;
    }
    /* 2. J against central differences of f */
    double cd = 0;
    for (int s = 0; s < 3; s++) {
        double h = 1e-6;
        for (int j = 0; j < n; j++)
            v[j] = adb_uniform();
        for (int j = 0; j < n; j++)
            p->x[j] = xs[j] + h * v[j];
        p->f(p->x, y);
        for (int j = 0; j < n; j++)
            p->x[j] = xs[j] - h * v[j];
        p->f(p->x, y2);
        memcpy(p->x, xs, (size_t)n * sizeof *xs);
        for (int i = 0; i < m; i++) {
            double a = 0;
            for (int j = 0; j < n; j++)
                a += J[(size_t)i * (size_t)n + (size_t)j] * v[j];
            t[i] = a, r[i] = (y[i] - y2[i]) / (2 * h);
        }
        cd = fmax(cd, adb_relerr(r, t, m));
    }
    bad |= !(cd <= 1e-5);
    /* 3. ours against J */
    double err = -1;
#if OURS == 1
    err = 0;
    for (int s = 0; s < 3; s++) {
        for (int j = 0; j < n; j++)
            v[j] = adb_uniform();
        for (int i = 0; i < m; i++) {
            double a = 0;
            for (int j = 0; j < n; j++)
                a += J[(size_t)i * (size_t)n + (size_t)j] * v[j];
            r[i] = a;
        }
        p->our_d(p->x, v, y, t);
        err = fmax(err, adb_relerr(t, r, m));
    }
#elif OURS == 2
    err = 0;
    for (int s = 0; s < 3; s++) {
        for (int i = 0; i < m; i++)
            w[i] = adb_uniform();
        for (int j = 0; j < n; j++) {
            double a = 0;
            for (int i = 0; i < m; i++)
                a += J[(size_t)i * (size_t)n + (size_t)j] * w[i];
            r[j] = a;
        }
        memset(g, 0, (size_t)n * sizeof *g);
        p->our_b(p->x, w, y, g);
        err = fmax(err, adb_relerr(g, r, n));
    }
#endif
    if (err > 1e-10 || err != err)
        bad = 1;
    /* 4. times */
    for (int j = 0; j < n; j++)
        v[j] = adb_uniform();
    for (int i = 0; i < m; i++)
        w[i] = adb_uniform();
    double tf = -1, tr = -1, to = -1;
    if (calls != 0) { /* ADB_CALLS=0: no timing */
        tf = adb_time(p, 0, y, v, t);
        tr = p->ref_b ? adb_time(p, 2, y, w, g) : adb_time(p, 1, y, v, t);
#if OURS == 1
        to = adb_time(p, 3, y, v, t);
#elif OURS == 2
        to = adb_time(p, 4, y, w, g);
#endif
    }
    printf("name=%s n=%d m=%d cd=%.2e error=%.2e t_f=%.4e t_ref=%.4e t_ours=%.4e ref=%s\n", p->name,
           n, m, cd, err, tf, tr, to, p->ref_b ? "adjoint" : "tangent");
    free(J), free(v), free(g), free(w), free(t), free(y), free(y2), free(r), free(xs);
    return bad;
}

#endif

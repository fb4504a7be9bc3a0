/* driver.c: checks the C that `xaiform xaif2c` wrote for a corpus example
 * whose top routine is head(x, y): the program F, its tangent F_D and its
 * adjoint F_B (named by -DF=... -DF_D=... -DF_B=...; the adjoint's file is
 * included here, -DADJ="\"file.c\"", so that its tapes can be inspected).
 *
 *   driver N M TOL PLAIN.ref TANGENT.ref SEEDS
 *
 * PLAIN.ref and TANGENT.ref are what `xaiform run` printed for the plain
 * program and the tangent (Y(k)=... and F(k,i)=... lines). Checks, one
 * "check NAME ok|FAIL ..." line each:
 *  plain    F(x0) = xaiform run's y, x0(i) = i/2, to 1e-13 relative
 *  tangent  the Jacobian by F_D = xaiform run's, to 1e-13 relative
 *  dd       F_D's Jacobian = central differences of F, to TOL relative
 *  dot      <yb, J xd> = <J^T yb, xd> to 1e-12 relative, SEEDS random seeds;
 *           the tapes are empty after each F_B
 * Exit status 0 when every check passed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include ADJ

void F(double *x, double *y);
void F_D(double *x, double *xd, double *y, double *yd);

static int n, m;

static int
close_to(double a, double b, double rel)
{
    double s = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
    return fabs(a - b) <= rel * s || fabs(a - b) <= 1e-300;
}

/* Values after '=' on the lines of @path that start with @tag, in order. */
static int
read_ref(const char *path, const char *tag, double *out, int want)
{
    FILE *f = fopen(path, "r");
    char line[256];
    int k = 0;
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f) && k < want) {
        char *eq = strchr(line, '=');
        if (strncmp(line, tag, strlen(tag)) || !eq)
            continue;
        out[k++] = strtod(eq + 1, NULL);
    }
    fclose(f);
    return k == want ? 0 : -1;
}

static unsigned long long lcg_state;

static double
uniform(void)
{
    lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(lcg_state >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

int
main(int argc, char **argv)
{
    if (argc != 7) {
        fprintf(stderr, "usage: driver N M TOL PLAIN.ref TANGENT.ref SEEDS\n");
        return 2;
    }
    n = atoi(argv[1]);
    m = atoi(argv[2]);
    double tol = strtod(argv[3], NULL);
    int seeds = atoi(argv[6]);
    size_t nn = (size_t)n + 1, mm = (size_t)m + 1;
    double *x0d = calloc(nn, sizeof *x0d);
    double *x0 = calloc(nn, sizeof *x0), *x = calloc(nn, sizeof *x), *xd = calloc(nn, sizeof *xd);
    double *xb = calloc(nn, sizeof *xb), *y = calloc(mm, sizeof *y), *yd = calloc(mm, sizeof *yd);
    double *yb = calloc(mm, sizeof *yb), *w = calloc(mm, sizeof *w), *y2 = calloc(mm, sizeof *y2);
    double *ref = calloc(nn * mm, sizeof *ref), *jac = calloc(nn * mm, sizeof *jac);
    int failed = 0;
    if (!x0d || !x0 || !x || !xd || !xb || !y || !yd || !yb || !w || !y2 || !ref || !jac)
        return 2;
    for (int i = 0; i < n; i++)
        x0[i] = (i + 1) / 2.0;

    /* plain */
    memcpy(x, x0, (size_t)n * sizeof *x);
    F(x, y);
    int ok = read_ref(argv[4], "Y(", ref, m) == 0;
    for (int k = 0; ok && k < m; k++)
        ok = close_to(y[k], ref[k], 1e-13);
    printf("check plain %s\n", ok ? "ok" : "FAIL");
    failed |= !ok;

    /* tangent, as OpenAD's driver: a divided-difference pass first, then one
     * direction at a time */
    memcpy(x, x0, (size_t)n * sizeof *x);
    memset(xd, 0, nn * sizeof *xd);
    memset(y, 0, mm * sizeof *y);
    F_D(x, xd, y, yd);
    for (int i = 0; i < n; i++) {
        memcpy(x, x0, (size_t)n * sizeof *x);
        x[i] += 1e-8;
        F_D(x, xd, y, yd);
    }
    for (int i = 0; i < n; i++) {
        memcpy(x, x0, (size_t)n * sizeof *x);
        memset(xd, 0, nn * sizeof *xd);
        memset(yd, 0, mm * sizeof *yd);
        xd[i] = 1.0;
        F_D(x, xd, y, yd);
        for (int k = 0; k < m; k++)
            jac[(size_t)i * m + k] = yd[k];
    }
    ok = read_ref(argv[5], "F(", ref, n * m) == 0;
    for (int k = 0; ok && k < n * m; k++)
        ok = close_to(jac[k], ref[k], 1e-13);
    printf("check tangent %s\n", ok ? "ok" : "FAIL");
    failed |= !ok;

    /* central differences of the compiled program */
    double worst = 0;
    for (int i = 0; i < n; i++) {
        double h = 1e-6 * (fabs(x0[i]) > 1 ? fabs(x0[i]) : 1);
        memcpy(x, x0, (size_t)n * sizeof *x);
        x[i] += h;
        F(x, y);
        memcpy(y2, y, (size_t)m * sizeof *y);
        memcpy(x, x0, (size_t)n * sizeof *x);
        x[i] -= h;
        F(x, y);
        for (int k = 0; k < m; k++) {
            double dd = (y2[k] - y[k]) / (2 * h), t = jac[(size_t)i * m + k];
            double err = fabs(dd - t) / (fabs(t) > 1 ? fabs(t) : 1);
            if (err > worst)
                worst = err;
        }
    }
    ok = worst <= tol;
    printf("check dd %s %.3g\n", ok ? "ok" : "FAIL", worst);
    failed |= !ok;

    /* dot-product test against the adjoint */
    ok = 1;
    double rworst = 0;
    for (int s = 1; s <= seeds; s++) {
        lcg_state = (unsigned long long)s * 0x9E3779B97F4A7C15ULL;
        for (int i = 0; i < n; i++)
            x0d[i] = xd[i] = uniform(); /* F_D may change xd (an inout x) */
        for (int k = 0; k < m; k++)
            w[k] = uniform();
        memcpy(x, x0, (size_t)n * sizeof *x);
        memset(yd, 0, mm * sizeof *yd);
        F_D(x, xd, y, yd);
        memcpy(x, x0, (size_t)n * sizeof *x);
        memset(xb, 0, nn * sizeof *xb);
        memcpy(yb, w, (size_t)m * sizeof *yb);
        F_B(x, xb, y, yb);
        double a = 0, b = 0;
        for (int k = 0; k < m; k++)
            a += w[k] * yd[k];
        for (int i = 0; i < n; i++)
            b += xb[i] * x0d[i];
        double s_ = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
        double r = s_ > 0 ? fabs(a - b) / s_ : 0;
        if (r > rworst)
            rworst = r;
        if (!close_to(a, b, 1e-12) || xf_ad_words() != 0)
            ok = 0;
    }
    printf("check dot %s %.3g\n", ok ? "ok" : "FAIL", rworst);
    failed |= !ok;
    xf_ad_release();
    free(x0), free(x), free(xd), free(xb), free(y), free(yd), free(yb), free(w), free(y2);
    free(ref), free(jac), free(x0d);
    return failed;
}

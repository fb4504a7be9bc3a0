/* gmm.c: adbench.sh's driver for ADBench's gmm_objective (Tapenade's
 * gmm_b.c beside it): d, k, n and the inputs read from one of the
 * benchmark's data files (gmm/1k/gmm_dD_KK.txt: "d k n", k alphas, k
 * rows of d means, k rows of d(d+1)/2 icf, n rows of d points, "gamma m"),
 * or made up from a seed for "d k n" given instead of a file. Active:
 * alphas, means, icf; output: err. */
#include "bench.h"

typedef struct {
    double gamma;
    int m;
} wishart_t; /* the layout of the benchmark's Wishart */

void gmm_objective(int d, int k, int n, const double *alphas, const double *means,
                   const double *icf, const double *x, wishart_t wishart, double *err);
void tap_gmm_objective_b(int d, int k, int n, const double *alphas, double *alphasb,
                         const double *means, double *meansb, const double *icf, double *icfb,
                         const double *x, wishart_t wishart, double *err, double *errb);
#if OURS == 1
double our_gmm_objective_d(int d, int k, int n, const double *alphas, const double *alphasd,
                           const double *means, const double *meansd, const double *icf,
                           const double *icfd, const double *x, wishart_t wishart, double *err,
                           double *errd);
#elif OURS == 2
void our_gmm_objective_b(int d, int k, int n, const double *alphas, double *alphasb,
                         const double *means, double *meansb, const double *icf, double *icfb,
                         const double *x, wishart_t wishart, double *err, double *errb);
#endif

static int D, K, N;
static double *X;
static wishart_t W;

/* the flat active vector: alphas (K), means (K*D), icf (K*D(D+1)/2) */
#define ALPHAS(v) (v)
#define MEANS(v) ((v) + K)
#define ICF(v) ((v) + K + K * D)

static void
f(const double *x, double *y)
{
    gmm_objective(D, K, N, ALPHAS(x), MEANS(x), ICF(x), X, W, y);
}

static void
ref_b(const double *x, const double *w, double *y, double *g)
{
    double yb = w[0];
    tap_gmm_objective_b(D, K, N, ALPHAS(x), ALPHAS(g), MEANS(x), MEANS(g), ICF(x), ICF(g), X, W, y,
                        &yb);
}

#if OURS == 1
static void
our_d(const double *x, const double *v, double *y, double *t)
{
    our_gmm_objective_d(D, K, N, ALPHAS(x), ALPHAS(v), MEANS(x), MEANS(v), ICF(x), ICF(v), X, W, y,
                        t);
}
#elif OURS == 2
static void
our_b(const double *x, const double *w, double *y, double *g)
{
    double yb = w[0];
    our_gmm_objective_b(D, K, N, ALPHAS(x), ALPHAS(g), MEANS(x), MEANS(g), ICF(x), ICF(g), X, W, y,
                        &yb);
}
#endif

static int
read_doubles(FILE *in, double *v, long k)
{
    for (long i = 0; i < k; i++)
        if (fscanf(in, "%lf", &v[i]) != 1)
            return -1;
    return 0;
}

int
main(int argc, char **argv)
{
    FILE *in = NULL;
    if (argc == 2) {
        in = fopen(argv[1], "r");
        if (!in || fscanf(in, "%d %d %d", &D, &K, &N) != 3) {
            fprintf(stderr, "%s: cannot read d k n\n", argv[1]);
            return 2;
        }
    } else if (argc == 4) {
        D = atoi(argv[1]), K = atoi(argv[2]), N = atoi(argv[3]);
    } else {
        fprintf(stderr, "usage: gmm DATA.txt | gmm D K N\n");
        return 2;
    }
    if (D < 1 || K < 1 || N < 1) {
        fprintf(stderr, "gmm: sizes must be positive\n");
        return 2;
    }
    int icf_sz = D * (D + 1) / 2, nx = K + K * D + K * icf_sz;
    double *x = adb_alloc((size_t)nx, sizeof *x);
    X = adb_alloc((size_t)N * (size_t)D, sizeof *X);
    if (in) {
        if (read_doubles(in, x, nx) || read_doubles(in, X, (long)N * D) ||
            fscanf(in, "%lf %d", &W.gamma, &W.m) != 2) {
            fprintf(stderr, "%s: fewer numbers than d k n say\n", argv[1]);
            return 2;
        }
        fclose(in);
    } else {
        for (int i = 0; i < nx; i++)
            x[i] = adb_uniform();
        for (long i = 0; i < (long)N * D; i++)
            X[i] = adb_uniform();
        W.gamma = 1.0, W.m = 0;
    }
    adb_problem p = {.name = "gmm", .n = nx, .m = 1, .x = x, .f = f, .ref_b = ref_b};
#if OURS == 1
    p.our_d = our_d;
#elif OURS == 2
    p.our_b = our_b;
#endif
    return adb_main(&p);
}

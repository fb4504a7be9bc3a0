/* ba.c: adbench.sh's driver for ADBench's compute_reproj_error and
 * compute_zach_weight_error (Tapenade's ba_b.c beside them), built with
 * -DOBJ=1 (reprojection: active cam[11], X[3], w; outputs err[2]) or
 * -DOBJ=2 (weight error: active w; output err). The camera, point,
 * weight and feature are the first of one of the benchmark's data files
 * (ba/baN_n*_m*_p*.txt: "n m p", then one camera, one point, one weight,
 * one feature, which the benchmark repeats), or made up from a seed. The
 * benchmark calls these once per observation: its sizes are these. */
#include "bench.h"

void compute_reproj_error(const double *cam, const double *X, const double *w, const double *feat,
                          double *err);
void compute_zach_weight_error(const double *w, double *err);
void tap_compute_reproj_error_b(const double *cam, double *camb, const double *X, double *Xb,
                                const double *w, double *wb, const double *feat, double *err,
                                double *errb);
void tap_compute_zach_weight_error_b(const double *w, double *wb, double *err, double *errb);
#if OURS == 1
void our_compute_reproj_error_d(const double *cam, const double *camd, const double *X,
                                const double *Xd, const double *w, const double *wd,
                                const double *feat, double *err, double *errd);
void our_compute_zach_weight_error_d(const double *w, const double *wd, double *err, double *errd);
#elif OURS == 2
void our_compute_reproj_error_b(const double *cam, double *camb, const double *X, double *Xb,
                                const double *w, double *wb, const double *feat, double *err,
                                double *errb);
void our_compute_zach_weight_error_b(const double *w, double *wb, double *err, double *errb);
#endif

static double feat[2];

#if OBJ == 1
static void
f(const double *x, double *y)
{
    compute_reproj_error(x, x + 11, x + 14, feat, y);
}
static void
ref_b(const double *x, const double *w, double *y, double *g)
{
    double yb[2] = {w[0], w[1]};
    tap_compute_reproj_error_b(x, g, x + 11, g + 11, x + 14, g + 14, feat, y, yb);
}
#if OURS == 1
static void
our_d(const double *x, const double *v, double *y, double *t)
{
    our_compute_reproj_error_d(x, v, x + 11, v + 11, x + 14, v + 14, feat, y, t);
}
#elif OURS == 2
static void
our_b(const double *x, const double *w, double *y, double *g)
{
    double yb[2] = {w[0], w[1]};
    our_compute_reproj_error_b(x, g, x + 11, g + 11, x + 14, g + 14, feat, y, yb);
}
#endif
#else
static void
f(const double *x, double *y)
{
    compute_zach_weight_error(x, y);
}
static void
ref_b(const double *x, const double *w, double *y, double *g)
{
    double yb = w[0];
    tap_compute_zach_weight_error_b(x, g, y, &yb);
}
#if OURS == 1
static void
our_d(const double *x, const double *v, double *y, double *t)
{
    our_compute_zach_weight_error_d(x, v, y, t);
}
#elif OURS == 2
static void
our_b(const double *x, const double *w, double *y, double *g)
{
    double yb = w[0];
    our_compute_zach_weight_error_b(x, g, y, &yb);
}
#endif
#endif

int
main(int argc, char **argv)
{
    double x[15]; /* cam (11), X (3), w */
    if (argc == 2) {
        FILE *in = fopen(argv[1], "r");
        int n, m, p, ok = in && fscanf(in, "%d %d %d", &n, &m, &p) == 3;
        for (int i = 0; ok && i < 15; i++)
            ok = fscanf(in, "%lf", &x[i]) == 1;
        ok = ok && fscanf(in, "%lf %lf", &feat[0], &feat[1]) == 2;
        if (!ok) {
            fprintf(stderr, "%s: not a BA data file\n", argv[1]);
            return 2;
        }
        fclose(in);
    } else {
        for (int i = 0; i < 15; i++)
            x[i] = adb_uniform();
        x[6] += 2, x[13] = 5 + x[13]; /* focal length, point away from the camera */
        feat[0] = adb_uniform(), feat[1] = adb_uniform();
    }
#if OBJ == 1
    adb_problem pb = {.name = "ba_reproj", .n = 15, .m = 2, .x = x, .f = f, .ref_b = ref_b};
#else
    adb_problem pb = {.name = "ba_weight", .n = 1, .m = 1, .x = x + 14, .f = f, .ref_b = ref_b};
#endif
#if OURS == 1
    pb.our_d = our_d;
#elif OURS == 2
    pb.our_b = our_b;
#endif
    return adb_main(&pb);
}

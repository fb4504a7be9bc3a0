/* hand.c: adbench.sh's driver for ADBench's hand_objective (-DOBJ=1;
 * active theta[26]) and hand_objective_complicated (-DOBJ=2; active theta
 * and us[2*c]), against Tapenade's tangent hand_d.c beside them; output
 * err[3*c]. The hand model is made up from a seed at the benchmark's
 * sizes (22 bones, 544 vertices, 1084 triangles; c correspondences, the
 * program's argument): 4x4 bone matrices with a random 3x4 part, vertex
 * weights that sum to 1, random correspondences and points. Matrices are
 * column-major {nrows, ncols, data}, as the benchmark's.
 *
 * Tapenade's tangent also takes Matrix_diff twins ({data}) of
 * base_relatives, inverse_base_absolutes and base_positions, which it
 * zeroes; ours has none (those matrices are passive: theta and us are the
 * independents), so ours takes the objective's own arguments. */
#include "bench.h"

typedef struct {
    int nrows, ncols;
    double *data;
} matrix_t;
typedef struct {
    double *data;
} matrix_diff_t;
typedef struct {
    int verts[3];
} triangle_t;

#define HAND_ARGS_IN                                                                               \
    int bone_count, const char **bone_names, const int *parents, matrix_t *base_relatives
#define HAND_ARGS_MID                                                                              \
    matrix_t *inverse_base_absolutes, matrix_t *base_positions, matrix_t *weights,                 \
        const triangle_t *triangles, int is_mirrored, int corresp_count,                           \
        const int *correspondences, matrix_t *points

void hand_objective(const double *theta, HAND_ARGS_IN, HAND_ARGS_MID, double *err);
void hand_objective_complicated(const double *theta, const double *us, HAND_ARGS_IN, HAND_ARGS_MID,
                                double *err);
/* the derivative's signature, Tapenade's: each of the three matrices is
 * followed by its twin */
#define HAND_D_ARGS                                                                                \
    int bone_count, const char **bone_names, const int *parents, matrix_t *base_relatives,         \
        matrix_diff_t *base_relativesd, matrix_t *inverse_base_absolutes,                          \
        matrix_diff_t *inverse_base_absolutesd, matrix_t *base_positions,                          \
        matrix_diff_t *base_positionsd, matrix_t *weights, const triangle_t *triangles,            \
        int is_mirrored, int corresp_count, const int *correspondences, matrix_t *points
void tap_hand_objective_d(const double *theta, const double *thetad, HAND_D_ARGS, double *err,
                          double *errd);
void tap_hand_objective_complicated_d(const double *theta, const double *thetad, const double *us,
                                      const double *usd, HAND_D_ARGS, double *err, double *errd);
#if OURS == 1
void our_hand_objective_d(const double *theta, const double *thetad, HAND_ARGS_IN, HAND_ARGS_MID,
                          double *err, double *errd);
void our_hand_objective_complicated_d(const double *theta, const double *thetad, const double *us,
                                      const double *usd, HAND_ARGS_IN, HAND_ARGS_MID, double *err,
                                      double *errd);
#elif OURS == 2
void our_hand_objective_b(const double *theta, double *thetab, HAND_ARGS_IN, HAND_ARGS_MID,
                          double *err, double *errb);
void our_hand_objective_complicated_b(const double *theta, double *thetab, const double *us,
                                      double *usb, HAND_ARGS_IN, HAND_ARGS_MID, double *err,
                                      double *errb);
#endif

enum { BONES = 22, VERTS = 544, TRIS = 1084, THETA = 26 };
static int CC;
static const char *names[BONES];
static int parents[BONES], *corr;
static matrix_t rel[BONES], inv[BONES], pos, wts, pts;
static matrix_diff_t reld[BONES], invd[BONES], posd;
static triangle_t tris[TRIS];

#define MODEL BONES, names, parents, rel
#define MODEL_REST inv, &pos, &wts, tris, 0, CC, corr, &pts
#define MODEL_D                                                                                    \
    BONES, names, parents, rel, reld, inv, invd, &pos, &posd, &wts, tris, 0, CC, corr, &pts

static void
f(const double *x, double *y)
{
#if OBJ == 1
    hand_objective(x, MODEL, MODEL_REST, y);
#else
    hand_objective_complicated(x, x + THETA, MODEL, MODEL_REST, y);
#endif
}

static void
ref_d(const double *x, const double *v, double *y, double *t)
{
#if OBJ == 1
    tap_hand_objective_d(x, v, MODEL_D, y, t);
#else
    tap_hand_objective_complicated_d(x, v, x + THETA, v + THETA, MODEL_D, y, t);
#endif
}

#if OURS == 1
static void
our_d(const double *x, const double *v, double *y, double *t)
{
#if OBJ == 1
    our_hand_objective_d(x, v, MODEL, MODEL_REST, y, t);
#else
    our_hand_objective_complicated_d(x, v, x + THETA, v + THETA, MODEL, MODEL_REST, y, t);
#endif
}
#elif OURS == 2
static void
our_b(const double *x, const double *w, double *y, double *g)
{
    int m = 3 * CC;
    double *yb = adb_alloc((size_t)m, sizeof *yb);
    memcpy(yb, w, (size_t)m * sizeof *yb);
#if OBJ == 1
    our_hand_objective_b(x, g, MODEL, MODEL_REST, y, yb);
#else
    our_hand_objective_complicated_b(x, g, x + THETA, g + THETA, MODEL, MODEL_REST, y, yb);
#endif
    free(yb);
}
#endif

static void
mat(matrix_t *a, matrix_diff_t *d, int r, int c)
{
    a->nrows = r, a->ncols = c;
    a->data = adb_alloc((size_t)r * (size_t)c, sizeof *a->data);
    if (d)
        d->data = adb_alloc((size_t)r * (size_t)c, sizeof *d->data);
}

/* a 4x4 transform: random 3x4 part near the identity, last row 0 0 0 1 */
static void
transform(matrix_t *a, matrix_diff_t *d)
{
    mat(a, d, 4, 4);
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 3; r++)
            a->data[r + 4 * c] = (r == c) + 0.3 * adb_uniform();
    a->data[15] = 1;
}

int
main(int argc, char **argv)
{
    CC = argc == 2 ? atoi(argv[1]) : 100;
    if (CC < 1) {
        fprintf(stderr, "usage: hand [CORRESPONDENCES]\n");
        return 2;
    }
    for (int i = 0; i < BONES; i++) {
        names[i] = "bone";
        parents[i] = i == 0 ? -1 : (i - 1) % 4 == 0 ? 0 : i - 1; /* five chains off the wrist */
        transform(&rel[i], &reld[i]);
        transform(&inv[i], &invd[i]);
    }
    mat(&pos, &posd, 4, VERTS);
    mat(&wts, NULL, BONES, VERTS);
    for (int v = 0; v < VERTS; v++) {
        double s = 0;
        for (int r = 0; r < 3; r++)
            pos.data[r + 4 * v] = adb_uniform();
        pos.data[3 + 4 * v] = 1;
        for (int b = 0; b < BONES; b++)
            s += wts.data[b + BONES * v] = 1.5 + adb_uniform();
        for (int b = 0; b < BONES; b++)
            wts.data[b + BONES * v] /= s;
    }
    for (int t = 0; t < TRIS; t++)
        for (int k = 0; k < 3; k++)
            tris[t].verts[k] = (int)((adb_uniform() + 1) / 2 * VERTS) % VERTS;
    corr = adb_alloc((size_t)CC, sizeof *corr);
    mat(&pts, NULL, 3, CC);
    for (int i = 0; i < CC; i++) {
        corr[i] =
            (int)((adb_uniform() + 1) / 2 * (OBJ == 1 ? VERTS : TRIS)) % (OBJ == 1 ? VERTS : TRIS);
        for (int r = 0; r < 3; r++)
            pts.data[r + 3 * i] = adb_uniform();
    }
#if OBJ == 1
    int n = THETA;
#else
    int n = THETA + 2 * CC;
#endif
    double *x = adb_alloc((size_t)n, sizeof *x);
    for (int i = 0; i < n; i++)
        x[i] = i < THETA ? 0.5 * adb_uniform() : 0.25 + 0.2 * adb_uniform();
    adb_problem p = {.name = OBJ == 1 ? "hand" : "hand_complicated",
                     .n = n,
                     .m = 3 * CC,
                     .x = x,
                     .f = f,
                     .ref_d = ref_d};
#if OURS == 1
    p.our_d = our_d;
#elif OURS == 2
    p.our_b = our_b;
#endif
    return adb_main(&p);
}

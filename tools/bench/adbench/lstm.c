/* lstm.c: adbench.sh's driver for ADBench's lstm_objective (Tapenade's
 * lstm_b.c beside it): l layers, c characters of b entries. The inputs
 * are read from one of the benchmark's data files (lstm/lstm_lL_cC.txt:
 * "l c b", then main_params (2*l*4*b), extra_params (3*b), state (2*l*b),
 * sequence (c*b)), or made up from a seed for "l c b". Active:
 * main_params, extra_params; output: loss. The state is in and out: it
 * is reset before every call. It depends on main_params and loss on it,
 * so xaiform's derivatives take its derivative too (stated, stateb), which
 * the driver passes zeroed: the state's input is no independent and its
 * output no dependent. Tapenade's shipped lstm_b.c allocates stateb
 * inside instead (its repair of the generated code); ADB_SELF (the
 * script's --self-test) calls that code in the place of ours. */
#include "bench.h"

#ifndef ADB_SELF
#define ADB_SELF 0
#endif

void lstm_objective(int l, int c, int b, const double *main_params, const double *extra_params,
                    double *state, const double *sequence, double *loss);
void tap_lstm_objective_b(int l, int c, int b, const double *main_params, double *main_paramsb,
                          const double *extra_params, double *extra_paramsb, double *state,
                          const double *sequence, double *loss, double *lossb);
#if OURS == 1
void our_lstm_objective_d(int l, int c, int b, const double *main_params,
                          const double *main_paramsd, const double *extra_params,
                          const double *extra_paramsd, double *state, double *stated,
                          const double *sequence, double *loss, double *lossd);
#elif OURS == 2 && ADB_SELF
void our_lstm_objective_b(int l, int c, int b, const double *main_params, double *main_paramsb,
                          const double *extra_params, double *extra_paramsb, double *state,
                          const double *sequence, double *loss, double *lossb);
#elif OURS == 2
void our_lstm_objective_b(int l, int c, int b, const double *main_params, double *main_paramsb,
                          const double *extra_params, double *extra_paramsb, double *state,
                          double *stateb, const double *sequence, double *loss, double *lossb);
#endif

static int L, C, B;
static double *state0, *state, *seq, *stated;

static void
reset(void)
{
    memcpy(state, state0, (size_t)(2 * L * B) * sizeof *state);
    memset(stated, 0, (size_t)(2 * L * B) * sizeof *stated);
}

static void
f(const double *x, double *y)
{
    reset();
    lstm_objective(L, C, B, x, x + 8 * L * B, state, seq, y);
}

static void
ref_b(const double *x, const double *w, double *y, double *g)
{
    double yb = w[0];
    reset();
    tap_lstm_objective_b(L, C, B, x, g, x + 8 * L * B, g + 8 * L * B, state, seq, y, &yb);
}

#if OURS == 1
static void
our_d(const double *x, const double *v, double *y, double *t)
{
    reset();
    our_lstm_objective_d(L, C, B, x, v, x + 8 * L * B, v + 8 * L * B, state, stated, seq, y, t);
}
#elif OURS == 2
static void
our_b(const double *x, const double *w, double *y, double *g)
{
    double yb = w[0];
    reset();
#if ADB_SELF
    our_lstm_objective_b(L, C, B, x, g, x + 8 * L * B, g + 8 * L * B, state, seq, y, &yb);
#else
    our_lstm_objective_b(L, C, B, x, g, x + 8 * L * B, g + 8 * L * B, state, stated, seq, y, &yb);
#endif
}
#endif

int
main(int argc, char **argv)
{
    FILE *in = NULL;
    if (argc == 2) {
        in = fopen(argv[1], "r");
        if (!in || fscanf(in, "%d %d %d", &L, &C, &B) != 3) {
            fprintf(stderr, "%s: cannot read l c b\n", argv[1]);
            return 2;
        }
    } else if (argc == 4) {
        L = atoi(argv[1]), C = atoi(argv[2]), B = atoi(argv[3]);
    } else {
        fprintf(stderr, "usage: lstm DATA.txt | lstm L C B\n");
        return 2;
    }
    if (L < 1 || C < 2 || B < 1) {
        fprintf(stderr, "lstm: l, b must be positive and c at least 2\n");
        return 2;
    }
    int nx = 8 * L * B + 3 * B;
    double *x = adb_alloc((size_t)nx, sizeof *x);
    state0 = adb_alloc((size_t)(2 * L * B), sizeof *state0);
    state = adb_alloc((size_t)(2 * L * B), sizeof *state);
    stated = adb_alloc((size_t)(2 * L * B), sizeof *stated);
    seq = adb_alloc((size_t)C * (size_t)B, sizeof *seq);
    for (int i = 0; i < nx; i++)
        if (in ? fscanf(in, "%lf", &x[i]) != 1 : (x[i] = adb_uniform(), 0))
            goto short_file;
    for (int i = 0; i < 2 * L * B; i++)
        if (in ? fscanf(in, "%lf", &state0[i]) != 1 : (state0[i] = adb_uniform(), 0))
            goto short_file;
    for (long i = 0; i < (long)C * B; i++)
        if (in ? fscanf(in, "%lf", &seq[i]) != 1 : (seq[i] = adb_uniform(), 0))
            goto short_file;
    if (in)
        fclose(in);
    adb_problem p = {.name = "lstm", .n = nx, .m = 1, .x = x, .f = f, .ref_b = ref_b};
#if OURS == 1
    p.our_d = our_d;
#elif OURS == 2
    p.our_b = our_b;
#endif
    return adb_main(&p);
short_file:
    fprintf(stderr, "%s: fewer numbers than l c b say\n", argv[1]);
    return 2;
}

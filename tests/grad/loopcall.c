/* c2xaif-test: loopcall 4 4 */
#include <math.h>

/* A loop over a formal bound n whose body calls a helper: sig writes
 * nothing but its own formals and locals (its Mod lists say so), and the
 * call is passed no variable the loop's header reads, so the adjoint runs
 * the loop backwards (tbr_invert.c) and tapes neither a trip count nor a
 * subscript per iteration. */
static double
sig(double x)
{
    return 1.0 / (1.0 + exp(-x));
}

static void
gates(int n, const double *x, double *y)
{
    for (int i = 0; i < n; i++)
        y[i] = sig(x[i]) * x[i];
}

void
loopcall(const double x[4], double y[4])
{
    gates(4, x, y);
}

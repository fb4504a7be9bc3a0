/* c2xaif-test: argdead 3 1 */
#include <math.h>

/* Under joint reversal a helper's argument checkpoint holds only what its
 * rerun and its adjoint read. lmul writes out whole before it reads it;
 * its rerun keeps the index loops alone and its adjoint reads outb, not
 * out, so out is not stored; v is read (the partials d[i] * v[i] read it
 * in place), so it is. sq's v (the caller's o, which lmul writes in each
 * iteration) is stored: its partials read it. */
static void
lmul(int n, const double *d, const double *v, double *out)
{
    for (int i = 0; i < n; i++)
        out[i] = d[i] * v[i];
    int k = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            out[j] = out[j] + d[k] * v[i];
            k++;
        }
}

static double
sq(int n, const double *v)
{
    double s = v[0] * v[0];
    for (int i = 1; i < n; i++)
        s = s + v[i] * v[i];
    return s;
}

void
argdead(const double x[3], double y[1])
{
    double w[3], o[3];
    y[0] = 0.0;
    for (int k = 0; k < 4; k++) {
        for (int i = 0; i < 3; i++)
            w[i] = sin(x[i] + k);
        lmul(3, x, w, o);
        y[0] += sq(3, o);
    }
}

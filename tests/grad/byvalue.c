/* c2xaif-test: byvalue 6 3 */
/* ADBench GMM's loop nest in small: dist's loop over ik runs to the
 * by-value formal k and calls helpers passed the by-value formal d, which
 * C copies: no variable of dist, formal or global, can share memory with
 * d or k, so the adjoint runs the loop backwards (tbr_invert.c) and
 * computes the subscript ik * d again instead of taping it. */
static void
sub(int d, const double *x, const double *y, double *out)
{
    for (int i = 0; i < d; i++)
        out[i] = x[i] - y[i];
}

static double
sq(int d, const double *v)
{
    double s = 0.0;
    for (int i = 0; i < d; i++)
        s += v[i] * v[i];
    return s;
}

static void
dist(int d, int k, const double *x, const double *means, double *y)
{
    double c[2];
    for (int ik = 0; ik < k; ik++) {
        sub(d, x, &means[ik * d], c);
        y[ik] = sq(d, c) * x[ik];
    }
}

void
byvalue(const double x[6], double y[3])
{
    dist(2, 3, x, x, y);
}

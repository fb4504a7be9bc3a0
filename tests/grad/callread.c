/* c2xaif-test: crobj 8 1 gate:w=2*n,gate:in=n,gate:out=n */

/* Partials read in place across calls (transforms/tape/tbr_values.c):
 * gate's loop calls sq, which writes only its own formal and locals, so
 * the arguments w and in, which nothing in gate writes, stay stable; the
 * subscript n + i reads the formal n, which nothing writes either. The
 * joint adjoint of gate reads in[i], w[i] and w[n + i] in place and tapes
 * no real (4 pushes an iteration before), as ADBench's lstm_model reads
 * its weights. tests/grad/callread.sh counts the pushes; golden.grad
 * checks the gradient. */
static double
sq(double u)
{
    return u * u;
}

static void
gate(int n, const double *w, const double *in, double *out)
{
    for (int i = 0; i < n; i++)
        out[i] = sq(in[i] * w[n + i]) + in[i] * w[i];
}

void
crobj(const double x[8], double y[1])
{
    double o[4];
    gate(4, &x[0], &x[4], o);
    y[0] = o[0] + o[1] + o[2] + o[3];
}

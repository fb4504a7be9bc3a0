/* c2xaif-test: sqobj 4 1 */

/* Partials recomputed through copies (transforms/tape/tbr_values.c,
 * chains): the partial of x[i] * x[i] is the sum of two linearization
 * temporaries, each a copy of x[i], which nothing writes; under joint
 * reversal the adjoint of sqsum reads x in place and tapes no real, as
 * ADBench's BA sqsum. tests/grad/sqsum.sh counts the pushes; golden.grad
 * checks the gradient. */
static double
sqsum(int n, const double *x)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += x[i] * x[i];
    return s;
}

void
sqobj(const double x[4], double y[1])
{
    y[0] = sqsum(4, x);
}

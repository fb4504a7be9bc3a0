/* tests/xaif2c/joint: a caller, a leaf routine called twice, and a loop
 * (joint.sh). */
static double
sq(double w)
{
    return 1.0 - w * w;
}

void
f(const double *x, double *y)
{
    double s = 0.0;
    for (int i = 0; i < 3; i++)
        s += x[i] * x[i + 1];
    y[0] = sq(x[0]) * x[1] + sq(s);
}

/* c2xaif-test: early_return 4 2 */
/* Early returns: from inside a loop of a callee, and from the top function. */
static double
first_above(const double v[4], double bound)
{
    for (int i = 0; i < 4; i++)
        if (v[i] > bound)
            return v[i] * v[i];
    return -1.0;
}

void
early_return(const double x[4], double y[2])
{
    y[0] = first_above(x, 1.2) + x[0];
    y[1] = x[1] * x[2];
    if (x[3] > 1.0)
        return;
    y[1] = 0.0;
}

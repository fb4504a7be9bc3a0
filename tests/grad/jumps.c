/* c2xaif-test: jumps 6 2 */
/* continue and break in a loop, and an early return from a helper. */
static double
clip(double v)
{
    if (v > 2.5)
        return 2.5 + 0.1 * v;
    return v;
}

void
jumps(const double x[6], double y[2])
{
    double s = 0.0, p = 1.0;
    for (int i = 0; i < 6; i++) {
        if (i % 2 == 1)
            continue;
        s += clip(x[i]) * x[i];
        if (s > 8.0)
            break;
        p *= x[i + 1];
    }
    y[0] = s;
    y[1] = p;
}

/* c2xaif-test: branch_loop 5 2 */
/* Branches inside a loop: if/else on data and on the counter, && and ||. */
void
branch_loop(const double x[5], double y[2])
{
    double pos = 0.0, neg = 0.0;
    for (int i = 0; i < 5; i++) {
        double v = x[i] - 1.2;
        if (v > 0.0 && i != 3)
            pos = pos + v * v;
        else if (v < -0.6 || i == 3)
            neg = neg - v * x[i];
        else
            pos = pos * 0.5;
        if (!(i % 2))
            neg = neg + 0.1 * x[i];
    }
    y[0] = pos;
    y[1] = neg;
}

/* c2xaif-test: newton 2 2 */
/* Square and cube roots by a fixed number of Newton steps. */
void
newton(const double x[2], double y[2])
{
    double r = 1.0, c = 1.0;
    for (int k = 0; k < 30; k++) {
        r = 0.5 * (r + x[0] / r);
        c = c - (c * c * c - x[1]) / (3.0 * c * c);
    }
    y[0] = r;
    y[1] = c;
}

/* c2xaif-test: straight 3 3 */
/* Straight-line code: arithmetic, a local, integer constants in real expressions. */
void
straight(const double x[3], double y[3])
{
    double t = x[0] * x[1] - 2 * x[2];
    y[0] = t * t + x[2] / 4.0;
    y[1] = -t / (1.5 + x[0] * x[0]);
    y[2] = (x[0] + x[1]) * (x[1] - x[2]) * 3;
}

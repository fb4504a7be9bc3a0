/* c2xaif-test: floats 2 2 */
/* int and double mixed: integer division, %, casts both ways, int locals. */
void
floats(const double x[2], double y[2])
{
    int k = (int)(x[1] * 7.0); /* 7 */
    int q = k / 2, r = k % 3;
    double d = (double)k / 2;
    y[0] = x[0] * q + r - d * x[1];
    y[1] = x[1] / (q + 1) + (double)(k - q * 2);
}

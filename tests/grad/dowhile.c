/* c2xaif-test: dowhile 2 2 */
/* A do-while loop that halves until below a bound (a data-dependent trip
 * count), and a do-while with a fixed count. */
void
dowhile(const double x[2], double y[2])
{
    double a = x[0] * 40.0;
    int n = 0;
    do {
        a = 0.5 * a + 0.1 * x[1];
        n++;
    } while (a > 1.0);
    double b = x[1];
    int k = 0;
    do {
        b = b * b * 0.5 + x[0];
        k++;
    } while (k < 4);
    y[0] = a * n;
    y[1] = b;
}

/* c2xaif-test: sort4 4 4 */
/* Sorting network by compare-and-swap in loops: the outputs are the
 * inputs' values in increasing order (each output's derivative is that of
 * the input that lands there). */
void
sort4(const double x[4], double y[4])
{
    double a[4];
    for (int i = 0; i < 4; i++)
        a[i] = x[3 - i] * x[3 - i] - x[i];
    for (int pass = 0; pass < 3; pass++)
        for (int i = 0; i < 3 - pass; i++)
            if (a[i] > a[i + 1]) {
                double t = a[i];
                a[i] = a[i + 1];
                a[i + 1] = t;
            }
    for (int i = 0; i < 4; i++)
        y[i] = a[i];
}

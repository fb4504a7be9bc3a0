/* c2xaif-test: prefix 5 5 */
/* Running sums and products: each output depends on all earlier inputs. */
void
prefix(const double x[5], double y[5])
{
    double s = 0.0, p = 1.0;
    for (int i = 0; i < 5; i++) {
        s += x[i] * x[i];
        p *= 1.0 + 0.1 * x[i];
        y[i] = s * p;
    }
}

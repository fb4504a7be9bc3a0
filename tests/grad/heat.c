/* c2xaif-test: heat 6 6 */
/* The explicit heat equation on 6 points with a non-linear source, 40 time
 * steps: nested loops over time and space, the old state copied. */
void
heat(const double x[6], double y[6])
{
    double u[6], v[6];
    for (int i = 0; i < 6; i++)
        u[i] = x[i];
    for (int t = 0; t < 40; t++) {
        for (int i = 0; i < 6; i++) {
            double left = i > 0 ? u[i - 1] : 0.0;
            double right = i < 5 ? u[i + 1] : 0.0;
            v[i] = u[i] + 0.2 * (left - 2.0 * u[i] + right) + 0.01 * u[i] * u[i];
        }
        for (int i = 0; i < 6; i++)
            u[i] = v[i];
    }
    for (int i = 0; i < 6; i++)
        y[i] = u[i];
}

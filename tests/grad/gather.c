/* c2xaif-test: gather 4 4 */
/* Integer index arithmetic: a permutation and a gather through an int
 * array, and a scatter-add. */
void
gather(const double x[4], double y[4])
{
    const int perm[4] = {2, 0, 3, 1};
    double r[4] = {0.0, 0.0, 0.0, 0.0};
    for (int i = 0; i < 4; i++) {
        int j = perm[i];
        r[(j + 1) % 4] += x[i] * x[j];
    }
    for (int i = 0; i < 4; i++)
        y[i] = r[i] + x[perm[3 - i]];
}

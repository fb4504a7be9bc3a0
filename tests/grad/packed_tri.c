/* c2xaif-test: packed_tri 14 4 */
/* y = Q v with Q lower triangular: its diagonal in x[0..3], the strict
 * lower part packed row after row in x[4..9] and read through a running
 * index (k++), as ADBench's GMM does; v = x[10..13]. The function ends
 * with its loop. */
void
packed_tri(const double x[14], double y[4])
{
    for (int i = 0; i < 4; i++)
        y[i] = x[i] * x[10 + i];
    int k = 0;
    for (int i = 0; i < 4; i++)
        for (int j = i + 1; j < 4; j++) {
            y[j] = y[j] + x[4 + k] * x[10 + i];
            k++;
        }
}

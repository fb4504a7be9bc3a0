/* c2xaif-test: offbound 8 6 x=8,y=6 */
/* Loops whose condition offsets the loop variable (tests/grad/offbound.sh):
 * i + k <= n, k + i < n, i - k < n - k and n >= i + k, with k and n sizes
 * the routine does not write in the loops. Each is read as i OP n - k
 * (n + k), so that the adjoint runs the loop backwards and reads x in
 * place: nothing is taped. */
void
offbound(const double *x, double *y)
{
    int n = 8, k = 3;
    for (int i = 0; i < 6; i++)
        y[i] = 0.0;
    for (int i = 0; i + k <= n; i++)
        for (int j = 0; j < k; j++)
            y[i] += x[j] * x[i + j];
    for (int i = 0; k + i < n; i++)
        y[i] += x[i] * x[i + k];
    for (int i = k; i - k < n - k; i++)
        y[i - k] += x[0] * x[i];
    for (int i = 1; n >= i + k; i++)
        y[i - 1] += x[i] * x[1];
}

/* c2xaif-test: loop_fixed 4 2 */
/* A loop with a fixed trip count (a declared counter, i++), and one counting down. */
#define N 4
void
loop_fixed(const double x[N], double y[2])
{
    double s = 0.0, p = 1.0;
    for (int i = 0; i < N; i++)
        s = s + x[i] * (i + 1);
    for (int i = N - 1; i >= 0; i -= 2)
        p *= x[i] + 1.0;
    y[0] = s;
    y[1] = p;
}

/* c2xaif-test: diffsq 6 1 x=6,y=1 */
/* A sum of squared differences (tests/grad/diffsq.sh): the partial of
 * (x[i] - x[5-i])^2 is the sum of two temporaries, each x[i] - x[5-i],
 * which nothing writes; the joint adjoint evaluates it again from x
 * instead of taping it. */
void
diffsq(const double *x, double *y)
{
    double s = 0.0;
    for (int i = 0; i < 6; i++)
        s += (x[i] - x[5 - i]) * (x[i] - x[5 - i]);
    y[0] = s;
}

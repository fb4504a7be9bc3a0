/* c2xaif-test: intshare 3 3 x=3,y=3 */
/* Integer arguments the callee's adjoint does not read
 * (tests/grad/intshare.sh): intshare calls acc three times in one block
 * with a count m that changes between the calls; acc, written after its
 * caller, names its formal m only to set the loop bound k, which its
 * adjoint pops (a bound that reads only m it would evaluate again, and
 * then read m), so no copy of m needs the tape. */
void acc(double *v, const double *u, int m);

void
intshare(const double *x, double *y)
{
    int m = 1;
    for (int j = 0; j < 3; j++)
        y[j] = x[j];
    acc(&y[0], &x[0], m);
    m = m + 1;
    acc(&y[1], &x[1], m);
    m = m + 1;
    acc(&y[2], &x[2], m);
}

void
acc(double *v, const double *u, int m)
{
    int k = m; /* a bound the adjoint cannot evaluate again: popped */
    for (int j = 0; j < k; j++)
        v[0] = v[0] * u[0] + 0.5;
}

/* c2xaif-test: horner 2 2 */
/* A polynomial of degree 6 by Horner's scheme, coefficients in a local array. */
void
horner(const double x[2], double y[2])
{
    const double c[7] = {1.0, -0.5, 0.25, 2.0, -1.5, 0.75, 0.125};
    double p = 0.0, q = 0.0;
    for (int k = 6; k >= 0; k--) {
        p = p * x[0] + c[k];
        q = q * x[1] + c[k] * x[0];
    }
    y[0] = p;
    y[1] = q;
}

/* c2xaif-test: pointer_moved 4 3 x=4,y=3 */
/* Pointer parameters that the function itself moves (v++, v += k, *w = e
 * then w++): each is a copy of the caller's pointer, an offset into the
 * array from 0; the caller's pointer stays where it was. */
static double
sumsq(const double *v, int n)
{
    double s = 0.0;
    const double *end = v + n;
    while (v < end) {
        s += *v * *v;
        v++;
    }
    return s;
}

void
pointer_moved(const double *x, double *y)
{
    double t[4];
    for (int i = 0; i < 4; i++)
        t[i] = x[3 - i] * x[i];
    y[2] = sumsq(t, 4) * x[1];
    for (int i = 0; i < 2; i++) {
        *y = x[0] * x[1] + (double)i;
        y += 1;
        x += 2;
    }
}

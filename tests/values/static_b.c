/* static_b: see static_a.c; the same static helper, another use. */
static double
sq(double v)
{
    return v * v;
}

double
fsb(double x, double z)
{
    return sq(x) * z;
}

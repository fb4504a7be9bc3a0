/* static_a, static_b: two files with the same static helper sq; their
 * derivatives link into one program. */
static double
sq(double v)
{
    return v * v;
}

double
fsa(double x)
{
    return sq(x) + 3.0 * x;
}
